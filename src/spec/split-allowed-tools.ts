/**
 * `allowed-tools` as a list of tool patterns. The spec's form is a space-separated string
 * (`Bash(git:*) Read`); real skills also separate with commas (`Read, Grep`) and put spaces inside
 * parentheses (`Bash(git add:*)`), so splitting honours parentheses and drops commas between entries.
 */
import type { FrontmatterValue } from "./types.js";

const WHITESPACE = /\s/;

/**
 * JS `\s` for one UTF-16 unit from U+0080 up (a lone surrogate half is not whitespace, as for a whole
 * astral character); the ASCII cases are tested inline.
 */
function isSpace(c: number): boolean {
  return WHITESPACE.test(String.fromCharCode(c));
}

/** Splits a string on whitespace and commas outside parentheses: `"Bash(git add:*) Read, Grep"` → 3 entries. */
export function splitAllowedTools(value: string): string[] {
  const out: string[] = [];
  let start = 0;
  let depth = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 40 /* ( */) depth++;
    else if (c === 41 /* ) */ && depth > 0) depth--;
    if (depth === 0 && (c === 44 /* , */ || c === 32 || (c >= 9 && c <= 13) || (c >= 128 && isSpace(c)))) {
      if (i > start) out.push(value.slice(start, i));
      start = i + 1;
    }
  }
  if (value.length > start) out.push(value.slice(start));
  return out;
}

/** `allowed-tools` as read: the tool patterns, and how many list items were not strings. */
export interface AllowedTools {
  tools: string[];
  dropped: number;
}

/**
 * `allowed-tools` from a frontmatter value: a string is split ({@link splitAllowedTools}), a list keeps
 * its string items (trimmed, empty ones dropped). `undefined` for a mapping or a list without strings.
 */
export function allowedToolsFrom(value: FrontmatterValue): AllowedTools | undefined {
  if (typeof value === "string") return { tools: splitAllowedTools(value), dropped: 0 };
  if (!Array.isArray(value)) return undefined;
  const tools: string[] = [];
  let dropped = 0;
  for (const item of value) {
    if (typeof item === "string") {
      const t = item.trim();
      if (t !== "") tools.push(t);
    } else dropped++;
  }
  return { tools, dropped };
}
