/** Assembling a {@link ParsedSkill} from a frontmatter mapping (shared by both parsing modes). */
import { pyStr } from "./py-text.js";
import { allowedToolsFrom } from "./split-allowed-tools.js";
import type { FrontmatterValue, ParsedSkill } from "./types.js";
import { isSpecField } from "./validate-frontmatter.js";

/** True for a mapping value (not a string, not a list). */
export function isMapping(
  value: FrontmatterValue | null | undefined,
): value is { [key: string]: FrontmatterValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `metadata` as string → string: values coerced like Python `str()` (nested lists and maps become their repr). */
export function coerceMetadata(value: FrontmatterValue): Record<string, string> | undefined {
  if (!isMapping(value)) return undefined;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, pyStr(v)]));
}

/** Top-level keys outside the six spec fields, with their parsed values. */
export function extrasOf(frontmatter: Record<string, FrontmatterValue>): Record<string, FrontmatterValue> {
  return Object.fromEntries(Object.entries(frontmatter).filter(([k]) => !isSpecField(k)));
}

/** Fields of a skill beyond name and description; absent ones stay absent. */
export interface SkillFields {
  name: string;
  description: string;
  frontmatter: Record<string, FrontmatterValue>;
  body: string;
  bodyLine: number;
}

/**
 * Builds the skill: `license` and `compatibility` when strings, `allowed-tools` split or listed,
 * `metadata` coerced when a mapping, and every unknown key in `extras`.
 */
export function buildParsedSkill(fields: SkillFields): ParsedSkill {
  const fm = fields.frontmatter;
  const skill: ParsedSkill = {
    name: fields.name,
    description: fields.description,
    extras: extrasOf(fm),
    frontmatter: fm,
    body: fields.body,
    bodyLine: fields.bodyLine,
  };
  const license = fm["license"];
  if (typeof license === "string") skill.license = license;
  const compatibility = fm["compatibility"];
  if (typeof compatibility === "string") skill.compatibility = compatibility;
  const tools = fm["allowed-tools"];
  const allowed = tools === undefined ? undefined : allowedToolsFrom(tools);
  if (allowed !== undefined) skill.allowedTools = allowed.tools;
  const metadata = fm["metadata"] === undefined ? undefined : coerceMetadata(fm["metadata"]);
  if (metadata !== undefined) skill.metadata = metadata;
  return skill;
}
