/**
 * OmniEmployee's texts (`skills/registry.py`, `tools/run_command.py`): the `[✓]` / `[○]` summary of
 * `list_skills`, `run_command`'s `$ cmd` output and the auto-unload rule. A loaded skill's rendering
 * (`Skill.get_full_instructions`) is the session's: `context/render-omni-skill.ts`.
 */

/** One line of `get_skills_summary` (`[✓] **name**: desc`), with `to_detailed_summary`'s lines when verbose. */
export function omniSummaryLine(
  entry: {
    name: string;
    description: string;
    loaded: boolean;
    whenToUse?: string;
    references?: readonly string[];
  },
  verbose: boolean,
): string {
  const lines = [`[${entry.loaded ? "✓" : "○"}] **${entry.name}**: ${entry.description}`];
  if (verbose) {
    if (entry.whenToUse !== undefined && entry.whenToUse !== "")
      lines.push(`  - When to use: ${entry.whenToUse}`);
    if (entry.references !== undefined && entry.references.length > 0)
      lines.push(`  - References: ${entry.references.join(", ")}`);
  }
  return lines.join("\n");
}

/** `RunCommandTool`'s output: `$ cmd`, `(in dir)`, a blank line, stdout, `[stderr]\n…`, or `(no output)`. */
export function omniCommandOutput(
  command: string,
  inDir: string | undefined,
  stdout: string,
  stderr: string,
): string {
  const parts = [`$ ${command}`];
  if (inDir !== undefined) parts.push(`(in ${inDir})`);
  parts.push("");
  const out = stdout.trim();
  const err = stderr.trim();
  if (out !== "") parts.push(out);
  if (err !== "") parts.push(`[stderr]\n${err}`);
  if (out === "" && err === "") parts.push("(no output)");
  return parts.join("\n");
}

/**
 * OmniEmployee's auto-unload heuristic (`ContextManager`): the loaded skills whose name (case-insensitive)
 * appears in none of `recent` (the content of the last 10 messages).
 */
export function unmentionedSkills(loaded: readonly string[], recent: readonly string[]): string[] {
  const text = recent.join("\n").toLowerCase();
  return loaded.filter((name) => !text.includes(name.toLowerCase()));
}
