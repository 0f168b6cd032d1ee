/**
 * `skillrt eval --outcome SKILL_DIR`: does the task come out better with the skill than without it? Runs
 * the skill's cases (`evals/evals.json`, `evals/cases.yaml` or `--cases FILE`) in an arm with the skill
 * and a baseline arm (without it, or a previous version from a folder or a git revision), grades every
 * trial, and reports pass rates with intervals, the delta, and the cost of each arm.
 */
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { LanguageModel } from "ai";
import { digestRoot } from "../../catalog/root-digest.js";
import { loadModelConfig } from "../../config/load-model-config.js";
import { createSkillAgent } from "../../engine/create-skill-agent.js";
import { chooseExecutor } from "../../engine/open-skills.js";
import { resolveModel } from "../../engine/resolve-model.js";
import { SkillrtError } from "../../errors/skillrt-error.js";
import { copySkillWithoutEvals } from "../../eval/copy-skill-without-evals.js";
import { parseOutcomeCases } from "../../eval/outcome-cases.js";
import { renderOutcomeHtml } from "../../eval/render-outcome-html.js";
import { type OutcomeArm, type OutcomeReport, runOutcomeEval } from "../../eval/run-outcome-eval.js";
import { skillAtGitRef } from "../../eval/skill-at-git-ref.js";
import { withSeed } from "../../eval/with-seed.js";
import type { ExecutorChoice } from "../../exec/create-executor.js";
import type { CliIo } from "../command.js";
import { usageError } from "../define-command.js";
import { formatOutcomeReport, outcomeSummaryJson, percent, points } from "../format-outcome-report.js";
import { fromEnvironment } from "../from-environment.js";
import { intFlag } from "../int-flag.js";
import { listenForInterrupt } from "../listen-for-interrupt.js";
import { writeOutput } from "../write-output.js";

/** The flags `eval --outcome` reads. */
export interface OutcomeFlags {
  root?: string[] | undefined;
  cases?: string | undefined;
  trials?: string | undefined;
  concurrency?: string | undefined;
  baseline?: string | undefined;
  out?: string | undefined;
  "min-pass"?: string | undefined;
  "min-delta"?: string | undefined;
  seed?: string | undefined;
  "max-steps"?: string | undefined;
  executor?: string | undefined;
  json?: boolean | undefined;
  model?: string | undefined;
  provider?: string | undefined;
  "base-url"?: string | undefined;
  "grader-model"?: string | undefined;
  "grader-provider"?: string | undefined;
  "grader-base-url"?: string | undefined;
}

const EXECUTORS = ["auto", "sandbox", "local", "container"] as const;

function rateFlag(
  value: string | undefined,
  name: string,
  min: number,
): number | undefined | { error: string } {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < min || n > 1)
    return { error: `--${name} takes a number from ${min} to 1, got '${value}'` };
  return n;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** Runs `eval --outcome` (the skill folder is `positionals[0]`, default the current folder). */
