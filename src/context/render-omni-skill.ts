/**
 * A loaded skill as OmniEmployee's `Skill.get_full_instructions` renders it (`skills/models.py`): `# Skill:`,
 * the description and when to use it, `## Skill Context` with the directory and `uv run` hints for its
 * scripts, `## Instructions`, the other top-level docs, and the references to load on demand. The `omni`
 * profile returns it from `load_skill` (history placement) and the session puts it under `### Skill: <name>`
 * in the system prompt (system placement), as OmniEmployee's context manager does.
 */
import type { Catalog, SkillRecord } from "../catalog/types.js";
import { isOmniReference } from "./doc-rules.js";

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

/**
 * Gathers what {@link renderOmniSkill} needs of `record` (loaded with `body`; `paths` are its files) — the
 * scripts directly under `scripts/`, the top-level docs other than SKILL.md, forms.md and reference.md
 * (read from the catalog), the references — and renders it.
 */
export async function omniFullInstructions(
  catalog: Pick<Catalog, "readFile">,
  record: Pick<SkillRecord, "name" | "description" | "dir" | "extras">,
  body: string,
  paths: readonly string[],
  /** The folder the hints name (default `record.dir`): where the skill's commands see it. */
  runDir: string = record.dir,
): Promise<string> {
  const whenToUse = typeof record.extras.when_to_use === "string" ? record.extras.when_to_use : undefined;
  const scripts = paths.filter((p) => /^scripts\/[^/]+$/.test(p)).map((p) => p.slice("scripts/".length));
  const docs: Array<[string, string]> = [];
  for (const p of paths) {
    if (!/^[^/]+\.md$/.test(p) || ["SKILL.md", "forms.md", "reference.md"].includes(p)) continue;
    const read = await catalog.readFile(record.name, p).catch(() => undefined);
    if (read?.kind === "text") docs.push([p.slice(0, -3), read.content]);
  }
  return renderOmniSkill({
    name: record.name,
    description: record.description,
    whenToUse,
    dir: runDir,
    scripts,
    body: body.trim(),
    docs,
    references: paths.filter(isOmniReference),
  });
}

/**
 * A loaded skill in the system prompt under OmniEmployee's "## Loaded Skill Instructions":
 * `### Skill: <name>`, then its full instructions.
 */
export function renderOmniSystemSkill(name: string, fullInstructions: string): string {
  return `### Skill: ${name}\n${fullInstructions.trimEnd()}\n\n`;
}

/** A loaded reference under OmniEmployee's "## Loaded Skill References": `### <skill> - <path>`, its content. */
export function renderOmniSystemDoc(skill: string, path: string, content: string): string {
  const trimmed = content.trimEnd();
  return `### ${skill} - ${path}\n${trimmed === "" ? "" : `${trimmed}\n`}\n`;
}
