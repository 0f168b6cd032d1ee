/** The `skills-lock.json` check of `list`, `validate` and the agent commands: drift as diagnostics. */
import { existsSync } from "node:fs";
import path from "node:path";
import type { SkillRecord } from "../catalog/types.js";
import type { Diagnostic, Severity } from "../spec/types.js";

/**
 * One `lock-drift` diagnostic per skill of `<cwd>/skills-lock.json` whose folder no longer hashes to the
 * recorded value (or, with `missing`, that is not among `records`), at `severity`; one for a lock that
 * cannot be read. `[]` without a lock.
 */
export async function skillsLockDiagnostics(
  cwd: string,
  records: readonly Pick<SkillRecord, "name" | "dir">[],
  severity: Severity,
  missing = true,
): Promise<Diagnostic[]> {
  // Most projects have no lock: the reader (and zod, which it validates with) loads only for one.
  if (!existsSync(path.join(cwd, "skills-lock.json"))) return [];
  const { describeDrift, findSkillDrift, readSkillsLock, SKILLS_LOCK_FILE } = await import(
    "../catalog/skills-lock.js"
  );
  const read = await readSkillsLock(cwd);
  if (read === undefined) return [];
  if ("error" in read)
    return [{ code: "lock-drift", severity, message: `${read.file}: ${read.error}.`, path: read.file }];
  const drift = await findSkillDrift(read.lock, records);
  return drift
    .filter((d) => missing || d.actual !== undefined || d.dir !== undefined)
    .map((d) => ({
      code: "lock-drift" as const,
      severity,
      message: `${describeDrift(d)}.`,
      path: d.dir === undefined ? path.join(cwd, SKILLS_LOCK_FILE) : path.join(d.dir, "SKILL.md"),
    }));
}
