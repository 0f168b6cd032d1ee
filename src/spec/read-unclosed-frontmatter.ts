/**
 * Lenient reading of a frontmatter block whose closing `---` line is missing: the YAML runs up to the
 * first blank line, or up to the first top-level line YAML cannot read, whichever comes first; the rest
 * is the body.
 */
import { isMapping } from "./build-parsed-skill.js";
import { loadFrontmatter } from "./load-frontmatter.js";
import type { LenientSplit } from "./split-frontmatter.js";

/**
 * The split of an unclosed frontmatter starting at `yamlStart` (just after the opening `---` line,
 * which follows `skippedLines` skipped lines), or `undefined` when no mapping can be read from it.
 */
export function readUnclosedFrontmatter(
  text: string,
  yamlStart: number,
  skippedLines: number,
): LenientSplit | undefined {
  const blank = text.indexOf("\n\n", yamlStart - 1);
  let end = blank < 0 ? text.length : blank + 1;
  let loaded = loadFrontmatter(text.slice(yamlStart, end), false);
  const dropped = loaded.ok ? loaded.notes.find((n) => n.kind === "dropped") : undefined;
  if (dropped !== undefined) {
    // A line YAML could not read: without a closing '---', that is where the Markdown starts.
    let cut = yamlStart;
    for (let k = 0; k < dropped.line; k++) cut = text.indexOf("\n", cut) + 1;
    end = cut;
    loaded = loadFrontmatter(text.slice(yamlStart, end), false);
  }
  if (!loaded.ok || !isMapping(loaded.value)) return undefined;
  const yaml = text.slice(yamlStart, end);
  const yamlLine = skippedLines + 2;
  return {
    yaml,
    yamlOffset: yamlStart,
    yamlLine,
    yamlColumn: 1,
    closingLine: yamlLine + yaml.split("\n").length - 1,
    bodyOffset: end,
    skippedLines,
  };
}
