/**
 * The first prose paragraph of a Markdown body: the lenient fallback description when the frontmatter
 * has none. Headings, fenced code, HTML comments and horizontal rules are skipped.
 */
import { MAX_DESCRIPTION_LENGTH } from "./validate-skill-name.js";

/** Lines scanned at most: the fallback must stay cheap on huge bodies. */
const MAX_LINES = 400;

/**
 * First paragraph of `body`, lines joined with single spaces, trimmed and capped at `max` code points
 * (default 1024). Falls back to the first heading's text when the body has only headings; `""` if none.
 */
export function firstParagraph(body: string, max = MAX_DESCRIPTION_LENGTH): string {
  const paragraph: string[] = [];
  let heading = "";
  let fence = "";
  let comment = false;
  let start = 0;
  for (let n = 0; n < MAX_LINES && start <= body.length; n++) {
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
    const skip =
      line.startsWith("```") ||
      line.startsWith("~~~") ||
      line.startsWith("<!--") ||
      line.startsWith("#") ||
      /^([-*_])\1{2,}$/.test(line);
    if (line === "" || skip) {
      if (paragraph.length > 0) break;
      if (line.startsWith("```") || line.startsWith("~~~")) fence = line.slice(0, 3);
      else if (line.startsWith("<!--") && !line.includes("-->")) comment = true;
      else if (line.startsWith("#") && heading === "") heading = line.replace(/^#+\s*/, "");
      continue;
    }
    paragraph.push(line);
  }
  const text = (paragraph.length > 0 ? paragraph.join(" ") : heading).trim();
  if (text.length <= max) return text;
  const chars = [...text.slice(0, max * 2)];
  return chars.length > max ? chars.slice(0, max).join("").trimEnd() : text;
}
