/** Assembling a {@link ParsedSkill} from a frontmatter mapping (shared by both parsing modes). */
import { pyStr } from "./py-text.js";
import { type AllowedTools, allowedToolsFrom } from "./split-allowed-tools.js";
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
  const out: Record<string, string> = {};
  // `for…in` over own keys visits them in `Object.keys` order without allocating the key list.
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    // A `__proto__` key must become an own property (as `Object.fromEntries` makes it), not a prototype.
    if (k === "__proto__")
      return Object.fromEntries(Object.keys(value).map((key) => [key, pyStr(value[key]!)]));
    const v = value[k]!;
    out[k] = typeof v === "string" ? v : pyStr(v);
  }
  return out;
}

/** Top-level keys outside the six spec fields, with their parsed values. */
export function extrasOf(frontmatter: Record<string, FrontmatterValue>): Record<string, FrontmatterValue> {
  const out: Record<string, FrontmatterValue> = {};
  // `for…in` over own keys visits them in `Object.keys` order without allocating the key list.
  for (const k in frontmatter) {
    if (!Object.hasOwn(frontmatter, k) || isSpecField(k)) continue;
    // A `__proto__` key must become an own property (as `Object.fromEntries` makes it), not a prototype.
    if (k === "__proto__") {
      const keys = Object.keys(frontmatter).filter((key) => !isSpecField(key));
      return Object.fromEntries(keys.map((key) => [key, frontmatter[key]!]));
    }
    out[k] = frontmatter[k]!;
  }
  return out;
}

/** Fields of a skill beyond name and description; absent ones stay absent. */
export interface SkillFields {
  name: string;
  description: string;
  frontmatter: Record<string, FrontmatterValue>;
  body: string;
  bodyLine: number;
  /** `allowed-tools` already read with {@link allowedToolsFrom}; read from `frontmatter` when absent. */
  allowed?: AllowedTools | undefined;
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
  const allowed =
    tools === undefined ? undefined : "allowed" in fields ? fields.allowed : allowedToolsFrom(tools);
  if (allowed !== undefined) skill.allowedTools = allowed.tools;
  const metadata = fm["metadata"] === undefined ? undefined : coerceMetadata(fm["metadata"]);
  if (metadata !== undefined) skill.metadata = metadata;
  const rawMetadata = fm["metadata"];
  if (
    metadata !== undefined &&
    isMapping(rawMetadata) &&
    Object.values(rawMetadata).some((v) => typeof v !== "string")
  )
    skill.metadataTree = rawMetadata;
  return skill;
}
