/**
 * The reference's `read_properties(dir)`: the skill's properties without validation (names, the
 * directory match and unknown keys are not checked), as a result value instead of an exception.
 */
import { readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { coerceMetadata } from "../spec/build-parsed-skill.js";
import { createDiagnostic } from "../spec/create-diagnostic.js";
import { decodeSkillText } from "../spec/decode-skill-text.js";
import { parseFrontmatterStrict } from "../spec/parse-skill-strict.js";
import { pyStrip } from "../spec/py-text.js";
import type { Diagnostic, FrontmatterValue } from "../spec/types.js";
import { findSkillMd } from "./find-skill-md.js";
import { MAX_SKILL_FILE_BYTES } from "./validate-skill-dir.js";

/** The reference's `SkillProperties`: name and description stripped; the rest passed through as parsed. */
export interface SkillProperties {
  name: string;
  description: string;
  license?: FrontmatterValue;
  compatibility?: FrontmatterValue;
  /** `allowed-tools` as written (usually a space-separated string). */
  allowedTools?: FrontmatterValue;
  /** A mapping's values coerced like Python `str()`; any other value passed through. */
  metadata?: FrontmatterValue;
}

/** Outcome of {@link readProperties}: the properties and the skill file, or the reference's error. */
export type ReadPropertiesResult =
  | { ok: true; properties: SkillProperties; file: string }
  | { ok: false; diagnostic: Diagnostic };

/**
 * Reads the properties of the skill in `dir` like skills-ref `read_properties`: `SKILL.md not found in
 * <dir>`, the frontmatter parse errors, `Missing required field in frontmatter: name` and
 * `Field 'name' must be a non-empty string` (likewise for description) are the failures. Never throws.
 */
export function readProperties(dir: string): ReadPropertiesResult {
  const fail = (diagnostic: Diagnostic): ReadPropertiesResult => ({ ok: false, diagnostic });
  const file = findSkillMd(dir);
  if (file === undefined) {
    return fail(
      createDiagnostic("skill-file-missing", "error", `SKILL.md not found in ${dir}`, resolve(dir)),
    );
  }
  const where = resolve(file);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return fail(createDiagnostic("file-unreadable", "error", `Cannot read ${file}: ${reason}`, where));
  }
  if (bytes.length > MAX_SKILL_FILE_BYTES) {
    const message = `SKILL.md is ${bytes.length} bytes, over the ${MAX_SKILL_FILE_BYTES}-byte limit.`;
    return fail(createDiagnostic("file-too-large", "error", message, where));
  }
  const decoded = decodeSkillText(bytes, { normalizeNewlines: true });
  if (decoded.invalidUtf8) {
    return fail(createDiagnostic("encoding-invalid", "error", `${file} is not valid UTF-8.`, where));
  }
  const parsed = parseFrontmatterStrict(decoded.text, where);
  if (!parsed.ok) return fail(parsed.diagnostic);
  const fm = parsed.frontmatter;
  for (const field of ["name", "description"] as const) {
    if (!(field in fm)) {
      return fail(
        createDiagnostic(
          `${field}-missing`,
          "error",
          `Missing required field in frontmatter: ${field}`,
          where,
        ),
      );
    }
  }
  const name = fm["name"];
  const description = fm["description"];
  for (const [field, value] of [
    ["name", name],
    ["description", description],
  ] as const) {
    if (typeof value !== "string" || pyStrip(value) === "") {
      const code = typeof value === "string" ? (`${field}-empty` as const) : "field-invalid-type";
      return fail(createDiagnostic(code, "error", `Field '${field}' must be a non-empty string`, where));
    }
  }
  const properties: SkillProperties = {
    name: pyStrip(String(name)),
    description: pyStrip(String(description)),
  };
  if (fm["license"] !== undefined) properties.license = fm["license"];
  if (fm["compatibility"] !== undefined) properties.compatibility = fm["compatibility"];
  if (fm["allowed-tools"] !== undefined) properties.allowedTools = fm["allowed-tools"];
  const metadata = fm["metadata"];
  if (metadata !== undefined) properties.metadata = coerceMetadata(metadata) ?? metadata;
  return { ok: true, properties, file };
}

/**
 * The reference's `to_dict()`: key order name, description, license, compatibility, `allowed-tools`,
 * metadata; absent values dropped, and `metadata` dropped when empty (Python-falsy).
 */
export function skillPropertiesToDict(properties: SkillProperties): Record<string, FrontmatterValue> {
  const out: Record<string, FrontmatterValue> = {
    name: properties.name,
    description: properties.description,
  };
  if (properties.license !== undefined) out["license"] = properties.license;
  if (properties.compatibility !== undefined) out["compatibility"] = properties.compatibility;
  if (properties.allowedTools !== undefined) out["allowed-tools"] = properties.allowedTools;
  const m = properties.metadata;
  if (
    m !== undefined &&
    (typeof m === "string" ? m !== "" : Array.isArray(m) ? m.length > 0 : Object.keys(m).length > 0)
  ) {
    out["metadata"] = m;
  }
  return out;
}

/**
 * One entry for {@link toPrompt} the reference's way: properties of `dir`, and as location the skill
 * file found in the symlink-resolved absolute directory.
 */
export function readPromptEntry(
  dir: string,
):
  | { ok: true; entry: { name: string; description: string; location: string } }
  | { ok: false; diagnostic: Diagnostic } {
  const read = readProperties(dir);
  if (!read.ok) return read;
  let real: string;
  try {
    real = realpathSync(resolve(dir));
  } catch {
    real = resolve(dir);
  }
  const location = findSkillMd(real) ?? resolve(read.file);
  return {
    ok: true,
    entry: { name: read.properties.name, description: read.properties.description, location },
  };
}
