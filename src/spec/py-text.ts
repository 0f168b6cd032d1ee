/**
 * Small string helpers that reproduce Python `str` semantics the reference validator relies on
 * (`str.strip()`, `len()`, `str()` of lists and dicts). Pure, allocation-light.
 */
import type { FrontmatterValue } from "./types.js";

/** True for characters Python's `str.isspace()` accepts (it differs from JS `trim`: no U+FEFF, plus U+001C–U+001F and U+0085). */
export function isPyWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Python `s.strip()`: removes leading and trailing whitespace as Python defines it. */
export function pyStrip(s: string): string {
  const last = s.length - 1;
  if (last >= 0) {
    // Printable ASCII at both ends (the usual case): nothing to strip.
    const a = s.charCodeAt(0);
    const b = s.charCodeAt(last);
    if (a > 0x20 && a < 0x7f && b > 0x20 && b < 0x7f) return s;
  }
  let start = 0;
  let end = s.length;
  while (start < end && isPyWhitespace(s.charCodeAt(start))) start++;
  while (end > start && isPyWhitespace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** True when `pyStrip(s)` is empty (every character is Python whitespace); allocates nothing. */
export function isPyBlank(s: string): boolean {
  const a = s.charCodeAt(0);
  if (a > 0x20 && a < 0x7f) return false;
  for (let i = 0; i < s.length; i++) if (!isPyWhitespace(s.charCodeAt(i))) return false;
  return true;
}

const HIGH_SURROGATE = /[\ud800-\udbff]/;

/** Python `len(s)`: the number of code points (an astral character counts once, unlike `.length`). */
export function codePointLength(s: string): number {
  if (!HIGH_SURROGATE.test(s)) return s.length;
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const NON_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

function pyEscape(c: number): string {
  if (c <= 0xff) return `\\x${c.toString(16).padStart(2, "0")}`;
  if (c <= 0xffff) return `\\u${c.toString(16).padStart(4, "0")}`;
  return `\\U${c.toString(16).padStart(8, "0")}`;
}

/** Python `repr()` of a string: single quotes unless the text holds `'` and no `"`. */
export function pyReprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch !== " " && NON_PRINTABLE.test(ch)) out += pyEscape(c);
    else out += ch;
  }
  return out + quote;
}

/**
 * Python `str(value)` of a parsed frontmatter value: strings as they are, lists and maps as their
 * Python repr (`['a', 'b']`, `{'k': 'v'}`), as the reference does when it coerces `metadata` values.
 */
export function pyStr(value: FrontmatterValue): string {
  return typeof value === "string" ? value : pyRepr(value);
}

function pyRepr(value: FrontmatterValue): string {
  if (typeof value === "string") return pyReprString(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  const parts = Object.entries(value).map(([k, v]) => `${pyReprString(k)}: ${pyRepr(v)}`);
  return `{${parts.join(", ")}}`;
}
