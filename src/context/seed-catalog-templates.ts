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
 *   with one `<skill>` per skill: every frontmatter field as XML and `<skill-id>` (`name_source`);
 *   `skillbox-exec` adds `<files-root>` and the code-execution block (see `skillbox-metadata.ts`).
 *
 * Values are XML-escaped (AgentScope escapes; AWorld does not, but a description must not be able to close
 * the block it sits in).
 */
import type { SkillRecord } from "../catalog/types.js";
import { escapeHtml } from "../spec/to-prompt.js";
import { skillboxMetadata, skillboxSkillId, skillboxXmlNode } from "./skillbox-metadata.js";

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

const SKILLBOX_HEADER = `## Available Skills

<usage>
Skills provide specialized capabilities and domain knowledge. Use them when they match your current task.

How to use skills:
- Load skill: load_skill_through_path(skillId="<skill-id>", path="SKILL.md")
- The skill will be activated and its documentation loaded with detailed instructions
- Additional resources (scripts, assets, references) can be loaded using the same tool with different paths

Example:
1. User asks to analyze data → find a matching skill below (e.g. <skill-id>data-analysis_builtin</skill-id>)
2. Load it: load_skill_through_path(skillId="data-analysis_builtin", path="SKILL.md")
3. Follow the instructions returned by the skill

Metadata is rendered as XML under each <skill> element:
- scalar metadata becomes a simple child element
- nested maps become nested XML elements
- lists become repeated <item> elements
- <skill-id> is always appended for tool loading
</usage>

<available_skills>

`;

/**
 * SkillBox's per-skill code-execution block (`DEFAULT_PER_SKILL_CODE_EXECUTION_INSTRUCTION`), after
 * `</available_skills>` when code execution is on.
 */
export const SKILLBOX_CODE_EXECUTION = `
## Code Execution

<code_execution>
You have access to the execute_shell_command tool. Each skill in <available_skills>
includes a <files-root> element giving the absolute path to that skill's files.

Workflow:
1. After loading a skill, look at its <files-root> in <available_skills>
2. List its files:    ls <files-root>/
3. Run scripts:       python3 <files-root>/scripts/<script-name>
4. Always use absolute paths derived from <files-root>; never invent paths
5. If a script exists for the task, run it directly — do not rewrite its logic inline
</code_execution>
`;

function skillboxEntry(r: SkillRecord, d: string | undefined, filesRoot: boolean): string {
  let text = "<skill>\n";
  for (const [key, value] of skillboxMetadata(r, d === undefined ? undefined : flatRaw(d)))
    text += skillboxXmlNode(key, value, 1);
  text += skillboxXmlNode("skill-id", skillboxSkillId(r), 1);
  if (filesRoot && r.origin.kind === "fs") text += skillboxXmlNode("files-root", r.dir, 1);
  return `${text}</skill>\n\n`;
}

function flatRaw(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * AgentScope SkillBox's `## Available Skills` template (tools of the `agentscope` profile), with every
 * frontmatter field as XML (`exposeAllMetadata`, SkillBox's default) and the `name_source` skill id.
 */
export const SKILLBOX_CATALOG: SeedCatalogTemplate = {
  header: SKILLBOX_HEADER,
  footer: "</available_skills>\n",
  entry: (r, d) => skillboxEntry(r, d, false),
};

/**
 * {@link SKILLBOX_CATALOG} with code execution on: each skill on disk carries `<files-root>` (its
 * directory) and the code-execution block follows `</available_skills>`.
 */
export const SKILLBOX_EXEC_CATALOG: SeedCatalogTemplate = {
  header: SKILLBOX_HEADER,
  footer: `</available_skills>\n${SKILLBOX_CODE_EXECUTION}`,
  entry: (r, d) => skillboxEntry(r, d, true),
};
