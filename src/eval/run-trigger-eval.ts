/**
 * Headless trigger evals: run each case N times (bounded concurrency) and report, per case and per skill,
 * how often the expected skills loaded, how often forbidden ones did, how stable that was across runs,
 * and the tokens spent.
 */
import type { SkillSession } from "../context/skill-session.js";
import { pickLexical } from "../engine/select-skills.js";
import type { SkillAgent } from "../engine/skill-agent.js";
import type { EvalCase } from "./eval-cases.js";

/** What one run of a case did. */
export interface CaseRun {
  /** Skills loaded during the run (by the model, the pre-pass or a mention), in order, without repeats. */
  loaded: string[];
  tokens: number;
  /** Why the run failed to complete (a provider error); such a run does not pass. */
  error?: string;
}

/** Runs one case once (a fresh conversation each time). */
export type CaseRunner = (evalCase: EvalCase, run: number) => Promise<CaseRun>;

/** Options of {@link runTriggerEval}. */
export interface TriggerEvalOptions {
  cases: readonly EvalCase[];
  runCase: CaseRunner;
  /** Runs per case. Default 3. */
  runs?: number;
  /** Runs in flight at once. Default 4. */
  concurrency?: number;
  abortSignal?: AbortSignal;
}

/** One case's figures. */
export interface CaseReport {
  name: string;
  runs: number;
  /** Runs where every expected skill loaded, no forbidden one did, and nothing failed. */
  passed: number;
  passRate: number;
  /** Some runs passed and some did not. */
  flaky: boolean;
  /** Per expected skill: share of runs it loaded in. */
  triggerRate: Record<string, number>;
  /** Runs in which a forbidden skill loaded. */
  falseTriggers: number;
  /** How many runs loaded each skill (expected or not). */
  loads: Record<string, number>;
  tokens: number;
  errors: string[];
}

/** One skill's figures over every case that names it. */
export interface SkillReport {
  name: string;
  /** Runs of cases expecting it, and how many of them loaded it. */
  expectedRuns: number;
  triggered: number;
  triggerRate: number;
  /** Runs of cases forbidding it, and how many of them loaded it anyway. */
  forbiddenRuns: number;
  falseTriggers: number;
}

/** The whole report. */
export interface TriggerEvalReport {
  runsPerCase: number;
  totalRuns: number;
  passedRuns: number;
  passRate: number;
  flakyCases: number;
  tokens: number;
  cases: CaseReport[];
  skills: SkillReport[];
}

/** Label of a case in reports: its `name`, else its prompt cut to 60 characters. */
export function caseLabel(evalCase: EvalCase): string {
  if (evalCase.name !== undefined) return evalCase.name;
  const line = evalCase.prompt.replace(/\s+/g, " ").trim();
  return line.length <= 60 ? line : `${line.slice(0, 59)}…`;
}

/** Runs every case `runs` times, at most `concurrency` at once, and builds the report. */
export async function runTriggerEval(options: TriggerEvalOptions): Promise<TriggerEvalReport> {
  const runs = Math.max(1, options.runs ?? 3);
  const jobs = options.cases.flatMap((evalCase, index) =>
    Array.from({ length: runs }, (_, run) => ({ evalCase, index, run })),
  );
  const results: CaseRun[][] = options.cases.map(() => []);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      options.abortSignal?.throwIfAborted();
      const job = jobs[next++]!;
      let result: CaseRun;
      try {
        result = await options.runCase(job.evalCase, job.run);
      } catch (error) {
        result = { loaded: [], tokens: 0, error: error instanceof Error ? error.message : String(error) };
      }
      results[job.index]![job.run] = result;
    }
  };
  const width = Math.max(1, Math.min(options.concurrency ?? 4, jobs.length));
  await Promise.all(Array.from({ length: width }, worker));
  return buildReport(options.cases, results, runs);
}

