/**
 * OmniEmployee's texts (`skills/models.py`, `skills/registry.py`, `tools/run_command.py`): a loaded skill
 * as `Skill.get_full_instructions` renders it (`# Skill:`, `## Skill Context` with the directory and
 * `uv run` hints for its scripts, `## Instructions`, the other top-level docs, the references to load on
 * demand), the `[✓]` / `[○]` summary of `list_skills`, and `run_command`'s `$ cmd` output.
 */

/** What {@link renderOmniSkill} needs of a loaded skill. */
export interface OmniSkill {
  name: string;
  description: string;
  whenToUse?: string | undefined;
  dir: string;
  /** File names directly under `scripts/`. */
  scripts: readonly string[];
  body: string;
  /** Top-level docs other than SKILL.md, forms.md and reference.md: stem → content. */
  docs: ReadonlyArray<[string, string]>;
  references: readonly string[];
}

/** `Skill.get_full_instructions`. */
export function renderOmniSkill(skill: OmniSkill): string {
  const parts = [`# Skill: ${skill.name}`, `\n${skill.description}`];
  if (skill.whenToUse !== undefined && skill.whenToUse !== "")
    parts.push(`\n**When to use**: ${skill.whenToUse}`);
  parts.push("\n## Skill Context", `- **Skill Directory**: \`${skill.dir}\``);
  if (skill.scripts.length > 0) {
    parts.push("- **Available Scripts**:");
    for (const script of skill.scripts) {
      const scriptPath = `${skill.dir}/scripts/${script}`;
      parts.push(`  - \`${scriptPath}\` (run with: \`uv run ${scriptPath}\`)`);
    }
  }
  parts.push(`\n## Instructions\n${skill.body}`);
  for (const [stem, content] of skill.docs) parts.push(`\n## ${stem}\n${content}`);
  if (skill.references.length > 0) {
    parts.push("\n## Available References (Load on Demand)");
    parts.push(
      "The following reference files contain additional information. Load them using `load_skill_reference` when needed:",
    );
    for (const ref of skill.references) parts.push(`- \`${ref}\``);
    parts.push("\n**When to load references:**");
    parts.push("- Encountering errors (e.g., unknown city, invalid date)");
    parts.push("- Need detailed examples or conversation flows");
    parts.push("- Need script usage documentation");
    parts.push("- User asks for more options or alternatives");
  }
  return parts.join("\n");
}

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
