/** Most characters of a body's prose a record keeps for search ({@link bodyOpening}). */
export const OPENING_CHARS = 600;
/** Most characters of a body's headings a record keeps for search ({@link bodyOpening}). */
export const HEADINGS_CHARS = 300;

/** What search reads of a SKILL.md body (kept on the L1 record; see {@link bodyOpening}). */
export interface BodyOpening {
  /** The body's first prose as plain text, at most {@link OPENING_CHARS} characters. */
  opening: string;
  /** The headings found in the same text, joined by newlines, at most {@link HEADINGS_CHARS} characters. */
  headings: string;
}

/**
 * The headings and first prose of a SKILL.md body, from its first bytes (the catalog passes what its head
 * read got anyway, so this costs no I/O; see `SkillHead.bodyStart`): fenced code, HTML comments, tables'
 * rules, link targets and Markdown markup dropped, whitespace collapsed, each part cut on a word boundary.
 */
export function bodyOpening(start: string): BodyOpening {
  const prose: string[] = [];
  const headings: string[] = [];
  let proseLength = 0;
  let headingsLength = 0;
  let fence: string | undefined;
  let comment = false;
  for (const raw of start.split("\n")) {
    if (proseLength >= OPENING_CHARS && headingsLength >= HEADINGS_CHARS) break;
    const line = raw.trim();
    if (fence !== undefined) {
      if (line.startsWith(fence)) fence = undefined;
      continue;
    }
    if (comment) {
      if (line.includes("-->")) comment = false;
      continue;
    }
    // Once the prose is full only headings, fences and comments still matter: skip other lines unread.
    if (proseLength >= OPENING_CHARS && !MAY_MATTER.has(line.charCodeAt(0))) continue;
    const opensFence = /^(`{3,}|~{3,})/.exec(line);
    if (opensFence !== null) {
      fence = opensFence[1]!;
      continue;
    }
    if (line.startsWith("<!--")) {
      comment = !line.includes("-->");
      continue;
    }
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading !== null) {
      // Past a part's limit its lines are skipped unread (plain() is most of the cost of a cold scan).
      if (headingsLength >= HEADINGS_CHARS) continue;
      const words = plain(heading[1]!);
      if (words !== "" && headingsLength < HEADINGS_CHARS) {
        headings.push(words);
        headingsLength += words.length + 1;
      }
      continue;
    }
    if (proseLength >= OPENING_CHARS) continue;
    if (/^\|?[\s:|-]+\|?$/.test(line) && line.includes("-")) continue; // a table's rule line
    const words = plain(line);
    if (words !== "" && proseLength < OPENING_CHARS) {
      prose.push(words);
      proseLength += words.length + 1;
    }
  }
  return { opening: cut(prose.join(" "), OPENING_CHARS), headings: cut(headings.join("\n"), HEADINGS_CHARS) };
}

/** First characters of the lines that can open a heading, a fence or a comment: `#`, `` ` ``, `~`, `<`. */
const MAY_MATTER = new Set([0x23, 0x60, 0x7e, 0x3c]);

/** Characters that start Markdown inline markup or a list marker that {@link plain} removes. */
const MARKUP = /[[\]!<>*_`|#+-]|^\d+[.)]/;

/** Markdown inline markup to plain words: links keep their text, images their alt text, HTML tags go. */
function plain(line: string): string {
  // Most prose lines carry no markup: collapsing whitespace is all the rules below would do to them.
  if (!MARKUP.test(line)) return line.replace(/\s+/g, " ").trim();
  return line
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, " ")
    .replace(/^(?:[-*+>]|\d+[.)])\s+/, "")
    .replace(/[*_`|#>]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** `text` cut to at most `max` characters, at the last space before the limit. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const space = text.lastIndexOf(" ", max);
  return text.slice(0, space > max / 2 ? space : max).trimEnd();
}
