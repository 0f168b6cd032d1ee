/**
 * What an ineligible skill lacks, for the model's catalog entry: names only (`env FOO_TOKEN, bin foo`),
 * evaluated once per record and session (the catalog's records are shared objects, replaced on a re-scan).
 */
import {
  describeMissingRequirements,
  evaluateSkillRequirements,
  type SkillRequirements,
} from "../catalog/skill-requirements.js";
import type { SkillRecord } from "../catalog/types.js";
import type { SkillSessionOptions } from "./session-options.js";

/** Where a session checks requirements: its options' `skillEnv` and `requirementsEnv`. */
export type RequirementsHost = Pick<SkillSessionOptions, "skillEnv" | "requirementsEnv">;

/**
 * `record`'s requirements checked against the host (see `SkillSessionOptions.requirementsEnv`); undefined
 * when it declares none or the host is not checked. A variable set in `skillEnv[record.name]` counts as set.
 */
export function skillRequirementsOn(
  host: RequirementsHost,
  record: SkillRecord,
): SkillRequirements | undefined {
  if (host.requirementsEnv === false) return undefined;
  const skillEnv = host.skillEnv?.[record.name];
  const env = host.requirementsEnv;
  return evaluateSkillRequirements(record, {
    ...(skillEnv === undefined ? {} : { skillEnv }),
    ...(env === undefined ? {} : { env, ...(env["HOME"] === undefined ? {} : { home: env["HOME"] }) }),
  });
}

/** A function giving `record`'s unmet requirements as text, or undefined when it declares none or all are met. */
export function unmetRequirements(host: RequirementsHost): (record: SkillRecord) => string | undefined {
  const memo = new WeakMap<SkillRecord, string | undefined>();
  return (record) => {
    if (memo.has(record)) return memo.get(record);
    const result = skillRequirementsOn(host, record);
    const note =
      result === undefined || result.eligible ? undefined : describeMissingRequirements(result.missing);
    memo.set(record, note);
    return note;
  };
}