function buildReport(cases: readonly EvalCase[], results: CaseRun[][], runs: number): TriggerEvalReport {
  const skills = new Map<string, SkillReport>();
  const skill = (name: string): SkillReport => {
    let report = skills.get(name);
    if (report === undefined) {
      report = { name, expectedRuns: 0, triggered: 0, triggerRate: 0, forbiddenRuns: 0, falseTriggers: 0 };
      skills.set(name, report);
    }
    return report;
  };
  const caseReports = cases.map((evalCase, i): CaseReport => {
    const caseRuns = results[i] ?? [];
    const loads: Record<string, number> = {};
    let passed = 0;
    let falseTriggers = 0;
    let tokens = 0;
    const errors: string[] = [];
    for (const run of caseRuns) {
      const loaded = new Set(run.loaded);
      for (const name of loaded) loads[name] = (loads[name] ?? 0) + 1;
      const hitForbidden = evalCase.forbid.some((name) => loaded.has(name));
      if (hitForbidden) falseTriggers++;
      if (run.error === undefined && !hitForbidden && evalCase.expect.every((name) => loaded.has(name)))
        passed++;
      if (run.error !== undefined) errors.push(run.error);
      tokens += run.tokens;
      for (const name of evalCase.expect) {
        const s = skill(name);
        s.expectedRuns++;
        if (loaded.has(name)) s.triggered++;
      }
      for (const name of evalCase.forbid) {
        const s = skill(name);
        s.forbiddenRuns++;
        if (loaded.has(name)) s.falseTriggers++;
      }
    }
    const triggerRate: Record<string, number> = {};
    for (const name of evalCase.expect) triggerRate[name] = rate(loads[name] ?? 0, caseRuns.length);
    return {
      name: caseLabel(evalCase),
      runs: caseRuns.length,
      passed,
      passRate: rate(passed, caseRuns.length),
      flaky: passed > 0 && passed < caseRuns.length,
      triggerRate,
      falseTriggers,
      loads,
      tokens,
      errors,
    };
  });
  for (const s of skills.values()) s.triggerRate = rate(s.triggered, s.expectedRuns);
  const totalRuns = caseReports.reduce((sum, c) => sum + c.runs, 0);
  const passedRuns = caseReports.reduce((sum, c) => sum + c.passed, 0);
  return {
    runsPerCase: runs,
    totalRuns,
    passedRuns,
    passRate: rate(passedRuns, totalRuns),
    flakyCases: caseReports.filter((c) => c.flaky).length,
    tokens: caseReports.reduce((sum, c) => sum + c.tokens, 0),
    cases: caseReports,
    skills: [...skills.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}

function rate(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000;
}

/**
 * A runner that sends each case's prompt and turns to a fresh {@link SkillAgent} (from `createAgent`),
 * recording every skill load (model, pre-pass, mention) and the tokens the turns used.
 */
export function agentCaseRunner(createAgent: () => Promise<SkillAgent>): CaseRunner {
  return async (evalCase) => {
    const agent = await createAgent();
    const loaded: string[] = [];
    let tokens = 0;
    const unsubscribe = agent.subscribe((event) => {
      if (event.type === "skill-load" && !loaded.includes(event.name)) loaded.push(event.name);
    });
    try {
      for (const message of [evalCase.prompt, ...evalCase.turns]) {
        const result = await agent.send(message);
        tokens += result.usage.totalTokens;
      }
      return { loaded, tokens };
    } catch (error) {
      return { loaded, tokens, error: error instanceof Error ? error.message : String(error) };
    } finally {
      unsubscribe();
      await agent.close();
    }
  };
}

/**
 * A runner without a model: what the `lexical` selection pre-pass would load for each message (catalog
 * search through `session`, which applies visibility), at most `maxActive` (default 3) per message.
 */
export function lexicalCaseRunner(session: SkillSession, maxActive = 3): CaseRunner {
  return async (evalCase) => {
    const loaded: string[] = [];
    for (const message of [evalCase.prompt, ...evalCase.turns]) {
      for (const name of pickLexical(session.search(message, maxActive + 5), maxActive)) {
        if (!loaded.includes(name)) loaded.push(name);
      }
    }
    return { loaded, tokens: 0 };
  };
}
