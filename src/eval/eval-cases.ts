/** Cases of a trigger eval (`skillrt eval`): which skills a request must load, and which it must not. */
import { parse as parseYaml } from "yaml";
import { z } from "zod";

/** One case: a user request (and optional follow-up turns) with the skills it must and must not load. */
export const EvalCase = z
  .object({
    /** Label in reports. Default: the prompt, shortened. */
    name: z.string().min(1).optional(),
    /** The user's (first) message. */
    prompt: z.string().min(1),
    /** Skills that must load during the conversation. */
    expect: z.array(z.string().min(1)).default([]),
    /** Skills that must not load. */
    forbid: z.array(z.string().min(1)).default([]),
    /** Follow-up user messages, sent in order after `prompt` in the same conversation. */
    turns: z.array(z.string().min(1)).default([]),
  })
  .strict();
export type EvalCase = z.infer<typeof EvalCase>;

/** A cases file: a list of cases, or `{ cases: [...] }`. */
export const EvalCases = z.union([z.array(EvalCase), z.object({ cases: z.array(EvalCase) }).strict()]);

/** Result of {@link parseEvalCases}. */
export type ParseEvalCasesResult = { ok: true; cases: EvalCase[] } | { ok: false; message: string };

/**
 * Parses a cases file (YAML, which includes JSON). Expected failures — bad syntax, a wrong shape, an
 * empty list, a skill both expected and forbidden — come back as a message saying where and what.
 */
export function parseEvalCases(text: string): ParseEvalCasesResult {
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    return {
      ok: false,
      message: `not valid YAML or JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  // The list itself, so that an issue's path points into it (a union would hide where it failed).
  const list =
    typeof data === "object" && data !== null && !Array.isArray(data) && "cases" in data ? data.cases : data;
  const parsed = z.array(EvalCase).safeParse(list);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`;
    return {
      ok: false,
      message: `expected a list of cases ({ prompt, expect?, forbid?, turns?, name? })${where}: ${issue?.message ?? "invalid"}`,
    };
  }
  const cases = parsed.data;
  if (cases.length === 0) return { ok: false, message: "the file has no cases" };
  for (const [i, c] of cases.entries()) {
    const both = c.expect.filter((name) => c.forbid.includes(name));
    if (both.length > 0)
      return { ok: false, message: `case ${i + 1}: '${both[0]}' is both expected and forbidden` };
  }
  return { ok: true, cases };
}
