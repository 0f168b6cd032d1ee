/**
 * What an ineligible skill lacks, for the model's catalog entry: names only (`env FOO_TOKEN, bin foo`),
 * evaluated once per record and session (the catalog's records are shared objects, replaced on a re-scan).
 */
import { describeMissingRequirements, evaluateSkillRequirements } from "../catalog/skill-requirements.js";
import type { SkillRecord } from "../catalog/types.js";

/**
 * A function giving `record`'s unmet requirements as text, or undefined when it declares none or all
 * are met; a variable set in `skillEnv[record.name]` counts as set.
 */
export function unmetRequirements(
  skillEnv: Record<string, Record<string, string>> | undefined,
): (record: SkillRecord) => string | undefined {
  const memo = new WeakMap<SkillRecord, string | undefined>();
  return (record) => {
    if (memo.has(record)) return memo.get(record);
    const env = skillEnv?.[record.name];
    const result = evaluateSkillRequirements(record, env === undefined ? {} : { skillEnv: env });
    const note =
      result === undefined || result.eligible ? undefined : describeMissingRequirements(result.missing);
    memo.set(record, note);
    return note;
  };
}
