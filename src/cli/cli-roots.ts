import { existsSync } from "node:fs";
import path from "node:path";
import { defaultCacheDir } from "../catalog/cache-dir.js";
import { defaultRoots, normalizeRoots } from "../catalog/default-roots.js";
import { redactUrl } from "../catalog/remote/redact-url.js";
import type { RemoteOrigin } from "../catalog/remote/resolve-roots.js";
import { isRemoteRootSpec } from "../catalog/remote/root-spec.js";
import type { CatalogOptions, SkillRoot } from "../catalog/types.js";
import type { Diagnostic } from "../spec/types.js";
import { checkCacheDir, untrustedCacheWarning } from "../util/trusted-cache.js";
import { cliHome } from "./cli-home.js";
import type { CliIo } from "./command.js";

/**
 * Shared options of commands that read the catalog: `--root DIR|URL` (repeatable) and `--refresh`
 * (fetch remote roots again instead of using their cached copies).
 */
export const rootOption = { root: { type: "string", multiple: true }, refresh: { type: "boolean" } } as const;

/** The roots of a CLI run, with where the remote ones came from and why some could not be had. */
export interface CliRoots {
  roots: SkillRoot[];
  /** Real path of each remote root's cached folder → its origin (the URL shown as the skills' source). */
  origins: Map<string, RemoteOrigin>;
  /** One error per remote or archive root that could not be had; `path` is the spec as written. */
  diagnostics: Diagnostic[];
}

/**
 * The roots a command scans: the `--root` values (folders relative to `io.cwd`, archives, `http(s)://`
 * and `git+…` URLs, in the order given) when any are given; else the default project, user (`HOME` from
 * `io.env`) and `SKILLS_DIR` roots, then the config files' `roots`. Remote and archive roots are fetched
 * into the cache (`refresh`: again, even when cached); the remote module loads only when one is named.
 * `fileRoots`: the config files' `roots` when the caller has read them already (else read here, only when
 * a config file exists).
 */
export async function resolveCliRoots(
  rootFlags: readonly string[] | undefined,
  io: Pick<CliIo, "cwd" | "env">,
  refresh = false,
  fileRoots?: readonly string[],
  /** The remote roots' pins; default: `<cwd>/skillrt.lock.json`'s (`skillrt lock`); `null`: none. */
  pins?: ReadonlyMap<string, string> | null,
): Promise<CliRoots> {
  const { home } = cliHome(io.env);
  let specs: ReadonlyArray<string | SkillRoot>;
  if (rootFlags !== undefined && rootFlags.length > 0) specs = rootFlags;
  else
    specs = [
      ...defaultRoots({ cwd: io.cwd, env: io.env, ...cliHome(io.env) }),
      ...(fileRoots ?? (await configRoots(io, home))),
    ];
  const remote = specs.some((spec) => typeof spec === "string" && isRemoteRootSpec(spec));
  if (!remote) return { roots: normalizeRoots(specs, io.cwd), origins: new Map(), diagnostics: [] };
  const { resolveRoots } = await import("../catalog/remote/resolve-roots.js");
  // Remote roots need a place even with the metadata cache switched off (SKILLRT_CACHE=0).
  const cacheDir = defaultCacheDir(
    { ...io.env, SKILLRT_CACHE: undefined },
    ...(home === undefined ? [] : [home]),
  );
  if (cacheDir === undefined) {
    const diagnostics = specs
      .filter((spec): spec is string => typeof spec === "string" && isRemoteRootSpec(spec))
      .map((spec) => ({
        code: "root-fetch-failed" as const,
        severity: "error" as const,
        message: redactUrl(`Cannot use root '${spec}': no cache directory (set SKILLRT_CACHE_DIR or HOME).`),
        path: redactUrl(spec),
      }));
    const local = specs.filter((spec) => typeof spec !== "string" || !isRemoteRootSpec(spec));
    return { roots: normalizeRoots(local, io.cwd), origins: new Map(), diagnostics };
  }
  const lockDiagnostics: Diagnostic[] = [];
  let pinned = pins ?? undefined;
  if (pins === undefined) {
    const { readRootsLock } = await import("../catalog/remote/roots-lock.js");
    const lock = await readRootsLock(io.cwd);
    if (lock instanceof Map) pinned = lock;
    else if (lock !== undefined)
      lockDiagnostics.push({
        code: "root-fetch-failed",
        severity: "warning",
        message: lock.error,
        path: io.cwd,
      });
  }
  const resolved = await resolveRoots(specs, {
    cacheDir,
    cwd: io.cwd,
    env: io.env,
    refresh,
    ...(pinned === undefined ? {} : { pins: pinned }),
  });
  return { ...resolved, diagnostics: [...lockDiagnostics, ...resolved.diagnostics] };
}

/** The roots of {@link resolveCliRoots}; why a remote one could not be had is written on stderr. */
export async function cliRoots(
  rootFlags: readonly string[] | undefined,
  io: CliIo,
  refresh = false,
): Promise<SkillRoot[]> {
  const resolved = await resolveCliRoots(rootFlags, io, refresh);
  for (const d of resolved.diagnostics) io.stderr.write(`skillrt: ${d.severity}: ${d.message}\n`);
  return resolved.roots;
}

/**
 * Catalog options for a CLI run: the {@link resolveCliRoots} roots, resolved against `io`, and the user's
 * metadata cache (`defaultCacheDir`: `SKILLRT_CACHE_DIR`, `XDG_CACHE_HOME`, `~/.cache/skillrt`;
 * `SKILLRT_CACHE=0` switches it off), with the remote roots' origins and diagnostics.
 */
export async function cliCatalogOptions(
  rootFlags: readonly string[] | undefined,
  io: CliIo,
  refresh = false,
): Promise<CatalogOptions & CliRoots> {
  const { home } = cliHome(io.env);
  let cacheDir = defaultCacheDir(io.env, ...(home === undefined ? [] : [home]));
  const trust = cacheDir === undefined ? undefined : checkCacheDir(cacheDir);
  if (trust?.ok === false) {
    // Another user could write there: the cache is off (its readers refuse it too), said once.
    io.stderr.write(`skillrt: warning: ${untrustedCacheWarning(trust)}\n`);
    cacheDir = undefined;
  }
  const resolved = await resolveCliRoots(rootFlags, io, refresh);
  return { ...resolved, cwd: io.cwd, env: io.env, ...(cacheDir === undefined ? {} : { cacheDir }) };
}

/** The `roots` of the config files, read only when one of the files exists. */
async function configRoots(io: Pick<CliIo, "cwd" | "env">, home: string | undefined): Promise<string[]> {
  const project = path.join(io.cwd, "skillrt.config.json");
  const user = home === undefined ? undefined : path.join(home, ".skillrt", "config.json");
  if (!existsSync(project) && (user === undefined || !existsSync(user))) return [];
  const { loadSkillrtConfig } = await import("../config/load-skillrt-config.js");
  return (await loadSkillrtConfig({ cwd: io.cwd, home: home ?? null })).roots ?? [];
}
