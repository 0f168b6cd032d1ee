/**
 * The schema of a skill-name parameter: a `z.enum` of the visible names when there are 1 to 256 of them
 * (trpc's rule; the model cannot invent a name), else a plain string (unknown names are answered with
 * the closest ones). Hidden skills never appear in the enum.
 */
import { z } from "zod";

/** Largest catalog for which names are an enum. */
export const MAX_ENUM_NAMES = 256;

/** Name schema for `names` (visible skills, sorted), described by `description`. */
export function skillNameSchema(names: readonly string[], description: string): z.ZodType<string> {
  const [first, ...rest] = names;
  if (first !== undefined && names.length <= MAX_ENUM_NAMES)
    return z.enum([first, ...rest]).describe(description);
  return z.string().describe(description);
}
