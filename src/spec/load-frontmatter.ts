/**
 * Frontmatter YAML to a value: the fast line parser first, the `yaml` library when it bails out, and in
 * lenient mode the client guide's repairs when YAML refuses the text.
 */
import { fastFrontmatter } from "./fast-frontmatter.js";
import { parseFrontmatterYaml } from "./parse-frontmatter-yaml.js";
import {
  indentQuotedContinuations,
  quoteValueAt,
  repairFrontmatterYaml,
  separateKeys,
  type YamlRepairKind,
} from "./repair-frontmatter-yaml.js";
import { salvageFrontmatterYaml } from "./salvage-frontmatter-yaml.js";
import type { FrontmatterValue } from "./types.js";

/** A lenient-mode finding while loading, with an offset or 0-based line in the YAML text. */
export type LoadNote =
  | { kind: "flow-collection"; offset: number }
  | { kind: "duplicate-key"; key: string; offset: number }
  | { kind: "collection-key"; key: string; offset: number }
  | { kind: "repaired"; line: number; repair: YamlRepairKind }
  | { kind: "dropped"; line: number; lastLine: number; message: string };

/** Outcome of {@link loadFrontmatter}. */
export type LoadedFrontmatter =
  | { ok: true; value: FrontmatterValue | null; notes: readonly LoadNote[] }
  | { ok: false; message: string; offset: number };

/**
 * Loads frontmatter YAML: strict mode rejects what strictyaml rejects; lenient mode repairs and retries,
 * and as a last resort drops the top-level entries that stay unreadable (never `name` or `description`).
 */
export function loadFrontmatter(yaml: string, strict: boolean): LoadedFrontmatter {
  const fast = fastFrontmatter(yaml);
  if (fast !== undefined) return { ok: true, value: fast, notes: NO_NOTES };
  const full = parseFrontmatterYaml(yaml, strict);
  if (full.ok && !strict && typeof full.value === "string") {
    // One plain string where fields were meant (`name:x`, `name：x`): read the keys a person sees.
    const separated = separateKeys(yaml);
    const retried = separated === undefined ? undefined : parseFrontmatterYaml(separated.text, false);
    if (separated !== undefined && retried?.ok === true && isRecord(retried.value)) {
      const notes: LoadNote[] = separated.repairs.map((r) => ({
        kind: "repaired",
        line: r.line,
        repair: r.kind,
      }));
      return { ok: true, value: retried.value, notes: [...notes, ...notesOf(retried)] };
    }
  }
  if (full.ok) return { ok: true, value: full.value, notes: notesOf(full) };
  if (strict) {
    // strictyaml accepts quoted values continued on unindented lines; `yaml` does not.
    const indented = indentQuotedContinuations(yaml);
    const retried = indented === undefined ? undefined : parseFrontmatterYaml(indented, true);
    return retried?.ok === true ? { ok: true, value: retried.value, notes: [] } : full;
  }
  let repair = repairFrontmatterYaml(yaml) ?? { text: yaml, repairs: [] };
  let retried = repair.repairs.length > 0 ? parseFrontmatterYaml(repair.text, false) : full;
  // Then quote the value on the line YAML still complains about, a few lines at most.
  for (let round = 0; !retried.ok && round < MAX_ERROR_DIRECTED_REPAIRS; round++) {
    const next = quoteValueAt(repair.text, retried.offset);
    if (next === undefined) break;
    repair = { text: next.text, repairs: [...repair.repairs, ...next.repairs] };
    retried = parseFrontmatterYaml(repair.text, false);
  }
  const notes: LoadNote[] = repair.repairs
    .sort((a, b) => a.line - b.line)
    .map((r) => ({ kind: "repaired", line: r.line, repair: r.kind }));
  if (!retried.ok) {
    // Last resort: give up the entries YAML still cannot read, keep the others.
    const salvaged = salvageFrontmatterYaml(repair.text, retried, (text) =>
      parseFrontmatterYaml(text, false),
    );
    if (salvaged === undefined || !salvaged.result.ok) return full;
    for (const d of salvaged.dropped) notes.push({ kind: "dropped", ...d });
    return { ok: true, value: salvaged.value, notes: [...notes, ...notesOf(salvaged.result)] };
  }
  if (repair.repairs.length === 0) return full;
  return { ok: true, value: retried.value, notes: [...notes, ...notesOf(retried)] };
}

const NO_NOTES: readonly LoadNote[] = Object.freeze([]);

function isRecord(value: FrontmatterValue | null): value is Record<string, FrontmatterValue> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Error-directed quoting rounds before lenient mode gives up on a frontmatter. */
const MAX_ERROR_DIRECTED_REPAIRS = 8;

function notesOf(result: {
  flowOffsets: number[];
  duplicateKeys: { key: string; offset: number }[];
  collectionKeys: { key: string; offset: number }[];
}): LoadNote[] {
  const notes: LoadNote[] = result.flowOffsets.map((offset) => ({ kind: "flow-collection", offset }));
  for (const d of result.duplicateKeys) notes.push({ kind: "duplicate-key", key: d.key, offset: d.offset });
  for (const c of result.collectionKeys) notes.push({ kind: "collection-key", key: c.key, offset: c.offset });
  return notes;
}
