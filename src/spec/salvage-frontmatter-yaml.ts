/**
 * The lenient last resort for frontmatter YAML that stays broken after the repairs: drop the top-level
 * entries YAML cannot read (one at a time, where YAML reports its error) and keep the rest, as a reader
 * would. Never drops `name` or `description`: when one of those is what breaks, nothing is salvaged.
 */
import type { FrontmatterValue } from "./types.js";

/** One top-level entry given up: 0-based first and last line in the YAML text, and YAML's complaint. */
export interface DroppedEntry {
  line: number;
  lastLine: number;
  message: string;
}

/** A salvaged frontmatter: the mapping YAML could read, the entries dropped, and the last parse result. */
export interface SalvagedYaml<R> {
  value: Record<string, FrontmatterValue>;
  dropped: DroppedEntry[];
  result: R;
}

/** Entries given up at most before the frontmatter counts as unreadable. */
export const MAX_DROPPED_ENTRIES = 8;

/** Keys the salvage never drops: losing them silently would misname or misdescribe the skill. */
const KEPT_KEYS = new Set(["name", "description"]);

/** The key of an entry's first line, loosely: whatever precedes the first colon (ASCII or full-width). */
const ENTRY_KEY = /^("([^"]*)"|'([^']*)'|[^\s#:：][^:：]*?)\s*[:：]/;

/** Parse outcome the salvage needs: a value, or YAML's message and the offset of its complaint. */
export type YamlAttempt =
  | { ok: true; value: FrontmatterValue | null }
  | { ok: false; message: string; offset: number };

/**
 * Blanks out (keeping the line count, so lines still match SKILL.md) the top-level entry holding each
 * error `parse` reports, until the rest parses to a mapping. `undefined` when that takes more than
 * {@link MAX_DROPPED_ENTRIES} entries, when an entry to drop is `name` or `description`, or when
 * nothing readable is left.
 */
export function salvageFrontmatterYaml<R extends YamlAttempt>(
  text: string,
  failure: { message: string; offset: number },
  parse: (yaml: string) => R,
): SalvagedYaml<R> | undefined {
  const lines = text.split("\n");
  const dropped: DroppedEntry[] = [];
  let error = failure;
  for (let round = 0; round < MAX_DROPPED_ENTRIES; round++) {
    const entry = entryAt(lines, lineOfOffset(lines, error.offset));
    if (entry === undefined) return undefined;
    const key = ENTRY_KEY.exec(lines[entry.first]!);
    if (key !== null && KEPT_KEYS.has(key[2] ?? key[3] ?? key[1]!)) return undefined;
    for (let k = entry.first; k <= entry.last; k++) lines[k] = "";
    dropped.push({ line: entry.first, lastLine: entry.last, message: error.message });
    const result = parse(lines.join("\n"));
    if (result.ok) {
      const value = result.value;
      if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
      if (Object.keys(value).length === 0) return undefined;
      return { value, dropped, result };
    }
    error = result;
  }
  return undefined;
}

/** 0-based line holding `offset` (clamped to the text). */
function lineOfOffset(lines: readonly string[], offset: number): number {
  let remaining = Math.max(0, offset);
  for (let i = 0; i < lines.length; i++) {
    if (remaining <= lines[i]!.length) return i;
    remaining -= lines[i]!.length + 1;
  }
  return lines.length - 1;
}

/**
 * The top-level entry around line `at`: from the nearest line at or above it that starts in column 0
 * (not a comment, not a `-` list item, which belongs to the key above) to the line before the next such
 * line. `undefined` when the entry would be empty.
 */
function entryAt(lines: readonly string[], at: number): { first: number; last: number } | undefined {
  let first = at;
  while (first > 0 && !startsEntry(lines[first]!)) first--;
  if (!startsEntry(lines[first]!)) {
    // The error sits before any entry (indented garbage at the top): drop just that line.
    if (lines[at]!.trim() === "") return undefined;
    return { first: at, last: at };
  }
  let last = first;
  for (let k = first + 1; k < lines.length && !startsEntry(lines[k]!); k++) {
    if (lines[k]!.trim() !== "") last = k;
  }
  return { first, last };
}

function startsEntry(line: string): boolean {
  const c = line.charAt(0);
  if (c === "" || c === " " || c === "\t" || c === "#") return false;
  return !(c === "-" && (line.length === 1 || line.charAt(1) === " "));
}
