/**
 * The frontmatter of a SKILL.md as SEP-2640's `frontmatter`: the YAML mapping between the delimiters,
 * parsed by a standard YAML 1.2 parser (so `version: 2` is the number 2 and `license: MIT` the string),
 * every field the author wrote. A frontmatter the YAML library refuses falls back to the runtime's
 * lenient reading (the fields skillrt itself uses, repaired).
 */
import { loadYamlLibrary } from "../../spec/load-yaml-library.js";
import { parseSkillMd } from "../../spec/parse-skill-md.js";
import { splitFrontmatterLenient } from "../../spec/split-frontmatter.js";

/** The frontmatter of SKILL.md `bytes` as a JSON object, or undefined when there is none. */
export function skillFrontmatter(bytes: Uint8Array): Record<string, unknown> | undefined {
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  text = text.replaceAll("\r\n", "\n");
  const split = splitFrontmatterLenient(text);
  if (!("failure" in split)) {
    try {
      const parsed: unknown = loadYamlLibrary().parse(split.yaml);
      if (isPlainObject(parsed)) return JSON.parse(JSON.stringify(parsed)) as Record<string, unknown>;
    } catch {
      // Not YAML a standard parser reads: the lenient reading below.
    }
  }
  return parseSkillMd(text, { headOnly: true }).skill?.frontmatter;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
