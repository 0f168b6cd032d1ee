/**
 * The model grader of an outcome eval: the case's rubric (expected output, expectations, rubric text), the
 * trial's final answer and the files it left go to a model, whose verdict and reasons are recorded. A
 * grader that fails — the call throws, or the answer is not a verdict — is reported as such, never as a pass.
 */
import { generateText, type LanguageModel } from "ai";
import { z } from "zod";
import type { OutcomeCase } from "./outcome-cases.js";

/** A file the trial left, as the grader sees it. */
export interface GradedFile {
  /** Path in the trial's files (`out/report.md`). */
  path: string;
  /** The text (cut), or undefined for a binary or oversized file. */
  text?: string;
  bytes: number;
}

/** The grader's answer. */
export const GraderVerdict = z.object({
  pass: z.boolean(),
  reasons: z.string(),
  expectations: z
    .array(z.object({ text: z.string(), passed: z.boolean(), evidence: z.string().default("") }))
    .default([]),
});
export type GraderVerdict = z.infer<typeof GraderVerdict>;

/** What grading one trial came to. */
export type GradeResult =
  | { ok: true; verdict: GraderVerdict /** The prompt the grader got. */; prompt: string }
  | { ok: false; error: string; prompt: string };

/** Most characters of one file, and of all files, put in the grader's prompt. */
const FILE_LIMIT = 8_000;
const FILES_LIMIT = 40_000;

const SYSTEM = `You grade the result of an AI agent's task against a rubric. Be strict: an expectation passes only when the answer or the files show it; when in doubt, it fails. Answer with one JSON object and nothing else:
{"pass": true|false, "reasons": "why, citing the answer or files", "expectations": [{"text": "<the expectation>", "passed": true|false, "evidence": "<what shows it>"}]}`;

/** The grader's user prompt for a trial of `evalCase`: the rubric, then the task, the answer and the files. */
export function graderPrompt(evalCase: OutcomeCase, answer: string, files: readonly GradedFile[]): string {
  const lines: string[] = ["# Rubric", ""];
  if (evalCase.expectedOutput !== undefined) lines.push(`Expected output: ${evalCase.expectedOutput}`, "");
  if (evalCase.rubric !== undefined) lines.push(evalCase.rubric.trim(), "");
  if (evalCase.expectations.length > 0) {
    lines.push("Expectations (grade each one):");
    for (const e of evalCase.expectations) lines.push(`- ${e}`);
    lines.push("");
  }
  lines.push("# Task the agent was given", "", evalCase.prompt, "", "# The agent's final answer", "");
  lines.push(answer.trim() === "" ? "(no answer)" : answer, "");
  lines.push("# Files the agent left", "");
  if (files.length === 0) lines.push("(none)");
  let budget = FILES_LIMIT;
  for (const file of files) {
    if (file.text === undefined || budget <= 0) {
      lines.push(`## ${file.path} (${file.bytes} bytes, not shown)`, "");
      continue;
    }
    const shown = file.text.slice(0, Math.min(FILE_LIMIT, budget));
    budget -= shown.length;
    const cut = shown.length < file.text.length ? ` (first ${shown.length} characters)` : "";
    lines.push(`## ${file.path}${cut}`, "", "```", shown, "```", "");
  }
  return lines.join("\n");
}

/** Options of {@link gradeTrial}. */
export interface GradeTrialOptions {
  model: LanguageModel;
  evalCase: OutcomeCase;
  answer: string;
  files: readonly GradedFile[];
  /** Passed to the model call where the provider supports it. */
  seed?: number;
  abortSignal?: AbortSignal;
}

/**
 * Asks `model` for a verdict. A verdict passes only when the grader says `pass` and no expectation it
 * graded failed.
 */
export async function gradeTrial(options: GradeTrialOptions): Promise<GradeResult> {
  const prompt = graderPrompt(options.evalCase, options.answer, options.files);
  let text: string;
  try {
    const result = await generateText({
      model: options.model,
      system: SYSTEM,
      prompt,
      temperature: 0,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
    });
    text = result.text;
  } catch (error) {
    return {
      ok: false,
      prompt,
      error: `the grader failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const verdict = parseVerdict(text);
  if (verdict === undefined)
    return {
      ok: false,
      prompt,
      error: `the grader's answer is not a verdict: ${JSON.stringify(text.trim().slice(0, 200))}`,
    };
  return {
    ok: true,
    prompt,
    verdict: { ...verdict, pass: verdict.pass && verdict.expectations.every((e) => e.passed) },
  };
}

/** The verdict in a grader's answer: the JSON object, bare or in a code fence. */
export function parseVerdict(text: string): GraderVerdict | undefined {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end < start) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
  const parsed = GraderVerdict.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}
