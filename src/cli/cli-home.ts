/** The user's home directory as a CLI run sees it. */

/**
 * `{ home }` from the run's `HOME`, or `{}` when `HOME` is unset or empty, so the callee falls back to
 * `os.homedir()` (an empty `HOME` must not become a path relative to the process's cwd). Spread it into
 * the options of `defaultRoots` or `loadSkillEnvConfig`.
 */
export function cliHome(env: Record<string, string | undefined>): { home?: string } {
  const home = env["HOME"];
  return home === undefined || home === "" ? {} : { home };
}
