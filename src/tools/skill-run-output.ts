/**
 * A skill run as data (schema: `skill-run-output-schema.ts`): the structured result of `skill_run` and
 * script tools, from a completed run.
 */
import type { SkillRunCompleted } from "../exec/run-skill-command.js";
import type { SkillRunOutput } from "./skill-run-output-schema.js";

export type { SkillRunOutput, SkillRunOutputFile } from "./skill-run-output-schema.js";

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
