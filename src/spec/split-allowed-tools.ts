/**
 * `allowed-tools` as a list of tool patterns. The spec's form is a space-separated string
 * (`Bash(git:*) Read`); real skills also separate with commas (`Read, Grep`) and put spaces inside
 * parentheses (`Bash(git add:*)`), so splitting honours parentheses and drops commas between entries.
 */
import type { FrontmatterValue } from "./types.js";

/** Splits a string on whitespace and commas outside parentheses: `"Bash(git add:*) Read, Grep"` → 3 entries. */
export function splitAllowedTools(value: string): string[] {
  const out: string[] = [];
  let current = "";
  let depth = 0;
  for (const ch of value) {
    if (ch === "(") depth++;
    else if (ch === ")" && depth > 0) depth--;
    if (depth === 0 && (ch === "," || /\s/.test(ch))) {
      if (current !== "") out.push(current);
      current = "";
      continue;
    }
    current += ch;
  }
  if (current !== "") out.push(current);
  return out;
}

/**
 * `allowed-tools` from a frontmatter value: a string is split ({@link splitAllowedTools}), a list keeps
 * its string items (trimmed, empty ones dropped). `undefined` for a mapping or a list without strings.
 */
export function allowedToolsFrom(value: FrontmatterValue): { tools: string[]; dropped: number } | undefined {
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
