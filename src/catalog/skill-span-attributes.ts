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
  record: Partial<Pick<SkillRecord, "dir" | "origin" | "scope">> | undefined,
): Record<string, string> {
  const out: Record<string, string> = { "gen_ai.skill.name": name };
  if (record?.dir !== undefined)
    out["gen_ai.skill.source.uri"] =
      record.origin?.kind === "fs" ? pathToFileURL(record.dir).href : record.dir;
  if (record?.origin !== undefined) out["skillrt.skill.origin"] = `${record.origin.kind}:${record.origin.id}`;
  if (record?.scope !== undefined) out["skillrt.skill.scope"] = record.scope;
  return out;
}
