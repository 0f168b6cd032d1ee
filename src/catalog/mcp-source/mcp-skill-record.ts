/**
 * The catalog record of an MCP-served skill, built from its `skills/list` entry alone (no file is read):
 * name as shown (qualified `server:name` on a collision), description from the frontmatter followed by the
 * origin (`(from MCP server hf)`, so every catalog format and `list` say where it came from), the spec
 * fields and extras from the verbatim frontmatter. It is never `active` (loading fetches: only on need).
 */
import { allowedToolsFrom } from "../../spec/split-allowed-tools.js";
import type { FrontmatterValue } from "../../spec/types.js";
import { skillFlags } from "../skill-flags.js";
import { mcpOrigin } from "../skill-origin.js";
import type { SkillRecord } from "../types.js";
import type { McpServedSkill } from "./mcp-skill-source.js";
import { skillRootUri } from "./skill-root-uri.js";

const SPEC_FIELDS = new Set(["name", "description", "license", "compatibility", "allowed-tools", "metadata"]);

/** The record of `skill`, shown as `shownName`. */
export function mcpSkillRecord(skill: McpServedSkill, shownName: string): SkillRecord {
  const { frontmatter } = skill.entry;
  const extras: Record<string, FrontmatterValue> = {};
  for (const [key, value] of Object.entries(frontmatter)) {
    if (SPEC_FIELDS.has(key)) continue;
    const converted = toFrontmatterValue(value);
    if (converted !== undefined) extras[key] = converted;
  }
  const origin = mcpOrigin(skill.server);
  const record: SkillRecord = {
    name: shownName,
    description: `${frontmatter.description.trim()} (from ${origin.label})`,
    location: skill.entry.uri,
    dir: skillRootUri(skill.entry),
    scope: "mcp",
    source: `mcp:${skill.server}`,
    origin,
    extras,
    ...skillFlags(extras),
    active: false,
    diagnostics: [],
  };
  if (typeof frontmatter["license"] === "string") record.license = frontmatter["license"];
  if (typeof frontmatter["compatibility"] === "string") record.compatibility = frontmatter["compatibility"];
  const allowed = toFrontmatterValue(frontmatter["allowed-tools"]);
  const tools = allowed === undefined ? undefined : allowedToolsFrom(allowed);
  if (tools !== undefined) record.allowedTools = tools.tools;
  const metadata = frontmatter["metadata"];
  if (typeof metadata === "object" && metadata !== null && !Array.isArray(metadata)) {
    record.metadata = Object.fromEntries(
      Object.entries(metadata).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])),
    );
  }
  return record;
}

/** A JSON value as the runtime's frontmatter value (scalars as strings, as the strict parser reads them). */
function toFrontmatterValue(value: unknown): FrontmatterValue | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value))
    return value.map(toFrontmatterValue).filter((v): v is FrontmatterValue => v !== undefined);
  if (typeof value === "object") {
    const out: Record<string, FrontmatterValue> = {};
    for (const [k, v] of Object.entries(value)) {
      const converted = toFrontmatterValue(v);
      if (converted !== undefined) out[k] = converted;
    }
    return out;
  }
  return undefined;
}
