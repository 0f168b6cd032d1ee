/**
 * Outcome evals: does a task come out better with a skill than without it, and at what cost? Every case
 * runs N trials per arm (with the skill; a baseline without it or with a previous version), each in a
 * fresh workspace, at most `concurrency` at once. A trial is graded by the case's trigger checks and
 * deterministic assertions first, then by a model grader with the case's rubric. Every finished trial is
 * saved under `resultsDir`, and a run over the same results skips it (resumable; a trial that failed to
 * run is run again, one whose grader failed is graded again); the report gives per case and overall
 * the pass rate of each arm with its Wilson interval, the difference, and tokens, time and tool calls.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { LanguageModel } from "ai";
import type { SkillAgent } from "../engine/skill-agent.js";
import type { Executor } from "../exec/executor.js";
import type { AssertionResult } from "./check-assertion.js";
import { gradeOutcomeTrial } from "./grade-outcome-trial.js";
import type { GraderVerdict } from "./grade-trial.js";
import type { OutcomeCase } from "./outcome-cases.js";
import { runAgentTrial, type TrialFile, type TrialRun } from "./run-agent-trial.js";
import { type RateInterval, wilsonInterval } from "./wilson-interval.js";

/** One arm: the skills the agent has. */
export interface OutcomeArm {
  /** `with-skill`, `baseline`, … (folder names in the results). */
  id: string;
  /** In reports: `with skill`, `without the skill`, `version at v1.2`. */
  label: string;
  /** A new agent for one trial (fresh conversation and workspace). */
  createAgent: () => Promise<SkillAgent>;
  /** Identifies what the arm runs (a digest of its skill files): a saved trial of another is run again. */
  fingerprint: string;
}

/** The model grader. */
export interface OutcomeGrader {
  model: LanguageModel;
  /** Its name in the report. */
  id: string;
}

/** A progress notice: one trial finished (or was found finished). */
export interface OutcomeProgress {
  done: number;
  total: number;
  caseId: string;
  arm: string;
  trial: number;
  passed: boolean;
  /** Found in the results of an earlier run, not run again. */
  resumed: boolean;
  durationMs: number;
}

/** Options of {@link runOutcomeEval}. */
export interface OutcomeEvalOptions {
  cases: readonly OutcomeCase[];
  /** The arms; the first is the one the skill is measured in, the second the baseline the delta is taken against. */
  arms: readonly OutcomeArm[];
  /** The skill under test (its folder holds the cases' input files and `evals/` scripts). */
  skill: { name: string; dir: string };
  /** Where trials and reports are kept. */
  resultsDir: string;
  /** The agent's model, by name (part of what identifies a saved trial). */
  modelId: string;
  /** The model grader; without one, a case with a rubric fails its trials with a grader error. */
  grader?: OutcomeGrader;
  /** Trials per case and arm. Default 3. */
  trials?: number;
  /** Trials in flight at once. Default 2. */
  concurrency?: number;
  /** Passed to the grader's model call (the agents' models carry their own). */
  seed?: number;
  /** `PATH` of the skill's `evals/` scripts. */
  scriptPath?: string;
  /** Where the skill's `evals/` scripts run (the sandbox); default a plain child process. */
  scriptExecutor?: Executor;
  /** Fields of the cases file skillrt kept without using them (reported). */
  unknownFields?: readonly string[];
  onProgress?: (progress: OutcomeProgress) => void;
  /** Stops the eval: trials in flight are cancelled (and run again next time), then it throws the reason. */
  abortSignal?: AbortSignal;
}

/** A trial as saved (`trials/<case>/<arm>/<n>/trial.json`). */
export interface TrialRecord {
  /** What the trial ran (case, arm, model): a saved trial with another key is run again. */
  key: string;
  caseId: string;
  arm: string;
  trial: number;
  run: TrialRun;
  files: TrialFile[];
  assertions: AssertionResult[];
  grader?:
    | { verdict: GraderVerdict; prompt: string }
    | { error: string; prompt?: string }
    | { skipped: string };
  passed: boolean;
  /** Whether the skill under test loaded. */
  triggered: boolean;
}

/** Figures of a set of trials. */
export interface ArmFigures {
  arm: string;
  label: string;
  passRate: RateInterval;
  /** Share of trials in which the skill under test loaded. */
  triggerRate: number;
  tokens: { total: number; mean: number };
  durationMs: { total: number; mean: number };
  toolCalls: { total: number; mean: number };
  /** Trials the agent did not complete, and trials whose grader failed. */
  errors: number;
  graderErrors: number;
}

/** One case's figures. */
export interface OutcomeCaseReport {
  id: string;
  prompt: string;
  arms: ArmFigures[];
  /** Pass rate of the first arm minus the second's (null with one arm). */
  delta: number | null;
  trials: Array<TrialRecord & { dir: string }>;
  /** Fields of the case skillrt does not use. */
  extra: Record<string, unknown>;
}

/** The whole report (`report.json`). */
export interface OutcomeReport {
  skill: string;
  model: string;
  grader: string | null;
  trialsPerArm: number;
  arms: ArmFigures[];
  delta: number | null;
  cases: OutcomeCaseReport[];
  /** Trials found finished in the results of an earlier run. */
  resumedTrials: number;
  unknownFields: string[];
  resultsDir: string;
}

