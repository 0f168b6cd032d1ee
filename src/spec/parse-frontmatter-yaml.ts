/**
 * Full YAML parse of frontmatter text with the `yaml` library and the failsafe schema (every scalar a
 * string, as strictyaml does). In strict mode it also refuses what strictyaml refuses. Never throws.
 */
import type { Document } from "yaml";
import { findStrictYamlViolation } from "./find-strict-yaml-violation.js";
import { loadYamlLibrary } from "./load-yaml-library.js";
import type { FrontmatterValue } from "./types.js";

/** Outcome of {@link parseFrontmatterYaml}. Offsets point into the YAML text. */
export type FrontmatterYamlResult =
  | {
      ok: true;
      /** `null` for an empty document (only comments or nothing). */
      value: FrontmatterValue | null;
      /** Offsets of flow collections (lenient mode only; strict mode rejects them). */
      flowOffsets: number[];
      /** Keys given more than once in one mapping (lenient mode only; the last value wins). */
      duplicateKeys: { key: string; offset: number }[];
      /** Keys that are a list or mapping (`? [a, b]`), read as their YAML text. */
      collectionKeys: { key: string; offset: number }[];
    }
  | { ok: false; message: string; offset: number };

const MAX_DEPTH = 100;

/**
 * Longest frontmatter handed to the `yaml` library (64 Ki characters; real ones are under 10 Ki). The
 * library can spend seconds on megabytes of broken YAML, and the catalog may be fed anything.
 */
export const MAX_YAML_FRONTMATTER_LENGTH = 64 * 1024;

/** Parses `text` as one YAML document; `strict` adds strictyaml's refusals and duplicate-key errors. */
export function parseFrontmatterYaml(text: string, strict: boolean): FrontmatterYamlResult {
  if (text.length > MAX_YAML_FRONTMATTER_LENGTH) {
    const message = `frontmatter too large to parse (${text.length} characters; the limit is ${MAX_YAML_FRONTMATTER_LENGTH})`;
    return { ok: false, message, offset: 0 };
  }
  try {
    const { Parser, Composer } = loadYamlLibrary();
    const tokens = [...new Parser().parse(text)];
    const violation = strict ? findStrictYamlViolation(tokens) : undefined;
    // logLevel "error": the library's own warnings (a collection used as a key) would go to stderr through
    // process.emitWarning; they are reported as diagnostics instead (see `inspect`).
    const composer = new Composer({ schema: "failsafe", uniqueKeys: false, strict: true, logLevel: "error" });
    let docs: Document.Parsed[];
    try {
      docs = [...composer.compose(tokens)];
    } catch (error) {
      if (violation === undefined) throw error;
      return { ok: false, message: violation.message, offset: violation.offset };
    }
    const doc = docs[0];
    const firstError = doc?.errors[0];
    // Like the reference parser, report whichever problem comes first in the text.
    if (violation !== undefined && (firstError === undefined || violation.offset <= firstError.pos[0])) {
      return { ok: false, message: violation.message, offset: violation.offset };
    }
    if (doc === undefined)
      return { ok: true, value: null, flowOffsets: [], duplicateKeys: [], collectionKeys: [] };
    if (firstError !== undefined) {
      return { ok: false, message: yamlErrorMessage(firstError.message), offset: firstError.pos[0] };
    }
    const second = docs[1];
    if (second !== undefined) {
      return { ok: false, message: "expected a single document in the stream", offset: second.range[0] };
    }
    const found = inspect(doc, text);
    const duplicate = found.duplicateKeys[0];
    if (strict && duplicate !== undefined) {
      return { ok: false, message: `Duplicate key '${duplicate.key}' found`, offset: duplicate.offset };
    }
    const value = toFrontmatterValue(doc.toJS({ maxAliasCount: 100 }), 0);
    if (value === undefined) return { ok: false, message: "frontmatter nests too deeply", offset: 0 };
    return { ok: true, value, ...found };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, message: message.split("\n")[0] ?? "YAML could not be parsed", offset: 0 };
  }
}

/**
 * The first line of a `yaml` library error without its position, in the reference parser's words where
 * they differ for the same mistake (an unquoted `: ` inside a value).
 */
function yamlErrorMessage(raw: string): string {
  const message = (raw.split("\n")[0] ?? raw).replace(/ at line \d+, column \d+:?$/, "");
  return message.startsWith("Nested mappings are not allowed in compact mappings")
    ? "mapping values are not allowed here"
    : message;
}

/** Narrows `toJS()` output to frontmatter values; `undefined` when nested deeper than {@link MAX_DEPTH}. */
function toFrontmatterValue(value: unknown, depth: number): FrontmatterValue | null | undefined {
  if (value === null || value === undefined) return depth === 0 ? null : "";
  if (typeof value === "string") return value;
  if (depth > MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    const out: FrontmatterValue[] = [];
    for (const item of value) {
      const v = toFrontmatterValue(item, depth + 1);
      if (v === undefined) return undefined;
      out.push(v ?? "");
    }
    return out;
  }
  if (typeof value === "object") {
    const entries: [string, FrontmatterValue][] = [];
    for (const [k, item] of Object.entries(value)) {
      const v = toFrontmatterValue(item, depth + 1);
      if (v === undefined) return undefined;
      entries.push([k, v ?? ""]);
    }
    return Object.fromEntries(entries);
  }
  return String(value);
}

/** Flow collections, keys repeated within a mapping and keys that are collections, in document order. */
function inspect(
  doc: Document.Parsed,
  text: string,
): {
  flowOffsets: number[];
  duplicateKeys: { key: string; offset: number }[];
  collectionKeys: { key: string; offset: number }[];
} {
  const { visit, isScalar, isCollection } = loadYamlLibrary();
  const flowOffsets: number[] = [];
  const duplicateKeys: { key: string; offset: number }[] = [];
  const collectionKeys: { key: string; offset: number }[] = [];
  visit(doc, {
    Collection(_key, node) {
      if (node.flow === true && node.range) flowOffsets.push(node.range[0]);
    },
    Map(_key, node) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = pair.key;
        if (isCollection(key)) {
          const [from, to] = key.range ?? [0, 0];
          collectionKeys.push({ key: text.slice(from, to).trim(), offset: from });
        }
        if (!isScalar(key)) continue;
        const name = String(key.value);
        if (seen.has(name)) duplicateKeys.push({ key: name, offset: key.range?.[0] ?? 0 });
        seen.add(name);
      }
    },
  });
  duplicateKeys.sort((a, b) => a.offset - b.offset);
  collectionKeys.sort((a, b) => a.offset - b.offset);
  return { flowOffsets, duplicateKeys, collectionKeys };
}