export async function runOutcomeCommand(
  values: OutcomeFlags,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  const ints: Record<string, number | undefined> = {};
  for (const name of ["trials", "concurrency", "max-steps"] as const) {
    const parsed = intFlag(values[name], name);
    if (typeof parsed === "object") return usageError(io, "eval", parsed.error);
    ints[name] = parsed;
  }
  let seed: number | undefined;
  if (values.seed !== undefined) {
    seed = Number(values.seed);
    if (!Number.isInteger(seed) || seed < 0)
      return usageError(io, "eval", `--seed takes a whole number, got '${values.seed}'`);
  }
  const minPass = rateFlag(values["min-pass"], "min-pass", 0);
  if (typeof minPass === "object") return usageError(io, "eval", minPass.error);
  const minDelta = rateFlag(values["min-delta"], "min-delta", -1);
  if (typeof minDelta === "object") return usageError(io, "eval", minDelta.error);
  const executor = values.executor ?? "auto";
  if (!(EXECUTORS as readonly string[]).includes(executor))
    return usageError(io, "eval", `--executor must be one of ${EXECUTORS.join(", ")}`);

  const skillDir = path.resolve(io.cwd, positionals[0] ?? ".");
  if (!(await exists(path.join(skillDir, "SKILL.md")))) {
    io.stderr.write(
      `skillrt eval: ${skillDir} is not a skill folder (no SKILL.md); name the skill to evaluate\n`,
    );
    return 1;
  }
  const casesFile =
    values.cases !== undefined
      ? path.resolve(io.cwd, values.cases)
      : (await exists(path.join(skillDir, "evals", "evals.json")))
        ? path.join(skillDir, "evals", "evals.json")
        : path.join(skillDir, "evals", "cases.yaml");
  let text: string;
  try {
    text = await readFile(casesFile, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    io.stderr.write(
      code === "ENOENT" && values.cases === undefined
        ? `skillrt eval: ${skillDir} has no evals/evals.json or evals/cases.yaml; write one, or give --cases FILE (see docs/evals.md)\n`
        : `skillrt eval: cannot read ${casesFile}: ${code ?? error}\n`,
    );
    return 1;
  }
  const parsed = parseOutcomeCases(text);
  if (!parsed.ok) {
    io.stderr.write(`skillrt eval: ${casesFile}: ${parsed.message}\n`);
    return 1;
  }
  for (const evalCase of parsed.cases)
    for (const file of evalCase.files)
      if (!(await exists(path.join(skillDir, file)))) {
        io.stderr.write(
          `skillrt eval: ${casesFile}: case '${evalCase.id}' names input file '${file}', which is not in ${skillDir}\n`,
        );
        return 1;
      }
  if (parsed.unknownFields.length > 0)
    io.stderr.write(
      `skillrt eval: ${casesFile}: fields kept in the report but not used: ${parsed.unknownFields.join(", ")}\n`,
    );

  const temp = await mkdtemp(path.join(os.tmpdir(), "skillrt-eval-"));
  try {
    const extraRoots = (values.root ?? []).map((root) => path.resolve(io.cwd, root));
    // The baseline: no skill (an empty root, so no default root sneaks the skill in), a folder, or a git revision.
    let baselineDir: string | undefined;
    let baselineLabel = "without the skill";
    const baseline = values.baseline ?? "none";
    if (baseline !== "none") {
      const asFolder = path.resolve(io.cwd, baseline);
      if (await exists(path.join(asFolder, "SKILL.md"))) {
        baselineDir = asFolder;
        baselineLabel = `the skill in ${baseline}`;
      } else {
        try {
          baselineDir = await skillAtGitRef(skillDir, baseline, path.join(temp, "baseline"));
        } catch (error) {
          if (!SkillrtError.isInstance(error)) throw error;
          io.stderr.write(
            `skillrt eval: --baseline ${baseline} is neither a skill folder nor a git revision of the skill: ${error.message}\n`,
          );
          return 1;
        }
        baselineLabel = `the skill at ${baseline}`;
      }
    }
    const empty = path.join(temp, "no-skills");
    await mkdir(empty);
    // The agents see the skills without their evals/ folders (the cases, expected outputs and checks).
    const shown = await copySkillWithoutEvals(skillDir, path.join(temp, "with-skill"));
    const shownBaseline =
      baselineDir === undefined
        ? empty
        : await copySkillWithoutEvals(baselineDir, path.join(temp, "baseline-view"));
    const armRoots = [
      { id: "with-skill", label: "with the skill", roots: [shown, ...extraRoots] },
      { id: "baseline", label: baselineLabel, roots: [shownBaseline, ...extraRoots] },
    ];

    const modelFlags = {
      ...(values.model === undefined ? {} : { model: values.model }),
      ...(values.provider === undefined ? {} : { provider: values.provider }),
      ...(values["base-url"] === undefined ? {} : { baseURL: values["base-url"] }),
    };
    let model: LanguageModel | undefined;
    let modelId = "";
    let grader: { model: LanguageModel; id: string };
    const arms: OutcomeArm[] = [];
    let skillName: string | undefined;
    try {
      for (const arm of armRoots) {
        const parts = await fromEnvironment({
          cwd: io.cwd,
          env: io.env,
          roots: arm.roots,
          store: false,
          tools: false,
          model: modelFlags,
          executor: executor as ExecutorChoice,
          defaultHostDirs: [],
          onWarning: (message) => io.stderr.write(`skillrt eval: warning: ${message}\n`),
        });
        if (model === undefined) {
          model = seed === undefined ? parts.model : withSeed(parts.model, seed);
          modelId = `${parts.modelConfig.provider}/${parts.modelConfig.modelId}`;
          skillName = parts.catalog.list().find((r) => path.resolve(r.dir) === path.resolve(shown))?.name;
        }
        const armModel = model;
        const fingerprint = (await Promise.all(arm.roots.map((root) => digestRoot(root)))).join(",");
        const maxSteps = ints["max-steps"];
        arms.push({
          id: arm.id,
          label: arm.label,
          fingerprint,
          createAgent: () =>
            createSkillAgent({
              ...parts,
              model: armModel,
              // Nothing of the project is in reach: inputs come staged, not from host:// paths.
              cwd: empty,
              ...(maxSteps === undefined ? {} : { maxSteps }),
            }),
        });
      }
      const graderFlags = {
        model: values["grader-model"] ?? values.model,
        provider: values["grader-provider"] ?? values.provider,
        baseURL: values["grader-base-url"] ?? values["base-url"],
      };
      if (
        values["grader-model"] === undefined &&
        values["grader-provider"] === undefined &&
        values["grader-base-url"] === undefined
      ) {
        grader = { model: model!, id: modelId };
      } else {
        const graderConfig = await loadModelConfig({ env: io.env, cwd: io.cwd, flags: graderFlags });
        grader = {
          model: resolveModel(graderConfig),
          id: `${graderConfig.provider}/${graderConfig.modelId}`,
        };
      }
    } catch (error) {
      if (!SkillrtError.isInstance(error)) throw error;
      io.stderr.write(`skillrt eval: ${error.message}\n`);
      return error.code === "config-invalid" ? 2 : 1;
    }
    if (skillName === undefined) {
      io.stderr.write(
        `skillrt eval: ${skillDir} did not load as a skill; run 'skillrt validate ${skillDir}'\n`,
      );
      return 1;
    }
    if (parsed.skillName !== undefined && parsed.skillName !== skillName)
      io.stderr.write(
        `skillrt eval: warning: ${casesFile} names skill '${parsed.skillName}', the folder holds '${skillName}'\n`,
      );
    const scriptExecutor = chooseExecutor(executor as ExecutorChoice);
    const resultsDir = path.resolve(io.cwd, values.out ?? path.join(".skillrt", "evals", skillName));
    // Ctrl-C or SIGTERM: trials in flight stop, finished ones stay in the results for the next run.
    const interrupt = new AbortController();
    let signalled: NodeJS.Signals | undefined;
    const releases = (["SIGINT", "SIGTERM"] as const).map((signal) =>
      listenForInterrupt(
        io,
        () => {
          signalled ??= signal;
          interrupt.abort();
        },
        { signals: [signal] },
      ),
    );
    let report: OutcomeReport;
    try {
      report = await runOutcomeEval({
        cases: parsed.cases,
        arms,
        skill: { name: skillName, dir: skillDir },
        resultsDir,
        modelId,
        grader,
        unknownFields: parsed.unknownFields,
        ...(ints["trials"] === undefined ? {} : { trials: ints["trials"] }),
        ...(ints["concurrency"] === undefined ? {} : { concurrency: ints["concurrency"] }),
        ...(seed === undefined ? {} : { seed }),
        ...(io.env["PATH"] === undefined ? {} : { scriptPath: io.env["PATH"] }),
        // The evals/ scripts run where the skill's scripts do (the sandbox under auto).
        ...(scriptExecutor === undefined ? {} : { scriptExecutor }),
        onProgress: (p) =>
          io.stderr.write(
            `skillrt eval: [${p.done}/${p.total}] case ${p.caseId} · ${p.arm} · trial ${p.trial}: ${p.passed ? "pass" : "fail"}${p.resumed ? " (from an earlier run)" : ` (${(p.durationMs / 1000).toFixed(1)} s)`}\n`,
          ),
        abortSignal: interrupt.signal,
      });
    } catch (error) {
      if (!interrupt.signal.aborted) throw error;
      io.stderr.write(
        `skillrt eval: ${signalled === "SIGTERM" ? "terminated" : "cancelled"}; finished trials are kept in ${resultsDir}: run the same command again to go on.\n`,
      );
      return signalled === "SIGTERM" ? 143 : 130;
    } finally {
      for (const release of releases) release();
    }
    const failedRuns = report.cases.flatMap((c) => c.trials.filter((t) => t.run.error !== undefined));
    if (failedRuns.length > 0)
      io.stderr.write(
        `skillrt eval: ${failedRuns.length} trial${failedRuns.length === 1 ? "" : "s"} did not complete (they count as failed and run again next time); the first: ${failedRuns[0]!.run.error}\n`,
      );
    const graderFailures = report.cases.flatMap((c) =>
      c.trials.flatMap((t) => (t.grader !== undefined && "error" in t.grader ? [t.grader.error] : [])),
    );
    if (graderFailures.length > 0)
      io.stderr.write(
        `skillrt eval: the grader failed on ${graderFailures.length} trial${graderFailures.length === 1 ? "" : "s"} (not counted as passes; graded again next time); the first: ${graderFailures[0]}\n`,
      );
    const htmlFile = path.join(resultsDir, "report.html");
    await writeFile(htmlFile, renderOutcomeHtml(report));
    await writeOutput(
      io.stdout,
      values.json === true
        ? `${JSON.stringify(outcomeSummaryJson(report, minPass ?? null, minDelta ?? null), null, 2)}\n`
        : formatOutcomeReport(report, htmlFile),
    );
    let code = 0;
    const measured = report.arms[0]!.passRate.rate;
    if (minPass !== undefined && measured < minPass) {
      io.stderr.write(
        `skillrt eval: pass rate with the skill ${percent(measured)} is below --min-pass ${percent(minPass)}\n`,
      );
      code = 1;
    }
    if (minDelta !== undefined && (report.delta ?? 0) < minDelta) {
      io.stderr.write(
        `skillrt eval: the skill's delta ${points(report.delta)} is below --min-delta ${points(minDelta)}\n`,
      );
      code = 1;
    }
    return code;
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}
