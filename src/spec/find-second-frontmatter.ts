/**
 * `findSecondFrontmatter`: where a SKILL.md body opens with what looks like a second frontmatter block —
 * a `---` line first (blank lines aside), then only `key: value` lines (and their indented or list
 * continuations), then a closing `---`. That is the one body shape some parsers misread (as the real
 * frontmatter, or as the end of the body); an ordinary Markdown `---` rule elsewhere in the body is not.
 */

const KEY_LINE = /^[A-Za-z_][\w.-]*[ \t]*:(?:[ \t]|$)/;
const MAX_BLOCK_LINES = 60;

function isDelimiterLine(line: string): boolean {
  return line.replace(/[ \t\r]+$/, "") === "---";
}

/**
 * The line number of the opening `---` of a frontmatter-like block at the start of the body, or
 * `undefined`. `offset` is where the body starts in `text`, on line `lineAtOffset` (the numbering
 * `findBodySeparators` uses: the line of `offset` plus the newlines after it).
 */
export function findSecondFrontmatter(
  text: string,
  offset: number,
  lineAtOffset: number,
): number | undefined {
  const lines = text.slice(offset, offset + 16_384).split("\n");
  let i = 0;
  // The first entry is the rest of the line `offset` is on (empty when the body starts on a new line).
  if (!isDelimiterLine(lines[0] ?? "") && (lines[0] ?? "").trim() === "") i = 1;
  while (i < lines.length && (lines[i] ?? "").trim() === "") i++;
  if (!isDelimiterLine(lines[i] ?? "")) return undefined;
  const open = i;
  let keys = 0;
  for (let j = open + 1; j < lines.length && j <= open + MAX_BLOCK_LINES; j++) {
    const line = (lines[j] ?? "").replace(/\r$/, "");
    if (isDelimiterLine(line)) return keys > 0 ? lineAtOffset + open : undefined;
    if (KEY_LINE.test(line)) keys++;
    else if (line.trim() !== "" && !/^[ \t]/.test(line) && !line.startsWith("- ")) return undefined;
  }
  return undefined;
}
