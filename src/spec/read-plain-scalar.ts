/**
 * Plain and flow scalars for the frontmatter fast path: a value on its key's line (plain, single- or
 * double-quoted), a one-line flow list of plain items, and a top-level plain value wrapped over indented
 * lines. `undefined` means "not certain": the caller falls back to the full YAML parser.
 */
import { readDoubleQuoted, readSingleQuoted } from "./read-quoted-scalar.js";
import { charTable, isBlank, lineEnd, nextContent, type ScanCursor } from "./scan-lines.js";

/** First characters a plain scalar may not start with here (YAML indicators, plus `-?:` for simplicity). */
const PLAIN_FIRST_BAD = charTable("-?:,[]{}#&*!|>'\"%@`");

const SPACE = 32;
const COLON = 58;

/** Where accepted flow lists are recorded: `sink` (offsets into the YAML text, which starts at `base`), when the caller accepts them. */
export interface FlowSink {
  sink: number[] | undefined;
  base: number;
}

/** A one-line plain, single- or double-quoted scalar at `[r, e)` (after `key: ` or `- `; not empty). */
export function readScalar(text: string, r: number, e: number): string | undefined {
  const c = text.charCodeAt(r);
  if (c === 34 /* " */) {
    const rest = text.slice(r, e);
    // Usually the closing quote ends the line and there is no escape: the text between the quotes.
    const last = rest.length - 1;
    if (last > 0 && rest.indexOf('"', 1) === last && !rest.includes("\\")) return rest.slice(1, last);
    return readDoubleQuoted(rest);
  }
  if (c === 39 /* ' */) return readSingleQuoted(text.slice(r, e));
  if (c < 128 && PLAIN_FIRST_BAD[c] === 1) return undefined;
  let end = e;
  while (end > r && text.charCodeAt(end - 1) === SPACE) end--;
  const value = text.slice(r, end);
  return isPlainText(value) ? value : undefined;
}

/**
 * Whether `value` (a plain scalar's text on one line, trailing spaces cut, not starting with an
 * indicator) reads as that text: no comment (` #`; a `#` after any other character is text) and no
 * mapping indicator (`: `, or `:` at the end).
 */
function isPlainText(value: string): boolean {
  return !value.includes(" #") && !value.includes(": ") && value.charCodeAt(value.length - 1) !== COLON;
}

/**
 * A one-line flow list at `[r, e)` (`[` at `r`) of plain items (`[a, b c]`, `[]`), when the caller
 * accepts flow lists (see {@link fastFrontmatter}); its offset is recorded. Undefined (bail out) for
 * anything else: quoted or nested items, an empty item or a trailing comma, a comment, text after `]`.
 */
export function readFlowList(text: string, r: number, e: number, flow: FlowSink): string[] | undefined {
  if (flow.sink === undefined) return undefined;
  let end = e;
  while (text.charCodeAt(end - 1) === SPACE) end--;
  if (end - r < 2 || text.charCodeAt(end - 1) !== 93 /* ] */) return undefined;
  const inner = text.slice(r + 1, end - 1);
  const items: string[] = [];
  if (!isBlank(inner, 0, inner.length)) {
    for (const part of inner.split(",")) {
      let a = 0;
      let b = part.length;
      while (a < b && part.charCodeAt(a) === SPACE) a++;
      while (b > a && part.charCodeAt(b - 1) === SPACE) b--;
      if (a === b) return undefined;
      const c = part.charCodeAt(a);
      if (c < 128 && PLAIN_FIRST_BAD[c] === 1) return undefined;
      const item = part.slice(a, b);
      if (!isPlainText(item) || FLOW_BAD.test(item)) return undefined;
      items.push(item);
    }
  }
  flow.sink.push(r - flow.base);
  return items;
}

/** Characters a plain item of a flow list may not hold here (flow indicators). */
const FLOW_BAD = /[[\]{},]/;

/** Whether the first line at or after `from` that is not blank is indented (it continues a top-level value). */
export function continues(text: string, from: number, cursor: ScanCursor): boolean {
  const k = nextContent(text, from, cursor);
  return k <= cursor.limit && text.charCodeAt(k) === SPACE;
}

/**
 * A top-level plain scalar whose first line gave `first` ("" when it starts on the next line), continued
 * by the indented lines from `from` until a line at column 0 (or the end). YAML folds them: each line
 * trimmed, one line break between two lines becomes a space, and each blank line between them a newline;
 * blank lines at the end belong to nothing. Undefined (bail out) when a continuation line starts with an
 * indicator (a comment, a list item, a quote, …) or holds a comment or a mapping indicator.
 */
export function readPlainLines(
  text: string,
  first: string,
  from: number,
  cursor: ScanCursor,
): string | undefined {
  const len = cursor.limit;
  let value = first;
  let blanks = 0;
  let j = from;
  while (j <= len) {
    const le = lineEnd(text, j, cursor);
    let k = j;
    while (k < le && text.charCodeAt(k) === SPACE) k++;
    if (k === le) {
      blanks++;
      j = le + 1;
      continue;
    }
    if (k === j) break; // column 0: the next entry (or a comment) ends the scalar
    const c = text.charCodeAt(k);
    if (c < 128 && PLAIN_FIRST_BAD[c] === 1) return undefined;
    let end = le;
    while (text.charCodeAt(end - 1) === SPACE) end--;
    const line = text.slice(k, end);
    if (!isPlainText(line)) return undefined;
    value = value === "" ? line : value + (blanks === 0 ? " " : "\n".repeat(blanks)) + line;
    blanks = 0;
    j = le + 1;
  }
  cursor.next = j;
  return value;
}
