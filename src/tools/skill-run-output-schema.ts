/**
 * The schema of a skill run as data (`skill-run-output.ts`): the structured result of `skill_run` and
 * script tools, shaped like trpc-agent-go's `skill_run` output (snake_case, as the model and MCP clients
 * read it). MCP serves it as `structuredContent` with this schema as the tool's `outputSchema`. A module of
 * its own: the agent only needs the type, and building the schema is zod work its start need not pay.
 */
import { z } from "zod";

/** One collected output file. */
export const SkillRunOutputFile = z.object({
  /** Workspace-relative path, e.g. `out/report.md`. */
  name: z.string(),
  /** `workspace://<name>`. */
  ref: z.string(),
  mime_type: z.string(),
  size_bytes: z.number(),
  /** True when only the first `max_file_bytes` were read. */
  truncated: z.boolean(),
  /** Redacted text, when `inline` was asked and the file is text. */
  content: z.string().optional(),
  /** `artifact://name@version` when the file was saved as an artifact. */
  artifact: z.string().optional(),
});
/** One collected output file. */
export type SkillRunOutputFile = z.infer<typeof SkillRunOutputFile>;

/** The structured result of a run that executed (a refused run has none: it is an error result). */
export const SkillRunOutput = z.object({
  skill: z.string(),
  /** Exit status; `128 + n` when killed by signal n; -1 when the command could not start. */
  exit_code: z.number(),
  /** Redacted, capped standard output. */
  stdout: z.string(),
  stderr: z.string(),
  /** True when the timeout killed the command and its child processes. */
  timed_out: z.boolean(),
  /** True when the call was aborted. */
  aborted: z.boolean(),
  /** Measured wall-clock duration. */
  duration_ms: z.number(),
  stdout_truncated: z.boolean(),
  stderr_truncated: z.boolean(),
  output_files: z.array(SkillRunOutputFile),
  /** Output files saved as versioned artifacts (`artifact://name@version`). */
  artifact_files: z.array(z.object({ name: z.string(), version: z.number(), ref: z.string() })),
  staged_inputs: z.array(
    z.object({ from: z.string(), to: z.string(), mode: z.string(), version: z.number().optional() }),
  ),
  /** `max_files`, `max_file_bytes`, `max_total_bytes` when hit. */
  limits_hit: z.array(z.string()),
  warnings: z.array(z.string()),
  /** `sandbox`, `local` or `container`. */
  executor: z.string(),
  /** Workspace-relative folder of this run (`runs/run_…`). */
  run_dir: z.string(),
});
/** The structured result of a run that executed. */
export type SkillRunOutput = z.infer<typeof SkillRunOutput>;
