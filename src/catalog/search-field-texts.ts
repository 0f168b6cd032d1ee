import type { FrontmatterValue } from "../spec/types.js";
import type { SkillRecord } from "./types.js";

/** Extras (frontmatter keys) that are searched besides name and description. */
export const SEARCHED_EXTRAS = [
  "when_to_use",
  "when-to-use",
  "whenToUse",
  "tags",
  "keywords",
  "triggers",
  "category",
  "aliases",
];

/** A record's searched texts with their field (0 name, 1 description, 2 extras, 3 headings, 4 opening), of the fields in `fields` (bit f for field f; all by default). */
export function fieldTexts(record: SkillRecord, fields = 0b11111): [field: number, text: string][] {
  const texts: [number, string][] = [];
  if (fields & 1) texts.push([0, record.name]);
  if (fields & 2) texts.push([1, record.description]);
  if (fields & 4) {
    for (const key of SEARCHED_EXTRAS) {
      const value = record.extras[key];
      if (value !== undefined) texts.push([2, flatten(value)]);
    }
  }
  // Only touched when asked for: a record may read them from its file (see searchableRecords).
  if (fields & 8 && record.headings !== undefined) texts.push([3, record.headings]);
  if (fields & 16 && record.opening !== undefined) texts.push([4, record.opening]);
  return texts;
}

function flatten(value: FrontmatterValue): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(flatten).join(" ");
  return Object.values(value).map(flatten).join(" ");
}
