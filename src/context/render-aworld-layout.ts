/**
 * AWorld's layout of an active skill in the system prompt (SkillsNeuron, `skill_neuron.py`): its usage in
 * `<skill_file_content>` → `<skill_usage>…</skill_usage>`, which AWorld's guidelines tell the model not to
 * read again from SKILL.md. AWorld nests it in the skill's `<skill id=…>` catalog entry; here it is a block
 * after the catalog naming the skill by `id` (the catalog is budgeted and cached apart from loaded content),
 * and the closing tag is well-formed (AWorld writes `<skill_file_content>` twice).
 */
import { escapeHtml } from "../spec/to-prompt.js";

/** An active skill: `<skill_file_content id="<name>">`, its `<skill_usage>`, the closing tag. */
export function renderAworldSkill(name: string, body: string): string {
  return `<skill_file_content id="${escapeHtml(name)}">\n    <skill_usage>${body}</skill_usage>\n</skill_file_content>\n`;
}
