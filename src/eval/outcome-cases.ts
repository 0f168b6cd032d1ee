/**
 * Cases of an outcome eval (`skillrt eval --outcome`): a task, its input files, and how to grade what the
 * agent did. Read from where authors keep them — skill-creator's `evals/evals.json`
 * (`{ skill_name, evals: [{ id, prompt, expected_output, files, expectations }] }`), skillrt's own
 * `evals/cases.yaml` (a list, or `{ cases: [...] }`, of the same fields, plus the trigger evals' `expect`,
 * `forbid` and `turns`, so the file `skillrt init` writes works here too) — and fields skillrt does not
 * use are kept on the case and reported, never dropped.
 */
import { parse as parseYaml } from "yaml";
import { z } from "zod";

/**
 * A deterministic check of a trial, run before the model grader. Without `file` the check reads the final
 * answer; `script` runs a program of the skill's `evals/` folder, which passes by exiting 0.
 */
export const OutcomeAssertion = z
  .object({
    /** A path in the trial's files (`out/report.md`, `work/notes.txt`). Absent: the final answer. */
    file: z.string().min(1).optional(),
    /** The file exists (`true`, the default when nothing else is asked of a file) or does not. */
    exists: z.boolean().optional(),
    /** The text holds this string. */
    contains: z.string().optional(),
    /** The text does not hold this string. */
    not_contains: z.string().optional(),
    /** The text matches this regular expression (JavaScript syntax). */
    matches: z.string().optional(),
    /** The file is JSON whose fields (dotted paths, `rows.0.name`) equal these values. */
    json: z.record(z.string(), z.unknown()).optional(),
    /** A program under the skill folder (`evals/check.py`), run in the trial's files folder; passes on exit 0. */
    script: z.string().min(1).optional(),
    /** Arguments of `script`. */
    args: z.array(z.string()).optional(),
  })
  .strict()
  .superRefine((a, ctx) => {
    if (a.script !== undefined && (a.file !== undefined || hasTextCheck(a) || a.exists !== undefined))
      ctx.addIssue({ code: "custom", message: "a script assertion takes only script and args" });
    if (a.script === undefined && a.file === undefined && !hasTextCheck(a))
      ctx.addIssue({
        code: "custom",
        message: "an assertion needs a file, a check of the answer (contains, matches) or a script",
      });
    if (a.matches !== undefined) {
      try {
        new RegExp(a.matches);
      } catch {
        ctx.addIssue({ code: "custom", message: `matches is not a regular expression: ${a.matches}` });
      }
    }
  });
export type OutcomeAssertion = z.infer<typeof OutcomeAssertion>;

function hasTextCheck(a: {
  contains?: string | undefined;
  not_contains?: string | undefined;
  matches?: string | undefined;
  json?: Record<string, unknown> | undefined;
}): boolean {
  return (
    a.contains !== undefined ||
    a.not_contains !== undefined ||
    a.matches !== undefined ||
    a.json !== undefined
  );
}

/** The fields of a case as written (skill-creator's names; `assertions` may mix statements and checks). */
const CaseInput = z.object({
  id: z.union([z.string().min(1), z.number()]).optional(),
  name: z.string().min(1).optional(),
  prompt: z.string().min(1),
  expected_output: z.string().optional(),
  files: z.array(z.string().min(1)).default([]),
  expectations: z.array(z.string().min(1)).default([]),
  assertions: z.array(z.union([z.string().min(1), OutcomeAssertion])).default([]),
  rubric: z.string().optional(),
  // Trigger checks, as in the trigger evals' cases.yaml, and skill-creator's should_trigger.
  expect: z.array(z.string().min(1)).default([]),
  forbid: z.array(z.string().min(1)).default([]),
  should_trigger: z.boolean().optional(),
  turns: z.array(z.string().min(1)).default([]),
});
const KNOWN_CASE_FIELDS = new Set(Object.keys(CaseInput.shape));

/** One case, normalised. */
export interface OutcomeCase {
  /** Stable id: the file's `id` or `name`, else the case's position (1-based). */
  id: string;
  prompt: string;
  /** Input files, relative to the skill folder, staged into each trial's workspace (`work/inputs/`). */
  files: string[];
  /** What success looks like, for the grader. */
  expectedOutput?: string;
  /** Statements the grader checks (`expectations`, and `assertions` written as text). */
  expectations: string[];
  /** Free-form grading instructions for the grader. */
  rubric?: string;
  /** Deterministic checks, run first. */
  assertions: OutcomeAssertion[];
  /**
   * Trigger checks: skills that must load in a trial, and skills that must not (`should_trigger: true`
   * or `false` names the skill under test, {@link SKILL_UNDER_TEST}).
   */
  expect: string[];
  forbid: string[];
  /** Follow-up user messages, sent in order after `prompt` in the same conversation. */
  turns: string[];
  /** Fields skillrt does not use, as written (kept in the report). */
  extra: Record<string, unknown>;
}

