/**
 * The first prose paragraph of a Markdown body: the lenient fallback description when the frontmatter
 * has none. Fenced code, HTML comments, tag-only HTML lines, badge lines, tables and horizontal rules
 * are skipped; a blockquote, a heading or a list item is used only when the body has no prose paragraph.
 */
import { MAX_DESCRIPTION_LENGTH } from "./validate-skill-name.js";

/** Lines scanned at most: the fallback must stay cheap on huge bodies. */
const MAX_LINES = 400;

/** A line that is only HTML tags (`<objective>`, `</div>`, `<img src="x"/>`), no text. */
const TAG_ONLY = /^(?:<\/?[A-Za-z][\w:-]*(?:\s[^<>]*)?\/?>\s*)+$/;
/** A line that is only images or linked images (README badges). */
const BADGES_ONLY = /^(?:\[?!\[[^\]]*\]\([^)]*\)(?:\]\([^)]*\))?\s*)+$/;
const RULE = /^([-*_])(?:\s*\1){2,}$/;
const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])(?:\s+|$)/;

type Kind = "prose" | "quote" | "heading" | "list";

/**
 * First paragraph of `body`, lines joined with single spaces, trimmed and capped at `max` code points
 * (default 1024). Prefers prose; without prose, the first blockquote, then the first heading, then the
 * first list item. `""` if the body has none of those.
 */
export function firstParagraph(body: string, max = MAX_DESCRIPTION_LENGTH): string {
  const found: Partial<Record<Kind, string>> = {};
  let paragraph: string[] = [];
  let kind: Kind | undefined;
  let fence = "";
  let comment = false;
  const flush = () => {
    if (kind !== undefined && paragraph.length > 0 && found[kind] === undefined) {
      found[kind] = paragraph.join(" ");
    }
    paragraph = [];
    kind = undefined;
  };
  let start = 0;
  for (let n = 0; n < MAX_LINES && start <= body.length && found.prose === undefined; n++) {
    let end = body.indexOf("\n", start);
    if (end < 0) end = body.length;
    const line = body.slice(start, end).trim();
    start = end + 1;
    if (fence !== "") {
      if (line.startsWith(fence)) fence = "";
      continue;
    }
    if (comment) {
      if (line.includes("-->")) comment = false;
      continue;
    }
    if (line.startsWith("<!--")) {
      flush();
      comment = !line.includes("-->");
      continue;
    }
    if (line.startsWith("```") || line.startsWith("~~~")) {
      flush();
      fence = line.slice(0, 3);
      continue;
    }
    if (line === "" || RULE.test(line) || line.startsWith("|")) {
      flush();
      continue;
    }
    if (TAG_ONLY.test(line) || BADGES_ONLY.test(line)) continue;
    if (line.startsWith("#")) {
      flush();
      const heading = line.replace(/^#+\s*/, "").replace(/\s#+$/, "");
      if (found.heading === undefined && heading !== "") found.heading = heading;
      continue;
    }
    const lineKind: Kind = line.startsWith(">") ? "quote" : LIST_ITEM.test(line) ? "list" : "prose";
    if (lineKind === "list") {
      // Each item is its own candidate; lines indented under it continue it.
      flush();
      kind = "list";
      paragraph.push(line.replace(LIST_ITEM, ""));
      continue;
    }
    if (kind !== undefined && kind !== lineKind && kind !== "list") flush();
    if (kind === undefined) kind = lineKind;
    const text = lineKind === "quote" ? line.replace(/^(?:>\s?)+/, "").trim() : line;
    if (text !== "") paragraph.push(text);
  }
  flush();
  const text = (found.prose ?? found.quote ?? found.heading ?? found.list ?? "").trim();
  if (text.length <= max) return text;
  const chars = [...text.slice(0, max * 2)];
  return chars.length > max ? chars.slice(0, max).join("").trimEnd() : text;
}
