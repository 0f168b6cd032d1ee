/**
 * Finding the frontmatter and the body in SKILL.md text, in the reference's way (substring `---`,
 * split at most twice) and in the lenient, line-anchored way (`^---[ \t]*$`).
 */
import { isPyWhitespace, pyStrip } from "./py-text.js";

/** Where the frontmatter and body are. Offsets index the text given; lines are 1-based in SKILL.md. */
export interface FrontmatterSplit {
  /** The YAML text between the delimiters. */
  yaml: string;
  /** Line of SKILL.md holding the first character of `yaml`. */
  yamlLine: number;
  /** Column of SKILL.md holding the first character of `yaml` (4 when it follows `---` on line 1). */
  yamlColumn: number;
  /** Line of the closing delimiter. */
  closingLine: number;
  /** Offset just after the closing delimiter (start of the raw body). */
  bodyOffset: number;
}

/**
 * Why no frontmatter could be split off. For an unclosed block (lenient split only) `yamlStart` is the
 * offset after the opening line and `skippedLines` the blank or comment lines before it.
 */
export type SplitFailure =
  | { failure: "missing" }
  | { failure: "unclosed"; yamlStart?: number; skippedLines?: number };

/** Counts the line breaks in `text` before `end` (so the result + 1 is the 1-based line of `end`). */
export function countLines(text: string, start: number, end: number): number {
  let n = 0;
  let i = text.indexOf("\n", start);
  while (i >= 0 && i < end) {
    n++;
    i = text.indexOf("\n", i + 1);
  }
  return n;
}

/** The reference's split: must start with `---`; the frontmatter ends at the next `---` anywhere. */
export function splitFrontmatterStrict(text: string): FrontmatterSplit | SplitFailure {
  if (!text.startsWith("---")) return { failure: "missing" };
  const close = text.indexOf("---", 3);
  if (close < 0) return { failure: "unclosed" };
  const yaml = text.slice(3, close);
  return {
    yaml,
    yamlLine: 1,
    yamlColumn: 4,
    closingLine: 1 + countLines(yaml, 0, yaml.length),
    bodyOffset: close + 3,
  };
}

/** Lenient split result: also reports how many blank lines preceded the opening delimiter. */
export interface LenientSplit extends FrontmatterSplit {
  /** Lines (blank or HTML comments) skipped before the opening `---`. */
  skippedLines: number;
  /** Offset of `yaml` in the text split. */
  yamlOffset: number;
}

/** True when `text[start, end)` is `---` followed only by spaces or tabs. */
function isDelimiter(text: string, start: number, end: number): boolean {
  if (end - start < 3 || !text.startsWith("---", start)) return false;
  for (let i = start + 3; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

function lineEnd(text: string, start: number): number {
  const i = text.indexOf("\n", start);
  return i < 0 ? text.length : i;
}

/**
 * The line-anchored split: blank lines and HTML comments (each ending its line) may precede the opening
 * `---` line, and the frontmatter ends at the next line that is exactly `---` (trailing spaces allowed).
 * Text must already use LF line breaks.
 */
export function splitFrontmatterLenient(text: string): LenientSplit | SplitFailure {
  let start = 0;
  let skipped = 0;
  for (;;) {
    const end = lineEnd(text, start);
    if (isDelimiter(text, start, end)) {
      const yamlStart = Math.min(end + 1, text.length);
      const yamlLine = skipped + 2;
      // Line by line to the closing delimiter, counting the YAML's line breaks on the way (one pass;
      // still linear, if slower than one search, for an unclosed block in a large file).
      let breaks = 0;
      for (let nl = end; nl < text.length; breaks++) {
        const lineStart = nl + 1;
        let closeEnd = text.indexOf("\n", lineStart);
        if (closeEnd < 0) closeEnd = text.length;
        if (text.charCodeAt(lineStart) === 45 /* - */ && isDelimiter(text, lineStart, closeEnd)) {
          return {
            yaml: lineStart > yamlStart ? text.slice(yamlStart, lineStart) : "",
            yamlOffset: yamlStart,
            yamlLine,
            yamlColumn: 1,
            closingLine: yamlLine + breaks,
            bodyOffset: closeEnd,
            skippedLines: skipped,
          };
        }
        nl = closeEnd;
      }
      return { failure: "unclosed", yamlStart, skippedLines: skipped };
    }
    if (end < text.length && isBlankLine(text, start, end)) {
      start = end + 1;
      skipped++;
      continue;
    }
    const comment = htmlCommentEnd(text, start);
    if (comment < 0) return { failure: "missing" };
    skipped += countLines(text, start, comment) + 1;
    start = comment + 1;
  }
}

/**
 * When the line at `start` opens an HTML comment (`<!--`, indentation allowed) whose `-->` ends a line
 * (the same one or a later one), the offset of that line's line break; else -1. Generated and vendored
 * skills often carry such a banner above the frontmatter.
 */
function htmlCommentEnd(text: string, start: number): number {
  let i = start;
  while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  if (!text.startsWith("<!--", i)) return -1;
  const close = text.indexOf("-->", i + 4);
  if (close < 0) return -1;
  const end = lineEnd(text, close + 3);
  if (end >= text.length || !isBlankLine(text, close + 3, end)) return -1;
  return end;
}

function isBlankLine(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isPyWhitespace(text.charCodeAt(i))) return false;
  return true;
}

/** The body from `offset`, stripped (Python `strip()`), and the SKILL.md line it starts on. */
export function extractBody(
  text: string,
  offset: number,
  lineAtOffset: number,
): { body: string; line: number } {
  let start = offset;
  while (start < text.length && isPyWhitespace(text.charCodeAt(start))) start++;
  if (start >= text.length) return { body: "", line: lineAtOffset + (offset < text.length ? 1 : 0) };
  return { body: pyStrip(text.slice(start)), line: lineAtOffset + countLines(text, offset, start) };
}

/** 1-based lines (in SKILL.md) of `---` lines inside the body, starting the search at `offset`. */
export function findBodySeparators(text: string, offset: number, lineAtOffset: number, limit = 20): number[] {
  const lines: number[] = [];
  let from = offset;
  let line = lineAtOffset;
  let counted = offset;
  for (;;) {
    const nl = text.indexOf("\n---", from);
    if (nl < 0 || lines.length >= limit) return lines;
    if (isDelimiter(text, nl + 1, lineEnd(text, nl + 1))) {
      line += countLines(text, counted, nl + 1);
      counted = nl + 1;
      lines.push(line);
    }
    from = nl + 1;
  }
}
