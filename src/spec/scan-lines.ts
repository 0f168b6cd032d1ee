/**
 * Line primitives of the frontmatter fast path (see `fast-frontmatter.ts`). The scanner works on offsets
 * rather than on split lines, and preferably in the whole SKILL.md text (reading characters of a flat
 * string is cheaper than of a slice): the frontmatter ends at `cursor.limit`, a line is `[start, end)`
 * with `end` the next "\n" (or the limit), and "past the last line" is the limit + 1. Readers return
 * the value (or `undefined` to bail out) and leave the start of the first line they did not consume in
 * `cursor.next`, so the hot path allocates only the values it returns.
 */

/** Where the fast path reads: the frontmatter ends at `limit`; a reader leaves in `next` the start of the first line it did not consume. */
export interface ScanCursor {
  limit: number;
  next: number;
}

const SPACE = 32;

/** A lookup table of the ASCII characters in `chars` (1 for each). */
export function charTable(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) table[chars.charCodeAt(i)] = 1;
  return table;
}

/** End of the line starting at `p`: the next "\n", or the cursor's limit. */
export function lineEnd(text: string, p: number, cursor: ScanCursor): number {
  const e = text.indexOf("\n", p);
  return e < 0 || e > cursor.limit ? cursor.limit : e;
}

/** True when `[p, e)` holds only spaces. */
export function isBlank(text: string, p: number, e: number): boolean {
  for (let k = p; k < e; k++) if (text.charCodeAt(k) !== SPACE) return false;
  return true;
}

/** Spaces at `p`; only for lines known not to be blank (the count stops at their first other character). */
export function indentAt(text: string, p: number): number {
  let k = p;
  while (text.charCodeAt(k) === SPACE) k++;
  return k - p;
}

/** Start of the first line at or after `p` that is not blank, or `cursor.limit + 1`. */
export function nextContent(text: string, p: number, cursor: ScanCursor): number {
  let k = p;
  while (k <= cursor.limit) {
    const e = lineEnd(text, k, cursor);
    if (!isBlank(text, k, e)) return k;
    k = e + 1;
  }
  return k;
}
