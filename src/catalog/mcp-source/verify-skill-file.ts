/**
 * SEP-2640's checks on fetched skill content: a file's SHA-256 against its entry's digest, and a
 * SKILL.md's frontmatter against the entry's `frontmatter`, field by field. A mismatch is described for
 * the model (what differs, never the content itself).
 */
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";

/** The digest of `bytes` in SEP-2640's form (`sha256:<64 hex>`). */
export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/**
 * The first field where the SKILL.md's parsed frontmatter (`actual`) and the entry's `frontmatter`
 * (`listed`) differ, described; undefined when they are identical in content.
 */
export function frontmatterMismatch(
  actual: Readonly<Record<string, unknown>> | undefined,
  listed: Readonly<Record<string, unknown>>,
): string | undefined {
  if (actual === undefined) return "its SKILL.md has no frontmatter a YAML parser reads";
  const keys = [...new Set([...Object.keys(listed), ...Object.keys(actual)])].sort();
  for (const key of keys) {
    const inFile = actual[key];
    const inEntry = listed[key];
    if (isDeepStrictEqual(inFile, inEntry)) continue;
    if (inFile === undefined) return `frontmatter field '${key}' is in the listing but not in its SKILL.md`;
    if (inEntry === undefined) return `frontmatter field '${key}' is in its SKILL.md but not in the listing`;
    return `frontmatter field '${key}' differs: the listing says ${shown(inEntry)}, its SKILL.md ${shown(inFile)}`;
  }
  return undefined;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
