/** Renders a skill run result as the text the model receives as the tool result. */
import type { SkillRunResult } from "./run-skill-command.js";

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
 * Text for the model: exit code (and timeout/abort), stdout and stderr blocks, output files with their
 * inlined content, limits hit and warnings. A refused run renders as its message.
 */
export function formatRunResultForModel(result: SkillRunResult): string {
  if (result.status === "refused") return result.message;
  const lines: string[] = [];
  let status = `exit code: ${result.exitCode}`;
  if (result.timedOut) status += " (timed out; the command and its child processes were killed)";
  else if (result.aborted) status += " (aborted)";
  lines.push(`skill: ${result.name}`, status, `duration: ${Math.round(result.durationMs)} ms`);
  lines.push(...block(`stdout${result.truncated.stdout ? " (truncated)" : ""}`, result.stdout));
  lines.push(...block(`stderr${result.truncated.stderr ? " (truncated)" : ""}`, result.stderr));
  if (result.outputFiles.length > 0) {
    lines.push("output files:");
    for (const file of result.outputFiles) {
      const notes = [file.mimeType, size(file.size)];
      if (file.truncated) notes.push("truncated");
      if (file.artifact !== undefined)
        notes.push(`saved as artifact://${file.artifact.name}@${file.artifact.version}`);
      lines.push(`- ${file.name} (${notes.join(", ")}) ${file.ref}`);
      if (file.content !== undefined) lines.push("```", file.content.replace(/\n$/, ""), "```");
    }
  }
  if (result.stagedInputs.length > 0) {
    lines.push(`staged inputs: ${result.stagedInputs.map((s) => `${s.from} → ${s.to}`).join(", ")}`);
  }
  if (result.limitsHit.length > 0) lines.push(`limits hit: ${result.limitsHit.join(", ")}`);
  for (const warning of result.warnings) lines.push(`warning: ${warning}`);
  return lines.join("\n");
}
