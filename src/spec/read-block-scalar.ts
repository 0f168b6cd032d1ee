/**
 * YAML block scalars (`|`, `|-`, `>`, `>-`) for the frontmatter fast path, read in place in the
 * SKILL.md text. `undefined` means "not certain" (keep chomping, indentation indicators, more-indented
 * folded lines, whitespace-only lines, …): the caller falls back to the full YAML parser.
 */

import type { ScanCursor } from "./scan-lines.js";

const SPACE = 32;
const HASH = 35;
const DASH = 45;

/**
 * The block scalar whose header (`|`, `>`, optional `-`, optional comment) is `[r, e)` on a line whose
 * key sits at column `indent`; its content lines follow, indented deeper. Sets `cursor.next`.
 */
export function readBlockScalar(
  text: string,
  r: number,
  e: number,
  indent: number,
  cursor: ScanCursor,
): string | undefined {
  // The header: `^([|>])(-?)(?: +#.*| *)$`.
  const folded = text.charCodeAt(r) === 62;
  let h = r + 1;
  const strip = h < e && text.charCodeAt(h) === DASH;
  if (strip) h++;
  const spaced = h < e && text.charCodeAt(h) === SPACE;
  while (h < e && text.charCodeAt(h) === SPACE) h++;
  if (h < e && !(spaced && text.charCodeAt(h) === HASH)) return undefined;

  const len = cursor.limit;
  const parts: string[] = [];
  let contentIndent = -1;
  let leadingBlank = 0;
  let j = e + 1;
  while (j <= len) {
    let le = text.indexOf("\n", j);
    if (le < 0 || le > len) le = len;
    let ind = 0;
    while (j + ind < le && text.charCodeAt(j + ind) === SPACE) ind++;
    if (j + ind === le) {
      if (contentIndent < 0) leadingBlank = Math.max(leadingBlank, ind);
      else if (ind > contentIndent) return undefined; // whitespace content
      parts.push("");
      j = le + 1;
      continue;
    }
    if (contentIndent < 0) {
      if (ind <= indent) break;
      if (leadingBlank > ind) return undefined;
      contentIndent = ind;
    } else if (ind < contentIndent) {
      if (ind > indent) return undefined;
      break;
    }
    parts.push(text.slice(j + contentIndent, le));
    j = le + 1;
  }
  cursor.next = j;
  while (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  if (contentIndent < 0 && leadingBlank > indent) return undefined;
  if (parts.length === 0) return "";
  const body = folded ? fold(parts) : parts.join("\n");
  if (body === undefined) return undefined;
  return strip ? body : `${body}\n`;
}

/**
 * The lines of a folded (`>`) block joined as YAML folds them: a single line break becomes a space, a
 * run of n blank lines becomes n line breaks. `undefined` when a line is more indented (those keep
 * their line breaks; not handled here).
 */
function fold(parts: string[]): string | undefined {
  let plain = true;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p === "") plain = false;
    else if (p.charCodeAt(0) === SPACE) return undefined;
  }
  if (plain) return parts.join(" ");
  const pieces: string[] = [];
  let pending = 0;
  let seen = false;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p === "") {
      pending++;
      continue;
    }
    if (pending > 0) pieces.push("\n".repeat(pending));
    else if (seen) pieces.push(" ");
    pieces.push(p);
    pending = 0;
    seen = true;
  }
  return pieces.join("");
}
