/**
 * A skill as span attributes: `gen_ai.skill.name` and `gen_ai.skill.source.uri` as the GenAI conventions'
 * skill proposal names them (semantic-conventions-genai #498, "gen_ai.skill.*" on execute_tool spans), and
 * the origin skillrt knows it by. Names and places only: never a body, a file or a value of the skill's env.
 */
import { pathToFileURL } from "node:url";
import type { SkillRecord } from "./types.js";

/** Attributes of a span about `record` (or only its name when the catalog does not know it). */
export function skillSpanAttributes(
  name: string,
  record: Pick<SkillRecord, "dir" | "origin" | "scope"> | undefined,
): Record<string, string> {
  if (record === undefined) return { "gen_ai.skill.name": name };
  return {
    "gen_ai.skill.name": name,
    "gen_ai.skill.source.uri": skillSourceUri(record),
    "skillrt.skill.origin": `${record.origin.kind}:${record.origin.id}`,
    "skillrt.skill.scope": record.scope,
  };
}

/** Where the skill's files come from: a `file:` URL of its folder, the served URI, or `memory:<name>`. */
export function skillSourceUri(record: Pick<SkillRecord, "dir" | "origin">): string {
  return record.origin.kind === "fs" ? pathToFileURL(record.dir).href : record.dir;
}
