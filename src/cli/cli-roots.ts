import { defaultCacheDir } from "../catalog/cache-dir.js";
import { defaultRoots, normalizeRoots } from "../catalog/default-roots.js";
import type { CatalogOptions, SkillRoot } from "../catalog/types.js";
import { checkCacheDir, untrustedCacheWarning } from "../util/trusted-cache.js";
import { cliHome } from "./cli-home.js";
import type { CliIo } from "./command.js";

/** Shared `--root DIR` option (repeatable) for commands that read the catalog. */
export const rootOption = { root: { type: "string", multiple: true } } as const;

/**
 * The roots a command scans: the `--root` directories (relative to `io.cwd`, in the order given)
 * when any are given, else the default project, user (`HOME` from `io.env`) and `SKILLS_DIR` roots.
 */
export function cliRoots(rootFlags: readonly string[] | undefined, io: CliIo): SkillRoot[] {
  if (rootFlags !== undefined && rootFlags.length > 0) return normalizeRoots(rootFlags, io.cwd);
  return defaultRoots({ cwd: io.cwd, env: io.env, ...cliHome(io.env) });
}

/**
 * Catalog options for a CLI run: the {@link cliRoots} roots, resolved against `io`, and the user's
 * metadata cache (`defaultCacheDir`: `SKILLRT_CACHE_DIR`, `XDG_CACHE_HOME`, `~/.cache/skillrt`;
 * `SKILLRT_CACHE=0` switches it off), left out with one warning on stderr when another user could write
 * to it (see `util/trusted-cache.ts`).
 */
export function cliCatalogOptions(
  rootFlags: readonly string[] | undefined,
  io: CliIo,
): CatalogOptions & { roots: SkillRoot[] } {
  const { home } = cliHome(io.env);
  let cacheDir = defaultCacheDir(io.env, ...(home === undefined ? [] : [home]));
  const trust = cacheDir === undefined ? undefined : checkCacheDir(cacheDir);
  if (trust?.ok === false) {
    // Another user could write there: the cache is off (its readers refuse it too), said once.
    io.stderr.write(`skillrt: warning: ${untrustedCacheWarning(trust)}\n`);
    cacheDir = undefined;
  }
  return {
    roots: cliRoots(rootFlags, io),
    cwd: io.cwd,
    env: io.env,
    ...(cacheDir === undefined ? {} : { cacheDir }),
  };
}
