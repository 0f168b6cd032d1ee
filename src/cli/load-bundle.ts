/**
 * Loads the bundled CLI (`dist/bundle/*.cjs`, see `scripts/build-bundle.mjs`) with V8 code caches made
 * after the command ran. Node's compile cache stores a module's code as compiled when it is loaded: its
 * top level, not the functions compiled on their first call, so every start compiled again the several
 * hundred functions that `skillrt ask` runs before its first model request. Here each bundle file is
 * compiled through `vm.Script` with the cache a previous run left, and when it had none (or V8 refused
 * it) the cache is written at exit, from the script as it ran: with every function the command compiled.
 *
 * Caches are code this process runs, so they live only in a folder that passes the cache rule
 * (`util/trusted-cache.ts`: owned by the user, writable by nobody else), one folder per command (each
 * runs different functions) and Node version. A cache is named after its file's content: V8 checks only
 * the source's length, so a changed file of the same length (an upgrade installed over the old one) would
 * otherwise run the old code. A chunk's name already carries the bundler's hash of its content
 * (`agent-<hash>.cjs`), so it names its cache as it is; a file without one (`main.cjs`, a few KB) is
 * hashed here. Hashing every file instead took 8-10 ms of each start. Caches of files changed or gone
 * are removed when new ones are written.
 */
import { nameHash } from "../catalog/name-hash.js";
import { readCacheFile, writeCacheFile } from "../util/trusted-cache.js";

// Built-ins as bin/skillrt.js takes them (every start loads this file): no import facade.
const { existsSync, readdirSync, readFileSync, unlinkSync } = process.getBuiltinModule("node:fs");
const Module = process.getBuiltinModule("node:module");
const { createRequire } = Module;
const path = process.getBuiltinModule("node:path");
const vm = process.getBuiltinModule("node:vm");

/** Largest cache file read (the agent's chunk makes about 1 MB). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

type Extension = (module: NodeJS.Module, filename: string) => void;

/** A chunk name with the bundler's content hash (rolldown's `[name]-[hash].cjs`, 8 characters). */
const HASHED_NAME = /-[A-Za-z0-9_-]{8}\.cjs$/;

/** Removes the caches in `cacheDir` of bundle files that changed (`kept` names the current ones) or are gone. */
function removeStale(cacheDir: string, bundleDir: string, kept: ReadonlySet<string>): void {
  for (const name of readdirSync(cacheDir)) {
    const file = /^(.+)\.[0-9a-z]+\.v8$/.exec(name)?.[1];
    if (file === undefined || kept.has(name)) continue;
    if (!existsSync(path.join(bundleDir, file)) || [...kept].some((k) => k.startsWith(`${file}.`)))
      unlinkSync(path.join(cacheDir, name));
  }
}
const extensions = (Module as unknown as { _extensions: Record<string, Extension> })._extensions;

/**
 * Requires `entry` (an absolute `.cjs` path in the bundle folder) with the bundle's files compiled through
 * code caches in `cacheDir` (undefined: no caches, each file compiled as Node would).
 */
export function loadBundle(entry: string, cacheDir: string | undefined): unknown {
  const bundleDir = path.dirname(entry) + path.sep;
  const toWrite: Array<{ script: import("node:vm").Script; name: string }> = [];
  const loaded = new Set<string>();
  const fallback = extensions[".cjs"] ?? extensions[".js"];
  extensions[".cjs"] = (module, filename) => {
    if (!filename.startsWith(bundleDir) || fallback === undefined) {
      fallback?.(module, filename);
      return;
    }
    const source = readFileSync(filename, "utf8");
    const base = path.basename(filename);
    const name = `${base}.${HASHED_NAME.test(base) ? "named" : nameHash(source)}.v8`;
    loaded.add(name);
    const cachedData = cacheDir === undefined ? undefined : readCacheFile(cacheDir, name, MAX_CACHE_BYTES);
    const script = new vm.Script(Module.wrap(source), {
      filename,
      ...(cachedData === undefined ? {} : { cachedData }),
    });
    if (cacheDir !== undefined && (cachedData === undefined || script.cachedDataRejected === true))
      toWrite.push({ script, name });
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    wrapper.call(
      module.exports,
      module.exports,
      createRequire(filename),
      module,
      filename,
      path.dirname(filename),
    );
  };
  if (cacheDir !== undefined) {
    process.on("exit", () => {
      if (toWrite.length === 0) return;
      try {
        for (const { script, name } of toWrite.splice(0))
          writeCacheFile(cacheDir, name, [script.createCachedData()]);
        removeStale(cacheDir, bundleDir, loaded);
      } catch {
        // a cache only ever saves time
      }
    });
  }
  return createRequire(entry)(entry);
}
