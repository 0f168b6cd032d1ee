/**
 * `skill://` URIs of SEP-2640: `skill://<skill-path>/<file-path>`, the skill's root directory
 * `skill://<skill-path>` (no trailing slash). Each segment is percent-encoded on the way out and decoded
 * on the way in; a URI with an empty, `.` or `..` segment, or one that does not decode, is not a skill URI.
 */

/** The scheme prefix. */
export const SKILL_SCHEME = "skill://";

/** The URI of `segments` joined under `skill://` (a skill root, a directory or a file). */
export function skillUri(segments: readonly string[]): string {
  return `${SKILL_SCHEME}${segments.map(encodeURIComponent).join("/")}`;
}

/** The URI of one skill file: `skillPath` is the skill's path, `filePath` `/`-separated inside it. */
export function skillFileUri(skillPath: string, filePath: string): string {
  return skillUri([...skillPath.split("/"), ...filePath.split("/")]);
}

/** The decoded segments of a `skill://` URI, or undefined when `uri` is not one. */
export function parseSkillUri(uri: string): string[] | undefined {
  if (!uri.startsWith(SKILL_SCHEME)) return undefined;
  const rest = uri.slice(SKILL_SCHEME.length);
  if (rest === "" || rest.includes("?") || rest.includes("#")) return undefined;
  const segments: string[] = [];
  for (const raw of rest.split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (segment === "" || segment === "." || segment === ".." || segment.includes("/")) return undefined;
    segments.push(segment);
  }
  return segments;
}
