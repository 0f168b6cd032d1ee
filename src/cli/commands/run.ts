/** `skillrt run NAME -- COMMAND…`: run a command in a skill's workspace through an executor. */
import path from "node:path";
import { createCatalog } from "../../catalog/create-catalog.js";
import type { OutputSpec } from "../../exec/collect-outputs.js";
import { createExecutor, type ExecutorChoice } from "../../exec/create-executor.js";
import { createWorkspace } from "../../exec/create-workspace.js";
import type { RunSettings } from "../../exec/run-config.js";
import { runSkillCommand } from "../../exec/run-skill-command.js";
import type { InputSpec } from "../../exec/stage-inputs.js";
import { cliCatalogOptions, rootOption } from "../cli-roots.js";
import { defineCommand, usageError } from "../define-command.js";
import { abortOnInterrupt } from "../listen-for-interrupt.js";
import { cliExecutorChoice, cliRunSettings, loadCliConfig } from "../load-cli-config.js";
import { writeJson } from "../write-output.js";

const EXECUTORS: ExecutorChoice[] = ["auto", "sandbox", "local", "container"];

/** The `run` command. */
export const runCommand = defineCommand({
  name: "run",
  summary: "Run a command in a skill's sandboxed workspace",
  usage: `Usage: skillrt run NAME [options] -- COMMAND [ARGS...]

Runs COMMAND with the skill's directory as the working directory, inside a fresh workspace
(skills/, work/, out/, runs/) and, by default, inside a bubblewrap sandbox (no network, read-only
skill, cleared environment, resource limits). The skill's folder is exactly its files, read-only:
write to $OUTPUT_DIR (collected as out/...) or $WORK_DIR; inputs are staged in $WORK_DIR/inputs. A single COMMAND word containing spaces or shell
syntax (e.g. "python3 x.py | head") runs through a shell; otherwise the words are run directly.

Options:
  --root DIR         Look for skills in DIR instead of the default roots (repeatable).
  --executor KIND    auto (default: sandbox when bubblewrap works, else local), sandbox, local, container.
                     Default from the config's exec.executor.
  --timeout SECONDS  Kill the command and its children after this long. Default: exec.timeoutSeconds,
                     else 300.
  --cwd DIR          Working directory relative to the skill root. Default: the skill root.
  --input SPEC       Stage a file first: a path (data.csv, ./in/a.txt or /abs/path, under the current
                     directory or exec.hostDirs; the same as host:///abs/path), artifact://name[@version],
                     workspace://rel or skill://name/rel; copied to work/inputs/ (repeatable).
  --output GLOB      Collect matching workspace files after the run, e.g. 'out/**' (repeatable). The
                     workspace is deleted after the run, so keep them with --save (artifacts), --keep
                     (the workspace) or --json (their content); --output alone is refused.
  --save             Save the collected files as versioned artifacts (v1, v2, …) in .skillrt/artifacts
                     under the current directory (exec.artifactsDir), named by their workspace path,
                     e.g. artifact://out/report.md; later runs read them with --input.
  --keep             Keep the workspace directory (its path is printed on stderr).
  --json             Print { exitCode, stdout, stderr, timedOut, durationMs, truncated,
                     outputFiles: [{ name, size, mimeType, content?, artifact? }], executor }
                     as JSON (artifact: { name, version } with --save).
  -h, --help         Show this help.

Trust: run does not ask for skillrt trust. You name the skill and the command yourself, as when you
type it in a shell, so a project's untrusted skill runs too (in the sandbox by default). What a model
runs is different: an agent's skill_run and script tools refuse an untrusted skill's scripts until
skillrt trust.

Configuration: skillrt.config.json / ~/.skillrt/config.json. Per-skill env (skills.NAME.env) reaches
the command and is redacted from what is printed; exec.allowCommands / exec.denyCommands refuse
commands; see docs/exec.md.

Exit codes: the command's exit code when it ran; 1 unknown skill, refused run or bad configuration;
2 usage error.
`,
  options: {
    ...rootOption,
    executor: { type: "string" },
    timeout: { type: "string" },
    cwd: { type: "string" },
    input: { type: "string", multiple: true },
    output: { type: "string", multiple: true },
    save: { type: "boolean" },
    keep: { type: "boolean" },
    json: { type: "boolean" },
  },
  minPositionals: 2,
  async run({ values, positionals }, io) {
    const [name = "", ...words] = positionals;
    if (values.executor !== undefined && !EXECUTORS.includes(values.executor as ExecutorChoice))
      return usageError(io, "run", `--executor must be one of ${EXECUTORS.join(", ")}`);
    if (values.save === true && values.output === undefined)
      return usageError(io, "run", "--save needs --output GLOB (the files to save)");
    // Collected files live in the workspace, deleted after the run: alone, --output would list them and lose them.
    if (values.output !== undefined && values.save !== true && values.keep !== true && values.json !== true)
      return usageError(
        io,
        "run",
        "--output only collects files from the workspace, which is deleted after the run: add --save to keep them as artifacts in .skillrt/artifacts, --keep to keep the workspace, or --json to print their content",
      );
    const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
    if (timeout !== undefined && !(timeout > 0))
      return usageError(io, "run", "--timeout expects a positive number of seconds");
    const command = words.length === 1 && /[\s|&;<>()$`*?]/.test(words[0] ?? "") ? (words[0] ?? "") : words;

    const catalog = await createCatalog(await cliCatalogOptions(values.root, io, values.refresh === true));
    const record = catalog.get(name);
    if (record === undefined) {
      const closest = catalog.closest(name);
      io.stderr.write(
        `skillrt run: unknown skill '${name}'${closest.length > 0 ? `. Closest: ${closest.join(", ")}` : ""}\n`,
      );
      return 1;
    }
    let settings: RunSettings;
    let kind: ExecutorChoice;
    try {
      const config = await loadCliConfig({
        cwd: io.cwd,
        env: io.env,
        warn: (w) => io.stderr.write(`skillrt run: warning: ${w}\n`),
      });
      settings = cliRunSettings(config, { cwd: io.cwd, defaultHostDirs: [io.cwd] });
      kind = cliExecutorChoice(config, values.executor as ExecutorChoice | undefined);
    } catch (error) {
      io.stderr.write(`skillrt run: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    const { executor } = createExecutor({ kind });
    const workspace = await createWorkspace(values.keep === true ? { kept: true } : {});
    const interrupt = abortOnInterrupt(io);
    try {
      const inputs: InputSpec[] = (values.input ?? []).map((from) => ({ from: inputSpec(from, io.cwd) }));
      const outputs: OutputSpec | undefined =
        values.output === undefined
          ? undefined
          : { globs: values.output, inline: true, ...(values.save === true ? { save: true } : {}) };
      const result = await runSkillCommand(
        {
          name,
          command,
          ...(values.cwd === undefined ? {} : { cwd: values.cwd }),
          ...(timeout === undefined ? {} : { timeout }),
          ...(inputs.length > 0 ? { inputs } : {}),
          ...(outputs === undefined ? {} : { outputs }),
        },
        {
          environment: { ...settings.environment, workspace, executor, abortSignal: interrupt.signal },
          // `requireLoaded` has no meaning here: there is no session, the user names the skill.
          policy: { ...settings.policy, requireLoaded: false, maxTimeoutSeconds: Number.POSITIVE_INFINITY },
          lookup: { getSkill: (n) => catalog.get(n), closest: (n) => catalog.closest(n) },
        },
      );
      if (result.status === "refused") {
        io.stderr.write(`skillrt run: ${result.message}\n`);
        return 1;
      }
      if (values.json === true) {
        await writeJson(io.stdout, {
          exitCode: result.exitCode,
          stdout: result.stdout,
          stderr: result.stderr,
          timedOut: result.timedOut,
          durationMs: result.durationMs,
          truncated: result.truncated,
          outputFiles: result.outputFiles.map((f) => ({
            name: f.name,
            size: f.size,
            mimeType: f.mimeType,
            ...(f.content === undefined ? {} : { content: f.content }),
            ...(f.artifact === undefined ? {} : { artifact: f.artifact }),
          })),
          executor: result.executor,
        });
      } else {
        // Nothing is written for an empty stream: a command that prints nothing leaves the process's
        // stdout and stderr unopened (opening one costs milliseconds of `skillrt run`'s start-up).
        if (result.stdout !== "") io.stdout.write(result.stdout);
        if (result.stderr !== "") io.stderr.write(result.stderr);
        for (const f of result.outputFiles) {
          const saved =
            f.artifact === undefined ? "" : `, saved as artifact://${f.artifact.name}@${f.artifact.version}`;
          io.stderr.write(`output: ${f.name} (${f.mimeType}, ${f.size} bytes${saved})\n`);
        }
        if (result.timedOut)
          io.stderr.write(`skillrt run: timed out; the command and its children were killed\n`);
      }
      for (const warning of result.warnings) io.stderr.write(`skillrt run: warning: ${warning}\n`);
      if (values.keep === true) io.stderr.write(`workspace: ${workspace.root}\n`);
      return result.exitCode < 0 ? 1 : result.exitCode;
    } finally {
      interrupt.release();
      if (values.keep !== true) await workspace.dispose();
    }
  },
});

/** A plain path (`data.csv`, `./in/a.txt`, `/abs/a.txt`) is the host file it names; a `scheme://` spec is kept. */
function inputSpec(from: string, cwd: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(from) ? from : `host://${path.resolve(cwd, from)}`;
}
