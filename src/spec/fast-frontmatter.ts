/**
 * A line parser for the YAML subset real SKILL.md frontmatter uses. It returns exactly what the `yaml`
 * library returns with the failsafe schema (every scalar a string), or `undefined` whenever it is not
 * certain, so the caller falls back to the full parser. About 30× cheaper than `yaml` per frontmatter.
 *
 * Accepted: top-level `key: value` lines; plain scalars without ` #` and `: `, on one line or, for a
 * top-level key, continued on indented lines (folded: a line break is a space, each blank line a
 * newline; the wrapped `description:` of many real skills); one-line single- and double-quoted scalars
 * (with escapes); `|`, `|-`, `>`, `>-` block scalars; blank lines and column-0 comments; nested
 * `key: value` maps (up to four deep) and block lists of one-line scalars, indented deeper than their key
 * (a top-level key's list also at column 0). Everything else (flow collections — but one-line flow
 * lists when the caller asks, see `flows` —, anchors, tags, tabs, multi-line quoted scalars, continuation
 * lines that start with an indicator, duplicate keys, CR, …) bails out. Nothing it accepts without
 * `flows` is rejected by the reference validator's strict YAML dialect. How the scanner reads (offsets,
 * lines, the cursor): see `scan-lines.ts`; scalars: `read-plain-scalar.ts`, `read-quoted-scalar.ts`,
 * `read-block-scalar.ts`.
 */
import { isPrintableAscii } from "./is-printable-ascii.js";
import { readBlockScalar } from "./read-block-scalar.js";
import { continues, type FlowSink, readFlowList, readPlainLines, readScalar } from "./read-plain-scalar.js";
import { charTable, indentAt, isBlank, lineEnd, nextContent, type ScanCursor } from "./scan-lines.js";
import type { FrontmatterValue } from "./types.js";

/** Characters the fast path never handles: tabs, CR, controls, YAML 1.1 line breaks, BOM, lone surrogates. */
const UNSAFE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\p{Cs}]/u;

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** A key's first character, then its other characters (`[A-Za-z0-9_][A-Za-z0-9_.-]*`). */
const KEY_FIRST = charTable(`${ALNUM}_`);
const KEY_REST = charTable(`${ALNUM}_.-`);

const SPACE = 32;
const BRACKET = 91;
const HASH = 35;
const COLON = 58;
const DASH = 45;

/** Where the readers are (module state: a parse never interleaves with another). */
const cursor: ScanCursor = { limit: 0, next: 0 };
/** Where accepted flow lists are recorded (offsets into the YAML text), when the caller accepts them. */
const flow: FlowSink = { sink: undefined, base: 0 };

/**
 * Parses frontmatter text `yaml` (the part between the `---` lines) when it uses only the common subset.
 * Returns `undefined` to mean "not certain: use the full YAML parser", never a wrong answer.
 * `text` and `offset` may name the file `yaml` was sliced from (`yaml` is `text.slice(offset, offset +
 * yaml.length)`): the result is the same, only cheaper. Defaults: `yaml` itself, offset 0.
 *
 * With `flows` (lenient mode: strict validators reject flow collections), one-line flow lists of plain
 * items as a key's value (`tags: [a, b]`, `  mcp: [rube]`) are accepted too, and the offset of each
 * one's `[` in `yaml` is put in `flows`, in document order — what the full parser reports as
 * `flowOffsets`. `flows` is emptied first; its content means nothing when the result is `undefined`.
 */
