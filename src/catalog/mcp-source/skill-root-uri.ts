/**
 * Pure helpers over SEP-2640 skill entries (no schema library: the start-up path of commands that never
 * meet an MCP server imports them).
 */
import type { SkillEntry } from "./skill-entry.js";

/** The extension's identifier in `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** The root of a skill: its entry's URI without `/SKILL.md` (`skill://acme/refunds`). */
export function skillRootUri(entry: Pick<SkillEntry, "uri">): string {
  return entry.uri.slice(0, -"/SKILL.md".length);
}

/** The skill path of an entry (`acme/refunds` of `skill://acme/refunds/SKILL.md`); the URI tail for other schemes. */
export function skillPathOf(entry: Pick<SkillEntry, "uri">): string {
  const root = skillRootUri(entry);
  const at = root.indexOf("://");
  return decodeSafely(at < 0 ? root : root.slice(at + 3));
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
