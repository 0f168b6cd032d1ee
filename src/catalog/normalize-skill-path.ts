/** A request path checked and normalised, or the reason it was refused (written for the model). */
export type NormalizedSkillPath = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Checks a path a caller (often a model) asked for inside a skill, before touching the disk.
 * Backslashes count as separators; `.` and empty segments are dropped. Refused: empty paths, NUL bytes,
 * absolute paths (`/x`, `C:\x`, `\\server`) and any `..` segment — paths are relative to the skill
 * directory and may not climb out of it, even when they would come back in. Symlinks are checked
 * separately, against the real path, by the reader.
 */
export function normalizeSkillPath(requested: string): NormalizedSkillPath {
  if (requested.includes("\0")) {
    return {
      ok: false,
      reason: "The path contains a NUL byte. Ask for a relative path such as 'references/guide.md'.",
    };
  }
  const slashed = requested.trim().replaceAll("\\", "/");
  if (slashed.startsWith("/") || /^[A-Za-z]:/.test(slashed)) {
    return {
      ok: false,
      reason: `Absolute paths are not allowed: '${requested}'. Use a path relative to the skill directory, such as 'references/guide.md'.`,
    };
  }
  const segments = slashed.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) {
    return {
      ok: false,
      reason: `'..' is not allowed in '${requested}': only files inside the skill directory can be read. Use a path relative to the skill directory.`,
    };
  }
  if (segments.length === 0) {
    return {
      ok: false,
      reason: "The path is empty or names the skill directory itself. Ask for one of the skill's files.",
    };
  }
  return { ok: true, path: segments.join("/") };
}
