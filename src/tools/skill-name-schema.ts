/**
 * The schema of a skill-name parameter. When there are 1 to 256 visible skills (trpc's rule), the JSON
 * Schema the model sees lists them as an `enum`, so well-behaved models cannot invent a name. Validation
 * itself accepts any string: a name outside the list reaches the tool, which answers "not found" with the
 * closest names instead of the provider SDK's generic schema error. Hidden skills never appear in the enum.
 */
import { z } from "zod";

/** Largest catalog for which names are listed as an enum. */
export const MAX_ENUM_NAMES = 256;

/** Name schema for `names` (visible skills, sorted), described by `description`. */
export function skillNameSchema(names: readonly string[], description: string): z.ZodType<string> {
  const schema = z.string().describe(description);
  if (names.length === 0 || names.length > MAX_ENUM_NAMES) return schema;
  return schema.meta({ enum: [...names] });
}