export function fastFrontmatter(
  yaml: string,
  text: string = yaml,
  offset = 0,
  flows?: number[],
): Record<string, FrontmatterValue> | undefined {
  if (flows !== undefined) flows.length = 0;
  flow.sink = flows;
  flow.base = offset;
  // Printable ASCII (a cheaper scan) has no unsafe character.
  if (!isPrintableAscii(yaml) && UNSAFE.test(yaml)) return undefined;
  const len = offset + yaml.length;
  cursor.limit = len;
  const out: Record<string, FrontmatterValue> = {};
  let found = false;
  let p = offset;
  // The common line, `key: value`, is read inline (calls cost most before the code is optimised).
  while (p <= len) {
    let e = text.indexOf("\n", p);
    if (e < 0 || e > len) e = len;
    let c = text.charCodeAt(p);
    if (e === p || c === HASH) {
      p = e + 1;
      continue;
    }
    // The key: `[A-Za-z0-9_][A-Za-z0-9_.-]*`, then `:` and spaces or the line end.
    if (c >= 128 || KEY_FIRST[c] !== 1) {
      if (c === SPACE && isBlank(text, p, e)) {
        p = e + 1;
        continue;
      }
      return undefined;
    }
    let colon = p + 1;
    while (colon < e) {
      c = text.charCodeAt(colon);
      if (c >= 128 || KEY_REST[c] !== 1) break;
      colon++;
    }
    if (colon === e || c !== COLON) return undefined;
    let r = colon + 1;
    if (r < e && text.charCodeAt(r) !== SPACE) return undefined;
    while (r < e && text.charCodeAt(r) === SPACE) r++;
    const key = keyAt(text, p, colon);
    if (key === "__proto__" || Object.hasOwn(out, key)) return undefined;
    c = text.charCodeAt(r);
    let value: FrontmatterValue | undefined;
    if (r === e || c === HASH) value = readNested(text, e + 1, 0, 0);
    else if (c === 124 /* | */ || c === 62 /* > */) value = readBlockScalar(text, r, e, 0, cursor);
    else if (c === BRACKET) {
      value = readFlowList(text, r, e, flow);
      cursor.next = e + 1;
    } else {
      value = readScalar(text, r, e);
      cursor.next = e + 1;
      // A plain scalar goes on over deeper-indented lines (a quoted one there makes the next round bail out).
      if (value !== undefined && c !== 34 /* " */ && c !== 39 /* ' */ && continues(text, e + 1, cursor)) {
        value = readPlainLines(text, value, e + 1, cursor);
      }
    }
    if (value === undefined) return undefined;
    out[key] = value;
    found = true;
    p = cursor.next;
  }
  return found ? out : undefined;
}

/**
 * For a `key:` at `p` (`[A-Za-z0-9_][A-Za-z0-9_.-]*:` followed by spaces or the line end), the offset
 * of the colon; else -1.
 */
function keyColon(text: string, p: number, e: number): number {
  const first = text.charCodeAt(p);
  if (first >= 128 || KEY_FIRST[first] !== 1) return -1;
  let k = p + 1;
  let c = 0;
  while (k < e) {
    c = text.charCodeAt(k);
    if (c >= 128 || KEY_REST[c] !== 1) break;
    k++;
  }
  if (k === e || c !== COLON) return -1;
  return k + 1 === e || text.charCodeAt(k + 1) === SPACE ? k : -1;
}

/**
 * The key at `[p, colon)`. The keys most frontmatter uses come back as the same (internalised) string
 * constants, so storing and looking them up stays cheap; others are sliced.
 */
function keyAt(text: string, p: number, colon: number): string {
  let key: string;
  switch (colon - p) {
    case 4:
      key = "name";
      break;
    case 6:
      key = "author";
      break;
    case 7:
      key = text.charCodeAt(p) === 108 /* l */ ? "license" : "version";
      break;
    case 8:
      key = "metadata";
      break;
    case 11:
      key = "description";
      break;
    case 13:
      key = text.charCodeAt(p) === 97 /* a */ ? "allowed-tools" : "compatibility";
      break;
    default:
      return text.slice(p, colon);
  }
  return text.startsWith(key, p) ? key : text.slice(p, colon);
}

/** Offset of the value after the colon at `colon` and its spaces (`e` when the line ends there). */
function valueStart(text: string, colon: number, e: number): number {
  let r = colon + 1;
  while (r < e && text.charCodeAt(r) === SPACE) r++;
  return r;
}

/** Deepest map read here (a top-level key's map is depth 1); deeper nesting bails out. */
const MAX_MAP_DEPTH = 4;

