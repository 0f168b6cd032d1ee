/** Mapping positions inside frontmatter YAML text back to SKILL.md lines and columns. */
import type { SourcePosition } from "./create-diagnostic.js";
import type { FrontmatterSplit } from "./split-frontmatter.js";

/** SKILL.md line and column (1-based) of `offset` in `split.yaml`. */
export function positionInSkillFile(split: FrontmatterSplit, offset: number): SourcePosition {
  const yaml = split.yaml;
  const at = Math.max(0, Math.min(offset, yaml.length));
  let line = 0;
  let lineStart = 0;
  let i = yaml.indexOf("\n");
  while (i >= 0 && i < at) {
    line++;
    lineStart = i + 1;
    i = yaml.indexOf("\n", i + 1);
  }
  const column = at - lineStart + (line === 0 ? split.yamlColumn : 1);
  return { line: split.yamlLine + line, column };
}

/** SKILL.md line of the top-level `key:` line, or `undefined` when it cannot be found (e.g. a quoted key). */
export function keyLineInSkillFile(split: FrontmatterSplit, key: string): number | undefined {
  const yaml = split.yaml;
  let start = 0;
  let line = 0;
  while (start <= yaml.length) {
    let end = yaml.indexOf("\n", start);
    if (end < 0) end = yaml.length;
    if (yaml.startsWith(key, start)) {
      let k = start + key.length;
      while (k < end && yaml.charCodeAt(k) === 32) k++;
      if (yaml.charCodeAt(k) === 58 /* : */) return split.yamlLine + line;
    }
    start = end + 1;
    line++;
  }
  return undefined;
}
