/**
 * AgentScope SkillBox's view of a skill (`AgentSkill`, `AgentSkillPromptProvider`): its id `name_source`
 * (e.g. `data-analysis_builtin`), its source (`filesystem-<parent>_<dir>` of the root, as
 * `FileSystemSkillRepository` names it; `custom` for skills built in code, `AgentSkill`'s default), and
 * its metadata as XML (`exposeAllMetadata`): every frontmatter field as `  <key>value</key>`, nested maps as
 * nested elements, lists as repeated `<item>`, a key that is not an XML tag name as `<entry key="…">`,
 * values escaped (`& < > " '`), two spaces per level.
 */
import path from "node:path";
import type { SkillRecord } from "../catalog/types.js";
import type { FrontmatterValue } from "../spec/types.js";

/** The skill's SkillBox source: `filesystem-<parent>_<dir>` of its root, or `custom`. */
export function skillboxSource(record: Pick<SkillRecord, "origin" | "source">): string {
  if (record.origin.kind !== "fs") return "custom";
  const root = record.source;
  return `filesystem-${path.basename(path.dirname(root))}_${path.basename(root)}`;
}

/** The skill's SkillBox id: `<name>_<source>`. */
export function skillboxSkillId(record: Pick<SkillRecord, "name" | "origin" | "source">): string {
  return `${record.name}_${skillboxSource(record)}`;
}

const TAG = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function escapeXml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

/** One metadata node at `level` (AgentScope's `appendXmlNode`). */
export function skillboxXmlNode(key: string, value: FrontmatterValue | undefined, level: number): string {
  if (value === undefined) return "";
  const indent = "  ".repeat(level);
  const valid = TAG.test(key);
  const open = valid ? `<${key}>` : `<entry key="${escapeXml(key)}">`;
  const close = valid ? `</${key}>` : "</entry>";
  if (typeof value === "string") return `${indent}${open}${escapeXml(value)}${close}\n`;
  const children = Array.isArray(value)
    ? value.map((item) => skillboxXmlNode("item", item, level + 1))
    : Object.entries(value).map(([k, v]) => skillboxXmlNode(k, v, level + 1));
  return `${indent}${open}\n${children.join("")}${indent}${close}\n`;
}

/**
 * The frontmatter of a skill as SkillBox renders it with `exposeAllMetadata` (the default): name, the
 * given description (left out when undefined, as a null value is), the spec fields, then the other keys.
 */
export function skillboxMetadata(
  record: SkillRecord,
  description: string | undefined,
): Array<[string, FrontmatterValue | undefined]> {
  return [
    ["name", record.name],
    ["description", description],
    ["license", record.license],
    ["compatibility", record.compatibility],
    ["allowed-tools", record.allowedTools === undefined ? undefined : record.allowedTools.join(" ")],
    // Nested maps and lists as AgentScope writes them (nested elements, `<item>`s), not as coerced strings.
    ["metadata", record.metadataTree ?? record.metadata],
    ...Object.entries(record.extras),
  ];
}
