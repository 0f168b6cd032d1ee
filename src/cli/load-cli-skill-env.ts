/** The per-skill run environment (secrets) of a CLI run, read from the run's own cwd and `HOME`. */
import { loadSkillEnvConfig } from "../exec/load-skill-env-config.js";
import { cliHome } from "./cli-home.js";

/** Where a CLI run reads its configuration and how it reports warnings. */
export interface CliSkillEnvOptions {
  /** Directory holding `skillrt.config.json`. */
  cwd: string;
  /** The run's environment: `HOME` locates `~/.skillrt/config.json`; `${env:…}` values come from here. */
  env: Record<string, string | undefined>;
  /** Receives each warning (e.g. a `${env:X}` whose variable is unset). */
  warn: (message: string) => void;
}

/**
 * Skill name → variable → value from `skillrt.config.json` in `cwd` and `~/.skillrt/config.json`. An unset
 * or empty `HOME` means `os.homedir()`, as for the default skill roots (never a path relative to the
 * process). Throws `SkillrtError` (`config-invalid`) naming the file and field when a file is invalid.
 */
export async function loadCliSkillEnv(
  options: CliSkillEnvOptions,
): Promise<Record<string, Record<string, string>>> {
  const config = await loadSkillEnvConfig({ cwd: options.cwd, env: options.env, ...cliHome(options.env) });
  for (const warning of config.warnings) options.warn(warning);
  return config.skills;
}
