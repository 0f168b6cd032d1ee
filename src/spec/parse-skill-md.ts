/**
 * SKILL.md text → frontmatter, body and diagnostics, in `strict` (reference-validator) or `lenient`
 * (runtime, default) mode. Synchronous, pure (no fs), and never throws on any input.
 */
import { createDiagnostic } from "./create-diagnostic.js";
import { decodeSkillText } from "./decode-skill-text.js";
import { parseSkillLenient } from "./parse-skill-lenient.js";
import { type ParseContext, parseSkillStrict } from "./parse-skill-strict.js";
import type { Diagnostic, ParseSkillOptions, ParseSkillResult } from "./types.js";

/**
 * Parses one SKILL.md.
 *
 * - `strict` reproduces skills-ref: the file must start with `---`, the frontmatter ends at the next
 *   `---` substring, YAML is read as strictyaml reads it (every scalar a string; flow collections,
 *   anchors, aliases, tags, duplicate keys and tabs refused), then the reference's checks run in its
 *   order with its messages. All findings are errors; `skill` is still returned when name and
 *   description could be read.
 * - `lenient` (default) uses line-anchored delimiters and repairs what real skills get wrong (BOM, CRLF,
 *   flow lists, unquoted `: `, missing name or description, unknown keys, …), each repair a warning.
 *   `skill` is `undefined` only when nothing usable is left (an error diagnostic says why).
 *
 * Bytes are decoded as UTF-8; invalid sequences become U+FFFD with an `encoding-invalid` error.
 * Diagnostic lines and columns are 1-based positions in SKILL.md.
 */
export function parseSkillMd(text: string | Uint8Array, options: ParseSkillOptions = {}): ParseSkillResult {
  const path = options.path ?? "SKILL.md";
  const strict = options.mode === "strict";
  const diagnostics: Diagnostic[] = [];
  try {
    const ctx: ParseContext = {
      path,
      dirName: options.dirName,
      headOnly: options.headOnly === true,
      diagnostics,
    };
    // Already-decoded text without a BOM or CR (the common case) needs no cleaning in either mode.
    if (typeof text === "string" && text.charCodeAt(0) !== 0xfeff && !text.includes("\r")) {
      return strict ? parseSkillStrict(text, ctx) : parseSkillLenient(text, ctx);
    }
    const decoded = decodeSkillText(text, {
      stripBom: !strict,
      // Python's read_text() uses universal newlines: CRLF reaches the reference as LF.
      normalizeNewlines: !strict || typeof text !== "string",
    });
    if (decoded.invalidUtf8) {
      diagnostics.push(
        createDiagnostic(
          "encoding-invalid",
          "error",
          "SKILL.md is not valid UTF-8; invalid bytes were replaced with U+FFFD. Save the file as UTF-8.",
          path,
        ),
      );
    }
    if (!strict && decoded.bomStripped) {
      diagnostics.push(
        createDiagnostic(
          "bom-stripped",
          "warning",
          "SKILL.md starts with a byte-order mark; it was ignored.",
          path,
          {
            line: 1,
            column: 1,
          },
        ),
      );
    }
    if (!strict && decoded.newlinesNormalized) {
      diagnostics.push(
        createDiagnostic("crlf-normalized", "warning", "SKILL.md uses CRLF line endings; read as LF.", path),
      );
    }
    return strict ? parseSkillStrict(decoded.text, ctx) : parseSkillLenient(decoded.text, ctx);
  } catch (error) {
    // Defensive: a bug must not take the catalog down. Report it as unreadable YAML.
    const message = error instanceof Error ? error.message : String(error);
    diagnostics.push(
      createDiagnostic("yaml-invalid", "error", `SKILL.md could not be parsed: ${message}`, path),
    );
    return { skill: undefined, diagnostics };
  }
}
