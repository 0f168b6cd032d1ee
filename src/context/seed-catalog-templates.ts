/**
 * The catalog templates of two seed systems, as catalog entry formats (see `catalog-entry-format.ts` for
 * the piece rules: each piece ends with a newline and starts with `<` or indentation before `<`, so token
 * counts add up):
 *
 * - `aworld`: AWorld's SkillsNeuron — `<skills_guide>` holding a `<skill_guide>` on how to call
 *   `active_skill` / `offload_skill` with AWorld's six guidelines, then `<skills_info>` with one
 *   `<skill id="…" active_status="True|False">` per skill carrying `<skill_name>` and `<skill_desc>`. (AWorld
 *   calls the actions through one `context` tool; here they are tools of their own, so the two call lines
 *   name them. The active skills' `<skill_file_content><skill_usage>` is the `aworld` system layout's.)
 * - `skillbox`: AgentScope's SkillBox (`AgentSkillPromptProvider`) — `## Available Skills`, its `<usage>`
 *   block on `load_skill_through_path(skillId="<skill-id>", path="SKILL.md")`, then `<available_skills>`
 *   with one `<skill>` of `<name>`, `<description>` and `<skill-id>` per skill.
 *
 * Values are XML-escaped (AgentScope escapes; AWorld does not, but a description must not be able to close
 * the block it sits in).
 */
import type { SkillRecord } from "../catalog/types.js";
import { escapeHtml } from "../spec/to-prompt.js";

/** Header, entry and footer of a catalog template (the shape of `CatalogEntryFormat`). */
export interface SeedCatalogTemplate {
  header: string;
  footer: string;
  entry(record: SkillRecord, description: string | undefined, loaded: boolean): string;
}

function flat(text: string): string {
  return escapeHtml(text.replace(/\s+/g, " ").trim());
}

/** AWorld's `<skills_guide>` template (tools of the `aworld` profile). */
export const AWORLD_CATALOG: SeedCatalogTemplate = {
  header: [
    "<skills_guide>",
    "  <skill_guide>",
    "    To manage skills, use the following tools:",
    "",
    "    1. Activate a skill:",
    '       - active_skill({"skill_name": "skill_name_here"})',
    "       - returns the skill's usage guide in <skill_guide>",
    "",
    "    2. Offload a skill:",
    '       - offload_skill({"skill_name": "skill_name_here"})',
    "",
    "    Guidelines:",
    "    - Only activate skills needed for current task",
    "    - Offload skills when no longer needed",
    "    - Skills are scoped to current agent namespace",
    "    - only support skills_info internal skills",
    '    - do not repeat activate or load skills if active status is True <skill id="xxx" active_status="True">',
    "    - If <skill_file_content> already contains <skill_usage> content, do NOT read skill.md file again",
    "  </skill_guide>",
    "  <skills_info>",
    "",
  ].join("\n"),
  footer: "  </skills_info>\n</skills_guide>\n",
  entry: (r, d, active) =>
    `  <skill id="${escapeHtml(r.name)}" active_status="${active ? "True" : "False"}">\n    <skill_name>${escapeHtml(r.name)}</skill_name>\n` +
    (d === undefined ? "" : `    <skill_desc>${flat(d)}</skill_desc>\n`) +
    "  </skill>\n",
};

/** AgentScope SkillBox's `## Available Skills` template (tools of the `agentscope` profile). */
export const SKILLBOX_CATALOG: SeedCatalogTemplate = {
  header: `## Available Skills

<usage>
Skills provide specialized capabilities and domain knowledge. Use them when they match your current task.

How to use skills:
- Load skill: load_skill_through_path(skillId="<skill-id>", path="SKILL.md")
- The skill will be activated and its documentation loaded with detailed instructions
- Additional resources (scripts, assets, references) can be loaded using the same tool with different paths

Path Information:
When you load a skill, the response will include:
- Exact paths to all skill resources
- Code examples for accessing skill files
- Usage instructions specific to that skill

Template fields explanation:
- <name>: The skill's display name
- <description>: When and how to use this skill
- <skill-id>: Unique identifier for load_skill_through_path tool
</usage>

<available_skills>

`,
  footer: "</available_skills>\n",
  entry: (r, d) =>
    `<skill>\n<name>${escapeHtml(r.name)}</name>\n` +
    (d === undefined ? "" : `<description>${flat(d)}</description>\n`) +
    `<skill-id>${escapeHtml(r.name)}</skill-id>\n</skill>\n\n`,
};
