/**
 * trpc-agent-go's `skill_run` (`tool/skill/run.go`) over skillrt's run: its input fields — `output_files`
 * (workspace-relative globs, returned inline), `editor_text` (an `$EDITOR` that writes the given text),
 * `save_as_artifacts` / `artifact_prefix` / `omit_inline_content`, `inputs[].pin` — unknown fields refused;
 * and its output additions: `primary_output` (the lexicographically first non-empty text file of at most
 * 32 KiB; `out/**` is scanned for it when no outputs were asked) and trpc's warnings, word for word.
 */
import { chmod, lstat, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { type Tool, tool } from "ai";
import { z } from "zod";
import { collectOutputs } from "../../exec/collect-outputs.js";
import { InputSpec } from "../../exec/input-spec.js";
import { OutputSpec } from "../../exec/output-spec.js";
import { createRedactor } from "../../exec/redact.js";
import type { RunSetup } from "../../exec/run-config.js";
import type { SkillRunCompleted, SkillRunRequest, SkillRunResult } from "../../exec/run-skill-command.js";
import type { Workspace } from "../../exec/workspace.js";
import { writeFileNoFollow } from "../../exec/write-file-no-follow.js";
import { builtOnce } from "../../util/built-once.js";
import type { ProfileRun } from "../profile-types.js";
import { SKILL_RUN_DESCRIPTION, SkillRunInput } from "../skill-run-input.js";
import { type SkillRunOutput, type SkillRunOutputFile, toSkillRunOutput } from "../skill-run-output.js";
import { type SkillToolResult, toolFailure } from "../skill-tool-result.js";

/** trpc's warnings (`tool/skill/run.go`). */
export const TRPC_RUN_WARNINGS = {
  failedRunEmptyOutputFiles:
    "empty output_files omitted because command failed; shell redirections can create empty files before execution fails",
  outputFilesWorkspaceOnly:
    "output_files are workspace-relative; prefer output_files content; when you need a stable reference, use output_files[*].ref (workspace://...)",
  saveAsArtifactsSkipped:
    "save_as_artifacts requested but artifact service is not configured; outputs are not persisted",
  outputsSaveSkipped:
    "outputs.save requested but artifact service is not configured; outputs are not persisted",
} as const;

/** Largest text file eligible for `primary_output`. */
const PRIMARY_OUTPUT_BYTES = 32 * 1024;
/** Files of `out/**` looked at for `primary_output` when no outputs were asked. */
const AUTO_PRIMARY_FILES = 20;

/** Builds the input schema of trpc's `skill_run`; unknown fields are refused. */
function buildTrpcRunInput() {
  return z.strictObject({
    skill: z.string().describe("Skill name."),
    command: SkillRunInput.shape.command,
    cwd: SkillRunInput.shape.cwd,
    env: SkillRunInput.shape.env,
    stdin: SkillRunInput.shape.stdin,
    editor_text: z
      .string()
      .optional()
      .describe(
        "Text an editor-driven command receives: $EDITOR/$VISUAL write it to the file they are given.",
      ),
    output_files: z
      .array(z.string().min(1))
      .optional()
      .describe(
        "Workspace-relative globs of files returned inline, e.g. out/*.txt ($OUTPUT_DIR/*.txt works too).",
      ),
    timeout: SkillRunInput.shape.timeout,
    save_as_artifacts: z.boolean().optional().describe("Save the output_files as versioned artifacts."),
    omit_inline_content: z.boolean().optional().describe("Return output_files metadata only (no content)."),
    artifact_prefix: z.string().optional().describe("Prefix of saved artifact names."),
    inputs: z
      .array(
        z.strictObject({
          ...InputSpec.shape,
          pin: z
            .boolean()
            .optional()
            .describe(
              "artifact:// without @version: reuse the version this input resolved to the first time.",
            ),
        }),
      )
      .optional()
      .describe("Files to stage into the workspace before running."),
    outputs: OutputSpec.optional().describe(
      "Output files to collect (output_files wins when both are given).",
    ),
  });
}
/**
 * Input schema of trpc's `skill_run`, built on first use (when the trpc profile makes its tools), not when
 * the module loads: every agent loads the profiles, and building zod schemas is start-up work.
 */
export const trpcRunInput = builtOnce(buildTrpcRunInput);
/** Input of trpc's `skill_run`. */
export type TrpcRunInput = z.infer<ReturnType<typeof buildTrpcRunInput>>;

/** trpc's `skill_run` result: skillrt's run object plus `primary_output`. */
export type TrpcRunOutput = SkillRunOutput & { primary_output?: SkillRunOutputFile };

const pins = new WeakMap<Workspace, Map<string, number>>();

function isTextMime(mime: string): boolean {
  const base = mime.split(";")[0]?.trim() ?? "";
  return base.startsWith("text/") || base === "application/json" || base.endsWith("+json");
}

/** trpc's `selectPrimaryOutput`: the first by name of the non-empty text files of ≤ 32 KiB. */
export function selectPrimaryOutput(files: readonly SkillRunOutputFile[]): SkillRunOutputFile | undefined {
  let best: SkillRunOutputFile | undefined;
  for (const f of files) {
    if ((f.content ?? "").trim() === "" || !isTextMime(f.mime_type)) continue;
    if (Buffer.byteLength(f.content ?? "") > PRIMARY_OUTPUT_BYTES) continue;
    if (best !== undefined && best.name < f.name) continue;
    best = f;
  }
  return best;
}

/** Writes trpc's editor helper (`work/.trpc_agent/editor_input.txt` and `editor_write.sh`); returns the script path. */
async function writeEditor(workspace: Workspace, text: string): Promise<string> {
  const dir = path.join(workspace.root, "work", ".trpc_agent");
  // A link a previous run left there must not redirect the writes.
  const existing = await lstat(dir).catch(() => undefined);
  if (existing !== undefined && !existing.isDirectory()) await rm(dir, { force: true });
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const content = path.join(dir, "editor_input.txt");
  const script = path.join(dir, "editor_write.sh");
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  await writeFileNoFollow(content, new TextEncoder().encode(text));
  await writeFileNoFollow(
    script,
    new TextEncoder().encode(
      `#!/bin/sh\nset -eu\nfor last do target="$last"; done\nif [ -z "\${target:-}" ]; then\n  echo 'editor wrapper: missing target file' >&2\n  exit 1\nfi\ncat ${quote(content)} > "$target"\n`,
    ),
  );
  await chmod(script, 0o755);
  return script;
}

/** A trpc run ready to go: skillrt's request, and what its output needs afterwards. */
export interface PreparedTrpcRun {
  request: SkillRunRequest;
  warnings: string[];
  /** Records the artifact versions the pinned inputs resolved to. */
  recordPins(result: SkillRunResult): void;
}

/** Turns trpc's input into skillrt's request (editor helper written, pins applied); an error text when refused. */
export async function prepareTrpcRun(
  input: TrpcRunInput,
  setup: RunSetup,
): Promise<PreparedTrpcRun | string> {
  const store = setup.environment.artifactStore;
  const env = { ...input.env };
  if (input.editor_text !== undefined && input.editor_text !== "") {
    for (const name of ["EDITOR", "VISUAL"]) {
      if (name in env) return `editor_text cannot be combined with env.${name}`;
    }
    const script = await writeEditor(setup.environment.workspace, input.editor_text);
    env["EDITOR"] = script;
    env["VISUAL"] = script;
  }
  const pinned = pins.get(setup.environment.workspace) ?? new Map<string, number>();
  pins.set(setup.environment.workspace, pinned);
  const pinKey = (spec: { from: string; to?: string | undefined }) =>
    `${spec.from.replace(/@\d+$/, "")}\0${spec.to ?? ""}`;
  const inputs = input.inputs?.map(({ pin, ...spec }) => {
    const version = pin === true ? pinned.get(pinKey(spec)) : undefined;
    return version !== undefined && /^artifact:\/\/[^@]+$/.test(spec.from)
      ? { ...spec, from: `${spec.from}@${version}` }
      : spec;
  });
  const warnings: string[] = [];
  const files = input.output_files ?? [];
  const saveFiles = input.save_as_artifacts === true && files.length > 0;
  if (saveFiles && store === undefined) warnings.push(TRPC_RUN_WARNINGS.saveAsArtifactsSkipped);
  let outputs = input.outputs;
  if (files.length > 0) {
    outputs = {
      globs: files,
      inline: true,
      ...(saveFiles && store !== undefined ? { save: true, name_template: input.artifact_prefix ?? "" } : {}),
    };
  } else if (outputs?.save === true && store === undefined) {
    warnings.push(TRPC_RUN_WARNINGS.outputsSaveSkipped);
    outputs = { ...outputs, save: false };
  }
  return {
    request: {
      name: input.skill,
      command: input.command,
      cwd: input.cwd,
      env,
      stdin: input.stdin,
      timeout: input.timeout,
      inputs,
      outputs,
    },
    warnings,
    recordPins(result) {
      if (result.status !== "ran") return;
      input.inputs?.forEach((spec, i) => {
        const staged = result.stagedInputs[i];
        if (spec.pin === true && staged?.version !== undefined && !pinned.has(pinKey(spec)))
          pinned.set(pinKey(spec), staged.version);
      });
    },
  };
}

/** trpc's output of a run that executed: failed-run file filter, primary_output, warnings, omitted content. */
export async function finishTrpcRun(
  result: SkillRunCompleted,
  input: TrpcRunInput,
  prepared: PreparedTrpcRun,
  setup: RunSetup,
): Promise<TrpcRunOutput> {
  const warnings = [...prepared.warnings];
  const base = toSkillRunOutput(result);
  const failed = base.exit_code !== 0 || base.timed_out;
  let outputFiles = base.output_files;
  if (failed && outputFiles.some((f) => f.size_bytes === 0)) {
    outputFiles = outputFiles.filter((f) => f.size_bytes > 0);
    warnings.push(TRPC_RUN_WARNINGS.failedRunEmptyOutputFiles);
  }
  let primary = selectPrimaryOutput(outputFiles);
  if (prepared.request.outputs === undefined && primary === undefined) {
    const secrets = Object.values(setup.environment.skillEnv?.[input.skill] ?? {});
    const auto = await collectOutputs(
      { globs: ["out/**"], inline: true, max_files: AUTO_PRIMARY_FILES },
      { root: setup.environment.workspace.root, runRel: result.runDir, redactor: createRedactor(secrets) },
    ).catch(() => undefined);
    primary = selectPrimaryOutput(
      toSkillRunOutput({ ...result, outputFiles: auto?.files ?? [] }).output_files,
    );
  }
  if (outputFiles.length > 0 && base.artifact_files.length === 0)
    warnings.push(TRPC_RUN_WARNINGS.outputFilesWorkspaceOnly);
  if (input.omit_inline_content === true) {
    outputFiles = outputFiles.map(({ content: _content, ...rest }) => ({ ...rest, content: "" }));
  }
  return {
    ...base,
    output_files: outputFiles,
    ...(primary === undefined ? {} : { primary_output: primary }),
    // skillrt's own note on a missing store is replaced by trpc's.
    warnings: [
      ...base.warnings.filter((w) => w !== "save requested but no artifact store is configured"),
      ...warnings,
    ],
  };
}

/** trpc's `skill_run`, over the session's run setup. */
export function trpcSkillRun(run: ProfileRun): Tool {
  return tool({
    description: `${SKILL_RUN_DESCRIPTION} Returns a primary_output (the first small text output file) and warnings. Prefer primary_output/output_files content.`,
    inputSchema: trpcRunInput(),
    execute: async (input, { abortSignal }): Promise<SkillToolResult> => {
      const prepared = await prepareTrpcRun(input, run.setup);
      if (typeof prepared === "string") return toolFailure(prepared);
      // Staged as trpc stages it: out/, work/, inputs/ and .venv in the skill folder.
      const result = await run.execute(prepared.request, abortSignal, { skillLinks: true });
      if (result.status === "refused") return toolFailure(result.message);
      prepared.recordPins(result);
      const output = await finishTrpcRun(result, input, prepared, run.setup);
      return { text: JSON.stringify(output), isError: false, run: output };
    },
  });
}
