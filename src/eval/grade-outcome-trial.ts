/**
 * Grading of one outcome eval trial, in order: it completed; its trigger checks; its deterministic
 * assertions; then, when the case has a rubric and everything before passed, the model grader.
 */
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { type AssertionResult, checkAssertion } from "./check-assertion.js";
import { type GradedFile, gradeTrial } from "./grade-trial.js";
import { needsGrader, type OutcomeCase, SKILL_UNDER_TEST } from "./outcome-cases.js";
import type { TrialFile } from "./run-agent-trial.js";
import type { OutcomeEvalOptions, TrialRecord } from "./run-outcome-eval.js";

/** Grades a trial of `evalCase` whose results are in `dir`; returns the record with the grading set. */
export async function gradeOutcomeTrial(
  options: OutcomeEvalOptions,
  evalCase: OutcomeCase,
  record: TrialRecord,
  dir: string,
): Promise<TrialRecord> {
  const { grader: _previous, ...rest } = record;
  if (record.run.error !== undefined)
    return { ...rest, assertions: [], grader: { skipped: "the trial failed" }, passed: false };
  const filesDir = path.join(dir, "files");
  const outputs = {
    trialDir: dir,
    filesDir,
    answer: record.run.answer,
    answerFile: path.join(dir, "answer.md"),
  };
  const assertions: AssertionResult[] = [];
  const named = (name: string) => (name === SKILL_UNDER_TEST ? options.skill.name : name);
  for (const name of evalCase.expect.map(named))
    assertions.push({
      text: `${name} loaded`,
      passed: record.run.loaded.includes(name),
      ...(record.run.loaded.includes(name)
        ? {}
        : { detail: `loaded: ${record.run.loaded.join(", ") || "none"}` }),
    });
  for (const name of evalCase.forbid.map(named))
    assertions.push({
      text: `${name} not loaded`,
      passed: !record.run.loaded.includes(name),
      ...(record.run.loaded.includes(name) ? { detail: `${name} loaded` } : {}),
    });
  for (const a of evalCase.assertions)
    assertions.push(
      await checkAssertion(a, outputs, options.skill.dir, {
        ...(options.scriptPath === undefined ? {} : { searchPath: options.scriptPath }),
        ...(options.scriptExecutor === undefined ? {} : { executor: options.scriptExecutor }),
      }),
    );
  const asserted = assertions.every((a) => a.passed);
  if (!needsGrader(evalCase)) return { ...rest, assertions, passed: asserted };
  if (!asserted) return { ...rest, assertions, grader: { skipped: "an assertion failed" }, passed: false };
  if (options.grader === undefined)
    return { ...rest, assertions, grader: { error: "no grader model is configured" }, passed: false };
  const graded = await gradeTrial({
    model: options.grader.model,
    evalCase,
    answer: record.run.answer,
    files: await gradedFiles(filesDir, record.files),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
  });
  if (!graded.ok)
    return { ...rest, assertions, grader: { error: graded.error, prompt: graded.prompt }, passed: false };
  return {
    ...rest,
    assertions,
    grader: { verdict: graded.verdict, prompt: graded.prompt },
    passed: graded.verdict.pass,
  };
}

/** The trial's files as the grader sees them: text when it decodes as UTF-8, else only the size. */
async function gradedFiles(filesDir: string, files: readonly TrialFile[]): Promise<GradedFile[]> {
  const out: GradedFile[] = [];
  for (const file of files) {
    const full = path.join(filesDir, file.path);
    if ((await stat(full).catch(() => undefined))?.isFile() !== true) continue;
    const data = await readFile(full);
    let text: string | undefined;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(data);
    } catch {
      text = undefined;
    }
    out.push({
      path: file.path,
      bytes: file.bytes,
      ...(text === undefined || text.includes("\0") ? {} : { text }),
    });
  }
  return out;
}
