import type { Diagnostic, ParsedSkill } from "../spec/types.js";
import { skillFlags } from "./skill-flags.js";
import type { DiscoveredSkill, SkillRecord } from "./types.js";

/**
 * The L1 record of a parsed disk skill: name and description, the optional spec fields, extras and the
 * flags read from them (`disable-model-invocation`, `user-invocable`, `active`), and the parser's
 * diagnostics (lenient repairs) kept on the record.
 */
export function toSkillRecord(
  found: DiscoveredSkill,
  parsed: ParsedSkill,
  diagnostics: Diagnostic[],
): SkillRecord {
  const record: SkillRecord = {
    name: parsed.name,
    description: parsed.description,
    location: found.skillFile,
    dir: found.dir,
    scope: found.scope,
    source: found.root,
    extras: parsed.extras,
    ...skillFlags(parsed.extras),
    diagnostics,
  };
  if (parsed.license !== undefined) record.license = parsed.license;
  if (parsed.compatibility !== undefined) record.compatibility = parsed.compatibility;
  if (parsed.allowedTools !== undefined) record.allowedTools = parsed.allowedTools;
  if (parsed.metadata !== undefined) record.metadata = parsed.metadata;
  return record;
}
