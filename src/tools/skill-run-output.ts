/**
 * A skill run as data: the structured result of `skill_run` and script tools, shaped like
 * trpc-agent-go's `skill_run` output (snake_case, as the model and MCP clients read it). MCP serves it as
 * `structuredContent` with this schema as the tool's `outputSchema`.
 */
import { z } from "zod";
import type { SkillRunCompleted } from "../exec/run-skill-command.js";

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

function artifactRef(artifact: { name: string; version: number }): string {
  return `artifact://${artifact.name}@${artifact.version}`;
}

/** The run as {@link SkillRunOutput}. */
export function toSkillRunOutput(result: SkillRunCompleted): SkillRunOutput {
  return {
    skill: result.name,
    exit_code: result.exitCode,
    stdout: result.stdout,
    stderr: result.stderr,
    timed_out: result.timedOut,
    aborted: result.aborted,
    duration_ms: Math.round(result.durationMs),
    stdout_truncated: result.truncated.stdout,
    stderr_truncated: result.truncated.stderr,
    output_files: result.outputFiles.map((f) => ({
      name: f.name,
      ref: f.ref,
      mime_type: f.mimeType,
      size_bytes: f.size,
      truncated: f.truncated,
      ...(f.content === undefined ? {} : { content: f.content }),
      ...(f.artifact === undefined ? {} : { artifact: artifactRef(f.artifact) }),
    })),
    artifact_files: result.outputFiles.flatMap((f) =>
      f.artifact === undefined
        ? []
        : [
            {
              name: f.artifact.name,
              version: f.artifact.version,
              ref: artifactRef(f.artifact),
            },
          ],
    ),
    staged_inputs: result.stagedInputs.map((s) => ({
      from: s.from,
      to: s.to,
      mode: s.mode,
      ...(s.version === undefined ? {} : { version: s.version }),
    })),
    limits_hit: result.limitsHit,
    warnings: result.warnings,
    executor: result.executor,
    run_dir: result.runDir,
  };
}
