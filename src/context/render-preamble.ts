/**
 * The short behavioural preamble placed before the catalog: how to use the skill tools, naming only
 * tools that exist. Rendered only when there are visible skills.
 */
import type { SkillToolNames } from "./tool-call-shape.js";

/** Canonical tool names (the `skillrt` profile). */
export const DEFAULT_TOOL_NAMES: SkillToolNames = {
  load: "skill_load",
  read: "skill_read",
  unload: "skill_unload",
  selectDocs: "skill_select_docs",
  search: "skill_search",
  run: "skill_run",
};

/** Options of {@link renderPreamble}. */
export interface PreambleOptions {
  /** True when the search tool is offered this step. */
  searchOffered: boolean;
}

/** The preamble for `names`; ends with a blank line so the catalog follows directly. */
export function renderPreamble(names: SkillToolNames, options: PreambleOptions): string {
  const lines = [
    "## Skills",
    "",
    "Skills are folders of instructions, scripts and reference files for specialised tasks. The catalog below lists them by name and description.",
    `- When a task matches a skill, call ${names.load} with ${names.loadArgument ?? "its name"} first, then follow the instructions it returns.`,
  ];
  if (names.read !== undefined) {
    lines.push(
      `- Open a skill's other files only when its instructions point to them, with ${names.read} (paths are relative to the skill directory).`,
    );
  }
  if (names.run !== undefined)
    lines.push(`- Run a skill's scripts with ${names.run} instead of retyping them.`);
  if (names.unload !== undefined)
    lines.push(`- Call ${names.unload} when you are done with a skill, to free context.`);
  if (options.searchOffered && names.search !== undefined) {
    lines.push(`- If no listed skill fits the task, call ${names.search} with a few keywords.`);
  }
  return `${lines.join("\n")}\n\n`;
}
