/**
 * Origins of skills: the source each record came from, and the key that identifies a skill across
 * sources (origin + path; a name alone is not unique once several origins serve skills).
 */
import type { SkillOrigin, SkillRecord, SkillScope } from "./types.js";

/** The origin of skills defined in code. */
export const MEMORY_ORIGIN: SkillOrigin = Object.freeze({ kind: "memory", id: "memory", label: "memory" });

/** One origin object per filesystem root and scope, shared by every record found under it. */
const fsOrigins = new Map<string, SkillOrigin>();

/** The origin of skills found under the filesystem root `root` (absolute) of scope `scope`. */
export function fsOrigin(root: string, scope: SkillScope): SkillOrigin {
  const key = `${scope}\0${root}`;
  let origin = fsOrigins.get(key);
  if (origin === undefined) {
    origin = Object.freeze({
      kind: "fs",
      id: root,
      label: `${scope === "root" ? "" : `${scope} `}root ${root}`,
    });
    fsOrigins.set(key, origin);
  }
  return origin;
}

/** One origin object per MCP server label. */
const mcpOrigins = new Map<string, SkillOrigin>();

/** The origin of skills served by the MCP server the host labels `label` (its `mcpServers` key). */
export function mcpOrigin(label: string): SkillOrigin {
  let origin = mcpOrigins.get(label);
  if (origin === undefined) {
    origin = Object.freeze({ kind: "mcp", id: label, label: `MCP server ${label}` });
    mcpOrigins.set(label, origin);
  }
  return origin;
}

/** A skill's identity: its origin and its SKILL.md's location there (`fs:/repo/skills|/repo/skills/pdf/SKILL.md`). */
export function skillKey(record: Pick<SkillRecord, "origin" | "location">): string {
  return `${record.origin.kind}:${record.origin.id}|${record.location}`;
}