/** Stands for the skill under test in {@link OutcomeCase.expect} and `forbid` (from `should_trigger`). */
export const SKILL_UNDER_TEST = "$skill";

/** Whether a case has anything for the model grader (then it is asked; otherwise only the assertions count). */
export function needsGrader(evalCase: OutcomeCase): boolean {
  return (
    evalCase.expectations.length > 0 || evalCase.rubric !== undefined || evalCase.expectedOutput !== undefined
  );
}

/** Result of {@link parseOutcomeCases}. */
export type ParseOutcomeCasesResult =
  | {
      ok: true;
      cases: OutcomeCase[];
      /** `skill_name` of an evals.json. */
      skillName?: string;
      /** Where fields skillrt does not use were found (`evals[2].should_trigger`); they are kept. */
      unknownFields: string[];
    }
  | { ok: false; message: string };

/**
 * Parses a cases file (YAML, which includes JSON): skill-creator's `{ skill_name, evals }`, or a list of
 * cases / `{ cases }`. Expected failures — syntax, a wrong shape, no cases, two cases with one id, a case
 * with nothing to grade — come back as a message saying where and what.
 */
export function parseOutcomeCases(text: string): ParseOutcomeCasesResult {
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    return {
      ok: false,
      message: `not valid YAML or JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const unknownFields: string[] = [];
  let list: unknown = data;
  let listName = "";
  let skillName: string | undefined;
  if (typeof data === "object" && data !== null && !Array.isArray(data)) {
    const top = data as Record<string, unknown>;
    listName = "evals" in top ? "evals" : "cases" in top ? "cases" : "";
    if (listName === "")
      return {
        ok: false,
        message: "expected { evals: [...] } (skill-creator's evals.json), { cases: [...] } or a list",
      };
    list = top[listName];
    if (typeof top["skill_name"] === "string") skillName = top["skill_name"];
    for (const key of Object.keys(top)) if (key !== listName && key !== "skill_name") unknownFields.push(key);
  }
  if (!Array.isArray(list))
    return { ok: false, message: `expected a list of cases${listName === "" ? "" : ` at ${listName}`}` };
  const cases: OutcomeCase[] = [];
  const where = (i: number) => (listName === "" ? `${i}` : `${listName}.${i}`);
  for (const [i, raw] of list.entries()) {
    const parsed = CaseInput.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const at = [where(i), ...(issue?.path ?? [])].join(".");
      return {
        ok: false,
        message: `case at ${at}: ${issue?.message ?? "invalid"} (a case has prompt, and optionally id, name, files, expected_output, expectations, assertions, rubric, expect, forbid, should_trigger, turns)`,
      };
    }
    const extra: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
      if (KNOWN_CASE_FIELDS.has(key)) continue;
      extra[key] = value;
      unknownFields.push(`${where(i)}.${key}`);
    }
    const c = parsed.data;
    const statements = c.assertions.filter((a): a is string => typeof a === "string");
    const evalCase: OutcomeCase = {
      id: c.id !== undefined ? String(c.id) : (c.name ?? String(i + 1)),
      prompt: c.prompt,
      files: c.files,
      expectations: [...c.expectations, ...statements],
      assertions: c.assertions.filter((a): a is OutcomeAssertion => typeof a !== "string"),
      expect: [...c.expect, ...(c.should_trigger === true ? [SKILL_UNDER_TEST] : [])],
      forbid: [...c.forbid, ...(c.should_trigger === false ? [SKILL_UNDER_TEST] : [])],
      turns: c.turns,
      extra,
      ...(c.expected_output === undefined ? {} : { expectedOutput: c.expected_output }),
      ...(c.rubric === undefined ? {} : { rubric: c.rubric }),
    };
    if (
      !needsGrader(evalCase) &&
      evalCase.assertions.length === 0 &&
      evalCase.expect.length === 0 &&
      evalCase.forbid.length === 0
    )
      return {
        ok: false,
        message: `case '${evalCase.id}' has nothing to grade: give it expected_output, expectations, a rubric, assertions, or skills to expect or forbid`,
      };
    if (cases.some((other) => other.id === evalCase.id))
      return { ok: false, message: `two cases have the id '${evalCase.id}'` };
    for (const file of evalCase.files)
      if (file.startsWith("/") || file.split(/[\\/]/).includes(".."))
        return {
          ok: false,
          message: `case '${evalCase.id}': input file '${file}' must be a path inside the skill folder`,
        };
    cases.push(evalCase);
  }
  if (cases.length === 0) return { ok: false, message: "the file has no cases" };
  return { ok: true, cases, unknownFields, ...(skillName === undefined ? {} : { skillName }) };
}
