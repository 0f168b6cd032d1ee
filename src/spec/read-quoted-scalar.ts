/**
 * One-line quoted YAML scalars for the frontmatter fast path: the text after `key: ` (or `- `), from
 * the opening quote to the end of the line. Each returns the scalar's value, or `undefined` when the
 * line holds anything else (an unclosed quote, an unknown escape, text after the closing quote), so
 * the caller falls back to the full YAML parser.
 */

const SPACE = 32;
const HASH = 35;

/** True when what follows a closing quote at `from` is nothing, spaces, or spaces and a comment. */
function endsQuoted(rest: string, from: number): boolean {
  if (from === rest.length) return true;
  if (rest.charCodeAt(from) !== SPACE) return false;
  let k = from + 1;
  while (k < rest.length && rest.charCodeAt(k) === SPACE) k++;
  return k === rest.length || rest.charCodeAt(k) === HASH;
}

/** A one-line single-quoted scalar: `rest` starts with the opening quote. */
export function readSingleQuoted(rest: string): string | undefined {
  let out = "";
  let k = 1;
  for (;;) {
    const q = rest.indexOf("'", k);
    if (q < 0) return undefined;
    out += rest.slice(k, q);
    if (rest.charCodeAt(q + 1) === 39) {
      out += "'";
      k = q + 2;
      continue;
    }
    return endsQuoted(rest, q + 1) ? out : undefined;
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\x85",
  _: "\xa0",
  L: "\u2028",
  P: "\u2029",
};
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };
const HEX = /^[0-9A-Fa-f]+$/;

/** A one-line double-quoted scalar with YAML escapes: `rest` starts with the opening quote. */
export function readDoubleQuoted(rest: string): string | undefined {
  let out = "";
  let k = 1;
  for (;;) {
    const quote = rest.indexOf('"', k);
    if (quote < 0) return undefined; // not closed on this line
    const slash = rest.indexOf("\\", k);
    if (slash < 0 || slash > quote) {
      out += rest.slice(k, quote);
      return endsQuoted(rest, quote + 1) ? out : undefined;
    }
    out += rest.slice(k, slash);
    const e = rest.charAt(slash + 1);
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      k = slash + 2;
      continue;
    }
    const n = HEX_LENGTH[e];
    if (n === undefined) return undefined;
    const hex = rest.slice(slash + 2, slash + 2 + n);
    if (hex.length !== n || !HEX.test(hex)) return undefined;
    const code = Number.parseInt(hex, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return undefined;
    out += String.fromCodePoint(code);
    k = slash + 2 + n;
  }
}
