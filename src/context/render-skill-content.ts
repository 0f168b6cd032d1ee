/**
 * Text of loaded content: the `<skill_content>` block returned by a load (history placement, agentskills
 * client guide §2.4), doc and file blocks, and the "Loaded Skill Instructions / References" sections of the
 * system placement (OmniEmployee's layout). Every block ends with a newline and starts with `<` or `#`.
 */
import type { SkillFile } from "../catalog/types.js";
import { escapeHtml } from "../spec/to-prompt.js";

/** Input of {@link renderSkillContent}. */
export interface SkillContentInput {
  name: string;
  dir: string;
  body: string;
  files: readonly SkillFile[];
  /** Most files listed. Default 50. */
  maxResources?: number;
  /** A single-file skill (`NAME.skill.md`): `dir` is its file, and it has no other files. */
  singleFile?: boolean;
}

/**
 * `<skill_content name="…">` with the body, `Skill directory: …`, the relative-paths line and a capped
 * `<skill_resources>` list (SKILL.md excluded; the rest counted when cut).
 */
export function renderSkillContent(input: SkillContentInput): string {
  const max = input.maxResources ?? 50;
  const files = input.files.filter((f) => f.path !== "SKILL.md");
  let text = `<skill_content name="${escapeHtml(input.name)}">\n`;
  if (input.body !== "") text += `${input.body}\n\n`;
  if (input.singleFile === true)
    return `${text}Skill file: ${input.dir} (a single-file skill: no other files)\n</skill_content>\n`;
  text += `Skill directory: ${input.dir}\nRelative paths in this skill are relative to the skill directory.\n`;
  if (files.length > 0) {
    text += "\n<skill_resources>\n";
    for (const f of files.slice(0, max)) text += `  <file>${escapeHtml(f.path)}</file>\n`;
    if (files.length > max) text += `  <!-- ${files.length - max} more files not listed -->\n`;
    text += "</skill_resources>\n";
  }
  return `${text}</skill_content>\n`;
}

/** A selected doc returned in a tool result (history placement). */
export function renderDocBlock(skill: string, path: string, content: string): string {
  return `<skill_doc skill="${escapeHtml(skill)}" path="${escapeHtml(path)}">\n${content.trimEnd()}\n</skill_doc>\n`;
}

/** Input of {@link renderFileBlock}. */
export interface FileBlockInput {
  skill: string;
  path: string;
  content: string;
  startLine: number;
  endLine: number;
  totalLines: number;
  /** Name of the read tool for the "read more" hint. */
  readTool: string;
}

/** A text file (or a range of it) returned by a read; says how to read on when the range stops early. */
export function renderFileBlock(input: FileBlockInput): string {
  const { skill, path, startLine, endLine, totalLines } = input;
  let text = `<skill_file skill="${escapeHtml(skill)}" path="${escapeHtml(path)}" lines="${startLine}-${endLine}" total_lines="${totalLines}">\n`;
  if (input.content !== "") text += `${input.content.replace(/\n$/, "")}\n`;
  text += "</skill_file>\n";
  if (endLine < totalLines) {
    text += `Showing lines ${startLine}-${endLine} of ${totalLines}. Call ${input.readTool} with start_line=${endLine + 1} to read on.\n`;
  }
  return text;
}

/** Metadata of a binary file: never its bytes. */
export function renderBinaryBlock(skill: string, path: string, size: number, mimeType: string): string {
  return (
    `<skill_file skill="${escapeHtml(skill)}" path="${escapeHtml(path)}" mime_type="${escapeHtml(mimeType)}" size_bytes="${size}" binary="true"/>\n` +
    "This is a binary file, so its bytes are not shown. Scripts of the skill can use it by its relative path.\n"
  );
}

/** Opening line of the system placement's instructions section. */
export const SYSTEM_INSTRUCTIONS_HEADER = "## Loaded Skill Instructions\n\n";
/** Opening line of the system placement's references section. */
export const SYSTEM_REFERENCES_HEADER = "## Loaded Skill References\n\n";

/** One loaded skill in the system prompt: `### Skill: <name>`, its directory and body. */
export function renderSystemSkill(name: string, dir: string, body: string): string {
  return `### Skill: ${name}\n\nSkill directory: ${dir}\n\n${body === "" ? "" : `${body}\n\n`}`;
}

/** One selected doc in the system prompt: `### <skill> - <path>` and its content. */
export function renderSystemDoc(skill: string, path: string, content: string): string {
  const trimmed = content.trimEnd();
  return `### ${skill} - ${path}\n\n${trimmed === "" ? "" : `${trimmed}\n\n`}`;
}
