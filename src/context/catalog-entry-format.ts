/**
 * Text of one catalog entry in each {@link CatalogFormat}: header, full / shortened / bare entry, footer.
 * Every piece ends with a newline and starts with a non-space character (or indentation before `<`), so
 * token counts of the pieces add up to the count of their concatenation (BPE pre-tokenisation splits there).
 */
import type { SkillRecord } from "../catalog/types.js";
import { escapeHtml, toPrompt } from "../spec/to-prompt.js";
import { AWORLD_CATALOG, SKILLBOX_CATALOG, SKILLBOX_EXEC_CATALOG } from "./seed-catalog-templates.js";
import type { CatalogFormat } from "./session-options.js";

/** How one format lays out the catalog. `marker` is `✓` (loaded) or `○`. */
export interface CatalogEntryFormat {
  header: string;
  footer: string;
  /** Entry with the given description; `undefined` renders the name alone. */
  entry(record: SkillRecord, description: string | undefined, loaded: boolean): string;
}

/** Collapses whitespace runs (newlines included) to single spaces and trims. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * A short form of a description: its first sentence when that fits in `max` characters (default 80), else
 * the text cut at a word boundary with `…`.
 */
export function shortenDescription(text: string, max = 80): string {
  const line = oneLine(text);
  const end = line.search(/[.!?](\s|$)/);
  const sentence = end >= 0 && end < max ? line.slice(0, end + 1) : line;
  if (sentence.length <= max) return sentence;
  const cut = sentence.lastIndexOf(" ", max - 1);
  return `${sentence.slice(0, cut > max / 2 ? cut : max - 1)}…`;
}

const list: CatalogEntryFormat = {
  header: "Available skills:\n",
  footer: "",
  entry: (r, d) => (d === undefined ? `- ${r.name}\n` : `- ${r.name}: ${oneLine(d)}\n`),
};

const markdown: CatalogEntryFormat = {
  header: "## Available Skills (use when needed)\n\n",
  footer: "",
  entry: (r, d, loaded) => {
    const mark = loaded ? "✓" : "○";
    return d === undefined ? `- [${mark}] **${r.name}**\n` : `- [${mark}] **${r.name}**: ${oneLine(d)}\n`;
  },
};

const xml: CatalogEntryFormat = {
  header: "<available_skills>\n",
  footer: "</available_skills>\n",
  entry: (r, d) =>
    `  <skill>\n    <name>${escapeHtml(r.name)}</name>\n` +
    (d === undefined ? "" : `    <description>${escapeHtml(oneLine(d))}</description>\n`) +
    `    <location>${escapeHtml(r.location)}</location>\n  </skill>\n`,
};

// skills-ref `to-prompt` layout, cut from spec's `toPrompt` so the two cannot drift: its empty block gives
// the opening and closing lines, and one entry is a one-skill block without them.
const [promptOpen = "", promptClose = ""] = toPrompt([]).split("\n");

const agentskills: CatalogEntryFormat = {
  header: `${promptOpen}\n`,
  footer: `${promptClose}\n`,
  entry: (r, d) =>
    toPrompt([{ name: r.name, description: d ?? "", location: r.location }]).slice(
      promptOpen.length + 1,
      -promptClose.length,
    ),
};

const formats: Record<CatalogFormat, CatalogEntryFormat> = {
  list,
  markdown,
  xml,
  agentskills,
  aworld: AWORLD_CATALOG,
  skillbox: SKILLBOX_CATALOG,
  "skillbox-exec": SKILLBOX_EXEC_CATALOG,
};

/** The layout of `format`. */
export function catalogEntryFormat(format: CatalogFormat): CatalogEntryFormat {
  return formats[format];
}
