/**
 * The YAML the reference validator's parser (strictyaml) refuses although YAML allows it: flow
 * collections, anchors, aliases, tags, and tabs used as whitespace. Found by walking the `yaml` CST.
 */
import type { CST } from "yaml";

/** A construct strict mode rejects: the reference parser's message, and where (offset into the YAML text). */
export interface YamlViolation {
  kind: "flow-collection" | "anchor" | "alias" | "tag" | "tab";
  message: string;
  offset: number;
}

const FLOW =
  "Found ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)";
const ANCHOR =
  "Found confusing disallowed anchor token (surround with ' and ' to make text appear literally)";
const TAG = "Found disallowed tag tokens (do not specify types in markup)";
const TAB = "found character '\\t' that cannot start any token";

/** The first construct (in document order) of `tokens` that strict mode rejects, or `undefined`. */
export function findStrictYamlViolation(tokens: readonly CST.Token[]): YamlViolation | undefined {
  for (const token of tokens) {
    const found = walk(token, 0);
    if (found !== undefined) return found;
  }
  return undefined;
}

function isToken(value: unknown): value is CST.Token {
  return typeof value === "object" && value !== null && "type" in value && typeof value.type === "string";
}

function walk(node: unknown, depth: number): YamlViolation | undefined {
  if (depth > 200) return undefined; // the composer reports pathological nesting itself
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = walk(item, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof node !== "object" || node === null) return undefined;
  if (isToken(node)) {
    const found = check(node);
    if (found !== undefined) return found;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === "source" || key === "type" || typeof value !== "object" || value === null) continue;
    const found = walk(value, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function check(token: CST.Token): YamlViolation | undefined {
  switch (token.type) {
    case "flow-collection":
    case "flow-map-start":
    case "flow-seq-start":
      return { kind: "flow-collection", message: FLOW, offset: token.offset };
    case "anchor":
      return { kind: "anchor", message: ANCHOR, offset: token.offset };
    case "alias":
      return {
        kind: "alias",
        message: `found undefined alias '${token.source.slice(1)}'`,
        offset: token.offset,
      };
    case "tag":
      return { kind: "tag", message: TAG, offset: token.offset };
    case "space":
    case "scalar": {
      const at = token.source.indexOf("\t");
      return at < 0 ? undefined : { kind: "tab", message: TAB, offset: token.offset + at };
    }
    case "block-scalar": {
      const last = token.props[token.props.length - 1];
      const start = last !== undefined && "source" in last ? last.offset + last.source.length : token.offset;
      return blockScalarTab(token.source, start, token.indent);
    }
    default:
      return undefined;
  }
}

/** A tab inside the indentation of a block scalar's lines (a tab after the indentation is content). */
function blockScalarTab(source: string, offset: number, parentIndent: number): YamlViolation | undefined {
  let contentIndent = -1;
  let start = 0;
  while (start <= source.length) {
    let end = source.indexOf("\n", start);
    if (end < 0) end = source.length;
    let spaces = start;
    while (spaces < end && source.charCodeAt(spaces) === 32) spaces++;
    const n = spaces - start;
    if (spaces < end && source.charCodeAt(spaces) === 9) {
      const limit = contentIndent < 0 ? parentIndent + 1 : contentIndent;
      if (n < limit) return { kind: "tab", message: TAB, offset: offset + spaces };
      if (contentIndent < 0) contentIndent = n;
    } else if (contentIndent < 0 && spaces < end) {
      contentIndent = n;
    }
    start = end + 1;
  }
  return undefined;
}
