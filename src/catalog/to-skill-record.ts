import type { Diagnostic, ParsedSkill } from "../spec/types.js";
import type { BodyOpening } from "./body-opening.js";
import { skillFlags } from "./skill-flags.js";
import { fsOrigin } from "./skill-origin.js";
import type { DiscoveredSkill, SkillRecord } from "./types.js";

/**
 * What a record takes from the parsed SKILL.md and the start of its body (what the metadata cache keeps
 * of it).
 */
export type RecordFields = Pick<
  ParsedSkill,
  | "name"
  | "description"
  | "extras"
  | "license"
  | "compatibility"
  | "allowedTools"
  | "metadata"
  | "metadataTree"
> &
  Partial<BodyOpening>;

/**
 * The L1 record of a parsed disk skill: name and description, the optional spec fields, extras and the
 * flags read from them (`disable-model-invocation`, `user-invocable`, `active`), and the parser's
 * diagnostics (lenient repairs) kept on the record.
 */
export function toSkillRecord(
  found: Pick<DiscoveredSkill, "skillFile" | "dir" | "scope" | "root">,
  parsed: RecordFields,
  diagnostics: Diagnostic[],
): SkillRecord {
  const record: SkillRecord = {
    name: parsed.name,
    description: parsed.description,
    location: found.skillFile,
    dir: found.dir,
    scope: found.scope,
    source: found.root,
    origin: fsOrigin(found.root, found.scope),
    extras: parsed.extras,
    ...skillFlags(parsed.extras),
    diagnostics,
  };
  if (found.dir === found.skillFile) record.singleFile = true;
  if (parsed.license !== undefined) record.license = parsed.license;
  if (parsed.compatibility !== undefined) record.compatibility = parsed.compatibility;
  if (parsed.allowedTools !== undefined) record.allowedTools = parsed.allowedTools;
  if (parsed.metadata !== undefined) record.metadata = parsed.metadata;
  if (parsed.metadataTree !== undefined) record.metadataTree = parsed.metadataTree;
  if (parsed.opening) record.opening = parsed.opening;
  if (parsed.headings) record.headings = parsed.headings;
  return record;
}
