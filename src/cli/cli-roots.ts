import { defaultCacheDir } from "../catalog/cache-dir.js";
import { defaultRoots, normalizeRoots } from "../catalog/default-roots.js";
import type { CatalogOptions, SkillRoot } from "../catalog/types.js";
import { cliHome } from "./cli-home.js";
import type { CliIo } from "./command.js";

/** Shared `--root DIR` option (repeatable) for commands that read the catalog. */
export const rootOption = { root: { type: "string", multiple: true } } as const;

/**
 * The roots of a run, normalised once: the given folders (relative to `cwd`, in order) when any, else the
 * project (`skills/`, `.agents/skills/`, `.claude/skills/`), user (under `HOME`) and `SKILLS_DIR` roots.
 * Light on purpose: `skillrt run` and the listing commands import it without the agent's modules.
 */
export function environmentRoots(
  given: readonly string[] | undefined,
  cwd: string,
  env: Record<string, string | undefined>,
): SkillRoot[] {
  if (given !== undefined && given.length > 0) return normalizeRoots(given, cwd);
  return defaultRoots({ cwd, env, ...cliHome(env) });
}

/**
 * The roots a command scans: the `--root` directories (relative to `io.cwd`, in the order given)
 * when any are given, else the default project, user (`HOME` from `io.env`) and `SKILLS_DIR` roots.
 */
export function cliRoots(rootFlags: readonly string[] | undefined, io: CliIo): SkillRoot[] {
  return environmentRoots(rootFlags, io.cwd, io.env);
}

/**
 * Catalog options for a CLI run: the {@link cliRoots} roots, resolved against `io`, and the user's
 * metadata cache (`defaultCacheDir`: `SKILLRT_CACHE_DIR`, `XDG_CACHE_HOME`, `~/.cache/skillrt`;
 * `SKILLRT_CACHE=0` switches it off).
 */
export function cliCatalogOptions(
  rootFlags: readonly string[] | undefined,
  io: CliIo,
): CatalogOptions & { roots: SkillRoot[] } {
  const { home } = cliHome(io.env);
  const cacheDir = defaultCacheDir(io.env, ...(home === undefined ? [] : [home]));
  return {
    roots: cliRoots(rootFlags, io),
    cwd: io.cwd,
    env: io.env,
    ...(cacheDir === undefined ? {} : { cacheDir }),
  };
}
