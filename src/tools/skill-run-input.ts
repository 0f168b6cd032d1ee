/**
 * The `skill_run` tool's input: its schema and the words the model reads. Parsed once, by the AI SDK (or
 * the MCP server) against this schema, before `runSkillCommand` executes the request.
 */
import { z } from "zod";
import { InputSpec } from "../exec/input-spec.js";
import { OutputSpec } from "../exec/output-spec.js";

/** Input of `skill_run` (`name` is `skill` under the `trpc` profile). */
export const SkillRunInput = z.object({
  name: z.string().min(1).describe("Name of the skill whose directory the command runs in."),
  command: z
    .union([z.string().min(1), z.array(z.string()).min(1)])
    .describe("A shell command string, or an argv array run without a shell."),
  cwd: z
    .string()
    .optional()
    .describe("Working directory relative to the skill root. Default: the skill root."),
  env: z.record(z.string(), z.string()).optional().describe("Extra environment variables."),
  stdin: z.string().optional().describe("Text written to the command's standard input."),
  timeout: z.number().positive().optional().describe("Seconds before the command is killed. Default 300."),
  inputs: z.array(InputSpec).optional().describe("Files to stage into the workspace before running."),
  outputs: OutputSpec.optional().describe("Output files to collect after running."),
});
/** Input of `skill_run`. */
export type SkillRunInput = z.infer<typeof SkillRunInput>;

/** The description of `skill_run` the model reads. */
export const SKILL_RUN_DESCRIPTION =
  "Run a command in a skill's directory inside the session workspace (e.g. one of its scripts). The skill's folder is read-only: write files to $OUTPUT_DIR (collected as out/…) or $WORK_DIR; staged inputs are in $WORK_DIR/inputs. Returns exit code, stdout, stderr and collected output files.";
