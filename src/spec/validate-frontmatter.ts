/**
 * The reference validator's `validate_metadata`: every check on a parsed frontmatter mapping, in its
 * order and with its exact messages (unknown keys, name, description, compatibility).
 */
import { codePointLength, pyStrip } from "./py-text.js";
import type { FrontmatterValue } from "./types.js";
import {
  MAX_COMPATIBILITY_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  type RuleViolation,
  validateSkillName,
} from "./validate-skill-name.js";

/** The six top-level keys the spec defines, sorted as the reference prints them. */
export const SPEC_FIELDS = [
  "allowed-tools",
  "compatibility",
  "description",
  "license",
  "metadata",
  "name",
] as const;

/** A rule violation and the top-level key it is about (the first unknown key for `unknown-field`). */
export interface FieldViolation extends RuleViolation {
  field?: string;
}

/** True for the six keys the spec defines. */
export function isSpecField(key: string): boolean {
  switch (key) {
    case "allowed-tools":
    case "compatibility":
    case "description":
    case "license":
    case "metadata":
    case "name":
      return true;
    default:
      return false;
  }
}

/** Python's default string order (by code point; JS `sort()` compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]!.codePointAt(0) ?? 0) - (y[i]!.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Keys of `frontmatter` outside the six spec fields, in Python sort order. */
export function unknownFields(frontmatter: Record<string, FrontmatterValue>): string[] {
  const out: string[] = [];
  for (const k of Object.keys(frontmatter)) if (!isSpecField(k)) out.push(k);
  return out.length > 1 ? out.sort(compareCodePoints) : out;
}

/** Options of {@link validateFrontmatter}. */
export interface ValidateFrontmatterOptions {
  /** Directory name to match `name` against; skipped when absent (as the reference with no directory). */
  dirName?: string;
}

/** All reference-validator findings for a frontmatter mapping; `[]` when it is valid. */
export function validateFrontmatter(
  frontmatter: Record<string, FrontmatterValue>,
  options: ValidateFrontmatterOptions = {},
): FieldViolation[] {
  const out: FieldViolation[] = [];
  const unknown = unknownFields(frontmatter);
  if (unknown.length > 0) {
    const allowed = `[${SPEC_FIELDS.map((f) => `'${f}'`).join(", ")}]`;
    out.push({
      code: "unknown-field",
      message: `Unexpected fields in frontmatter: ${unknown.join(", ")}. Only ${allowed} are allowed.`,
      field: unknown[0]!,
    });
  }
  const name = frontmatter["name"];
  if (name === undefined) {
    out.push({ code: "name-missing", message: "Missing required field in frontmatter: name", field: "name" });
  } else if (typeof name !== "string") {
    // The reference reports a list or mapping the same way as a blank name: not a non-empty string.
    out.push({ code: "name-empty", message: "Field 'name' must be a non-empty string", field: "name" });
  } else {
    const nameOptions = options.dirName === undefined ? {} : { dirName: options.dirName };
    for (const v of validateSkillName(name, nameOptions)) out.push({ ...v, field: "name" });
  }
  const description = frontmatter["description"];
  if (description === undefined) {
    out.push({
      code: "description-missing",
      message: "Missing required field in frontmatter: description",
      field: "description",
    });
  } else if (typeof description !== "string" || pyStrip(description) === "") {
    out.push({
      code: typeof description === "string" ? "description-empty" : "field-invalid-type",
      message: "Field 'description' must be a non-empty string",
      field: "description",
    });
  } else {
    const length = codePointLength(description);
    if (length > MAX_DESCRIPTION_LENGTH) {
      out.push({
        code: "description-too-long",
        message: `Description exceeds ${MAX_DESCRIPTION_LENGTH} character limit (${length} chars)`,
        field: "description",
      });
    }
  }
  const compatibility = frontmatter["compatibility"];
  if (compatibility !== undefined) {
    if (typeof compatibility !== "string") {
      out.push({
        code: "compatibility-invalid-type",
        message: "Field 'compatibility' must be a string",
        field: "compatibility",
      });
    } else {
      const length = codePointLength(compatibility);
      if (length > MAX_COMPATIBILITY_LENGTH) {
        out.push({
          code: "compatibility-too-long",
          message: `Compatibility exceeds ${MAX_COMPATIBILITY_LENGTH} character limit (${length} chars)`,
          field: "compatibility",
        });
      }
    }
  }
  return out;
}