/**
 * What follows a `key:` with no value (from the next line at `from`) whose key sits at column `parent`
 * in a map of depth `depth` (0: the top level): a block list or a map indented deeper, else "" (the next
 * line is a sibling or belongs to an outer map). A top-level key's list may also sit at column 0, and its
 * value may be a plain scalar starting on the next line.
 */
function readNested(text: string, from: number, parent: number, depth: number): FrontmatterValue | undefined {
  const k = nextContent(text, from, cursor);
  if (k > cursor.limit) {
    cursor.next = from;
    return "";
  }
  const top = depth === 0;
  const ind = indentAt(text, k);
  const first = text.charCodeAt(k + ind);
  if (first === DASH && (ind > parent || top)) {
    const after = text.charCodeAt(k + ind + 1);
    if (after === SPACE || after === 10 || k + ind + 1 === cursor.limit)
      return readList(text, k, ind, parent);
  }
  if (ind <= parent) {
    if (top && first === HASH) return undefined;
    cursor.next = from;
    return "";
  }
  if (depth >= MAX_MAP_DEPTH) return undefined;
  if (keyColon(text, k + ind, lineEnd(text, k, cursor)) < 0) {
    // Indented text that is not a `key:` line: at the top level, a plain scalar starting on the next line.
    return top ? readPlainLines(text, "", k, cursor) : undefined;
  }
  return readMap(text, k, ind, depth + 1);
}

/**
 * A block list whose `-` items sit at column `ind`, from the line at `from`; the line after it must sit
 * at column `parent` or less (the indentation of the key it belongs to).
 */
function readList(text: string, from: number, ind: number, parent: number): string[] | undefined {
  const len = cursor.limit;
  const items: string[] = [];
  let j = from;
  while (j <= len) {
    const le = lineEnd(text, j, cursor);
    if (isBlank(text, j, le)) {
      j = le + 1;
      continue;
    }
    const li = indentAt(text, j);
    if (li !== ind || text.charCodeAt(j + li) !== DASH) break;
    const after = j + li + 1;
    if (after < le && text.charCodeAt(after) !== SPACE) break;
    let t = after;
    while (t < le && text.charCodeAt(t) === SPACE) t++;
    const value = t === le ? "" : readScalar(text, t, le);
    if (value === undefined) return undefined;
    items.push(value);
    j = le + 1;
  }
  const k = nextContent(text, j, cursor);
  if (k <= len && indentAt(text, k) > parent) return undefined;
  cursor.next = j;
  return items;
}

/**
 * A nested map of depth `depth` whose keys sit at column `ind`, from the line at `from`, up to the first
 * line indented less.
 */
function readMap(
  text: string,
  from: number,
  ind: number,
  depth: number,
): Record<string, FrontmatterValue> | undefined {
  const len = cursor.limit;
  const map: Record<string, FrontmatterValue> = {};
  let j = from;
  while (j <= len) {
    let le = text.indexOf("\n", j);
    if (le < 0 || le > len) le = len;
    let k = j;
    while (k < le && text.charCodeAt(k) === SPACE) k++;
    if (k === le) {
      j = le + 1; // blank
      continue;
    }
    if (k - j < ind) break; // a line of an outer map (or a top-level one)
    if (k - j !== ind) return undefined;
    const colon = keyColon(text, k, le);
    if (colon < 0) return undefined;
    const key = keyAt(text, k, colon);
    if (key === "__proto__" || Object.hasOwn(map, key)) return undefined;
    const r = valueStart(text, colon, le);
    const c = text.charCodeAt(r);
    let value: FrontmatterValue | undefined;
    if (r === le || c === HASH) {
      value = readNested(text, le + 1, ind, depth);
    } else if (c === 124 /* | */ || c === 62 /* > */) {
      value = readBlockScalar(text, r, le, ind, cursor);
    } else if (c === BRACKET) {
      value = readFlowList(text, r, le, flow);
      cursor.next = le + 1;
    } else {
      value = readScalar(text, r, le);
      cursor.next = le + 1;
    }
    if (value === undefined) return undefined;
    map[key] = value;
    j = cursor.next;
  }
  cursor.next = j;
  return map;
}
