/**
 * The `outputs` field of a skill run: which workspace files `collectOutputs` collects after the run.
 * Its own module so that running a command (`skillrt run`) does not build zod schemas it never parses.
 */
import { z } from "zod";

const positive = z.number().int().positive();

/** The `outputs` field of a skill run (snake_case; camelCase aliases are accepted). */
export const OutputSpec = z.preprocess(
  (value) => {
    if (typeof value !== "object" || value === null) return value;
    const v: Record<string, unknown> = { ...value };
    const aliases: Record<string, string> = {
      maxFiles: "max_files",
      maxFileBytes: "max_file_bytes",
      maxTotalBytes: "max_total_bytes",
      nameTemplate: "name_template",
    };
    for (const [camel, snake] of Object.entries(aliases)) {
      if (v[snake] === undefined && v[camel] !== undefined) v[snake] = v[camel];
      delete v[camel];
    }
    return v;
  },
  z.object({
    globs: z
      .array(z.string().min(1))
      .min(1)
      .describe("Workspace-relative globs, e.g. out/** or $OUTPUT_DIR/*.png"),
    inline: z.boolean().optional().describe("Return text file contents in the result. Default false."),
    save: z.boolean().optional().describe("Save each file as a versioned artifact. Default false."),
    max_files: positive.optional().describe("Default 100."),
    max_file_bytes: positive.optional().describe("Default 4 MiB."),
    max_total_bytes: positive.optional().describe("Default 64 MiB."),
    name_template: z.string().optional().describe("Prefix of saved artifact names. Default ''."),
  }),
);
export type OutputSpec = z.infer<typeof OutputSpec>;