/** Runs the eval (resuming what `resultsDir` holds) and writes `report.json` there; returns the report. */
export async function runOutcomeEval(options: OutcomeEvalOptions): Promise<OutcomeReport> {
  const trials = Math.max(1, options.trials ?? 3);
  await mkdir(options.resultsDir, { recursive: true });
  const jobs = options.cases.flatMap((evalCase) =>
    options.arms.flatMap((arm) =>
      Array.from({ length: trials }, (_, n) => ({ evalCase, arm, trial: n + 1 })),
    ),
  );
  const records = new Map<string, TrialRecord & { dir: string }>();
  let next = 0;
  let done = 0;
  let resumed = 0;
  const worker = async (): Promise<void> => {
    // Cancelled: start nothing more, let trials in flight end (they stop at once), then throw.
    while (next < jobs.length && options.abortSignal?.aborted !== true) {
      const job = jobs[next++]!;
      const started = performance.now();
      const { record, reused } = await runJob(options, job.evalCase, job.arm, job.trial);
      if (reused) resumed++;
      records.set(`${job.evalCase.id}\n${job.arm.id}\n${job.trial}`, record);
      done++;
      options.onProgress?.({
        done,
        total: jobs.length,
        caseId: job.evalCase.id,
        arm: job.arm.id,
        trial: job.trial,
        passed: record.passed,
        resumed: reused,
        durationMs: Math.round(performance.now() - started),
      });
    }
  };
  const width = Math.max(1, Math.min(options.concurrency ?? 2, jobs.length));
  await Promise.all(Array.from({ length: width }, worker));
  options.abortSignal?.throwIfAborted();

  const cases = options.cases.map((evalCase): OutcomeCaseReport => {
    const all = options.arms.flatMap((arm) =>
      Array.from({ length: trials }, (_, n) => records.get(`${evalCase.id}\n${arm.id}\n${n + 1}`)!),
    );
    const arms = options.arms.map((arm) =>
      figures(
        arm,
        all.filter((r) => r.arm === arm.id),
      ),
    );
    return {
      id: evalCase.id,
      prompt: evalCase.prompt,
      arms,
      delta: deltaOf(arms),
      trials: all,
      extra: evalCase.extra,
    };
  });
  const arms = options.arms.map((arm) =>
    figures(
      arm,
      cases.flatMap((c) => c.trials.filter((r) => r.arm === arm.id)),
    ),
  );
  const report: OutcomeReport = {
    skill: options.skill.name,
    model: options.modelId,
    grader: options.grader?.id ?? null,
    trialsPerArm: trials,
    arms,
    delta: deltaOf(arms),
    cases,
    resumedTrials: resumed,
    unknownFields: [...(options.unknownFields ?? [])],
    resultsDir: options.resultsDir,
  };
  await writeFile(path.join(options.resultsDir, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

function deltaOf(arms: readonly ArmFigures[]): number | null {
  const [first, second] = arms;
  if (first === undefined || second === undefined) return null;
  return Math.round((first.passRate.rate - second.passRate.rate) * 1000) / 1000;
}

function figures(arm: OutcomeArm, records: readonly TrialRecord[]): ArmFigures {
  const n = records.length;
  const sum = (f: (r: TrialRecord) => number) => records.reduce((total, r) => total + f(r), 0);
  const stat = (total: number) => ({ total, mean: n === 0 ? 0 : Math.round((total / n) * 10) / 10 });
  return {
    arm: arm.id,
    label: arm.label,
    passRate: wilsonInterval(records.filter((r) => r.passed).length, n),
    triggerRate: n === 0 ? 0 : Math.round((records.filter((r) => r.triggered).length / n) * 1000) / 1000,
    tokens: stat(sum((r) => r.run.tokens.total)),
    durationMs: stat(sum((r) => r.run.durationMs)),
    toolCalls: stat(sum((r) => r.run.toolCalls)),
    errors: records.filter((r) => r.run.error !== undefined).length,
    graderErrors: records.filter((r) => r.grader !== undefined && "error" in r.grader).length,
  };
}

/** A file-system-safe, unique folder name for a case id. */
export function caseFolder(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 40);
  return `${safe}-${createHash("sha256").update(id).digest("hex").slice(0, 6)}`;
}

async function runJob(
  options: OutcomeEvalOptions,
  evalCase: OutcomeCase,
  arm: OutcomeArm,
  trial: number,
): Promise<{ record: TrialRecord & { dir: string }; reused: boolean }> {
  const dir = path.join(options.resultsDir, "trials", caseFolder(evalCase.id), arm.id, String(trial));
  const recordFile = path.join(dir, "trial.json");
  const key = createHash("sha256")
    .update(JSON.stringify({ evalCase, arm: arm.id, fingerprint: arm.fingerprint, model: options.modelId }))
    .digest("hex");
  const saved = await readRecord(recordFile);
  // A trial that did not complete (a provider outage, a cancelled run) is not finished: it runs again.
  if (saved?.key === key && saved.run.error === undefined) {
    // A trial whose grader failed is graded again (the run itself is not repeated).
    if (saved.grader === undefined || !("error" in saved.grader))
      return { record: { ...saved, dir }, reused: true };
    const record = await gradeOutcomeTrial(options, evalCase, { ...saved }, dir);
    await writeFile(recordFile, `${JSON.stringify(record, null, 2)}\n`);
    return { record: { ...record, dir }, reused: true };
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const { run, files } = await runAgentTrial({
    createAgent: arm.createAgent,
    evalCase,
    skillDir: options.skill.dir,
    filesDir: path.join(dir, "files"),
    ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
  });
  await writeFile(path.join(dir, "answer.md"), run.answer);
  const record = await gradeOutcomeTrial(
    options,
    evalCase,
    {
      key,
      caseId: evalCase.id,
      arm: arm.id,
      trial,
      run,
      files,
      assertions: [],
      passed: false,
      triggered: run.loaded.includes(options.skill.name),
    },
    dir,
  );
  await writeFile(recordFile, `${JSON.stringify(record, null, 2)}\n`);
  return { record: { ...record, dir }, reused: false };
}

async function readRecord(file: string): Promise<TrialRecord | undefined> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as TrialRecord;
  } catch {
    return undefined;
  }
}
