/** Renders a run as the text the model reads (every profile but `trpc`, which returns the JSON object). */
import type { SkillRunOutput } from "./skill-run-output.js";

function block(label: string, text: string): string[] {
  if (text === "") return [`${label}: (empty)`];
  return [`${label}:`, "```", text.endsWith("\n") ? text.slice(0, -1) : text, "```"];
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * Text for the model: exit code (and timeout/abort), duration, stdout and stderr blocks, output files
 * with their inlined content and artifact names, staged inputs, limits hit and warnings.
 */
export function renderRunText(run: SkillRunOutput): string {
  const lines: string[] = [];
  let status = `exit code: ${run.exit_code}`;
  if (run.timed_out) status += " (timed out; the command and its child processes were killed)";
  else if (run.aborted) status += " (aborted)";
  lines.push(`skill: ${run.skill}`, status, `duration: ${run.duration_ms} ms`);
  lines.push(...block(`stdout${run.stdout_truncated ? " (truncated)" : ""}`, run.stdout));
  lines.push(...block(`stderr${run.stderr_truncated ? " (truncated)" : ""}`, run.stderr));
  if (run.output_files.length > 0) {
    lines.push("output files:");
    for (const file of run.output_files) {
      const notes = [file.mime_type, size(file.size_bytes)];
      if (file.truncated) notes.push("truncated");
      if (file.artifact !== undefined) notes.push(`saved as ${file.artifact}`);
      lines.push(`- ${file.name} (${notes.join(", ")}) ${file.ref}`);
      if (file.content !== undefined) lines.push("```", file.content.replace(/\n$/, ""), "```");
    }
  }
  if (run.staged_inputs.length > 0) {
    lines.push(`staged inputs: ${run.staged_inputs.map((s) => `${s.from} → ${s.to}`).join(", ")}`);
  }
  if (run.limits_hit.length > 0) lines.push(`limits hit: ${run.limits_hit.join(", ")}`);
  for (const warning of run.warnings) lines.push(`warning: ${warning}`);
  return lines.join("\n");
}
