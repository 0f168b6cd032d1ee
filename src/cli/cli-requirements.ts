/**
 * Requirement checks for `skillrt list` and `skillrt validate`: the host environment of the command plus
 * each skill's env from config. The config files are read once, and only when a skill declares something.
 */
import {
  checkSkillRequirements,
  type SkillRequirementDeclarations,
  type SkillRequirements,
} from "../catalog/skill-requirements.js";
import type { CliIo } from "./command.js";
import { loadCliConfig } from "./load-cli-config.js";

/** Checks one skill's declarations; `undefined` declarations give `undefined`. */
export type CheckRequirements = (
  name: string,
  decl: SkillRequirementDeclarations | undefined,
) => Promise<SkillRequirements | undefined>;

/** A checker bound to the command's cwd and environment. An invalid config file counts as no per-skill env. */
export function cliRequirementsChecker(io: Pick<CliIo, "cwd" | "env">): CheckRequirements {
  let skillEnv: Promise<Record<string, Record<string, string>>> | undefined;
  return async (name, decl) => {
    if (decl === undefined) return undefined;
    skillEnv ??= loadCliConfig({ cwd: io.cwd, env: io.env, warn: () => {} }).then(
      (config) => config.skillEnv,
      () => ({}),
    );
    const own = (await skillEnv)[name];
    return checkSkillRequirements(decl, { env: io.env, ...(own === undefined ? {} : { skillEnv: own }) });
  };
}
