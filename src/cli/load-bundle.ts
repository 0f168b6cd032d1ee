/**
 * Loads the bundled CLI (`dist/bundle/*.cjs`, see `scripts/build-bundle.mjs`) with V8 code caches made
 * after the command ran. Node's compile cache stores a module's code as compiled when it is loaded: its
 * top level, not the functions compiled on their first call, so every start compiled again the several
 * hundred functions that `skillrt ask` runs before its first model request. Here each bundle file is
 * compiled through `vm.Script` with the cache a previous run left, and when it had none (or V8 refused
 * it) the cache is written at exit, from the script as it ran: with every function the command compiled.
 *
 * Caches are code this process runs, so they live only in a folder that passes the cache rule
 * (`util/trusted-cache.ts`: the whole path owned by the user or root, writable by nobody else), one folder
 * per command (each runs different functions) and Node version. V8 checks only that a cache was made for
 * a source of the same length: given a cache made from another script of that length, it runs the other
 * script's code. So a cache is used only for the exact source it was made from ({@link verifiedCode}):
 * each cache file starts with a copy of its source (sources up to {@link COPY_LIMIT}: comparing bytes costs
 * microseconds, where loading node:crypto to hash them costs ~2.5 ms of a start that never loads it, such
 * as `skillrt --version` or `skillrt run`), or with the source's SHA-256 (larger sources; the commands that
 * load them load node:crypto anyway), checked against the file read now before V8 sees the cache. That
 * keeps out code cached from anything else (raw V8 data dropped in, a cache of another build); it cannot
 * keep out someone who may write the folder (they can write a matching header too): the folder rule does.
 * A cache is also named after its file's content, so an upgrade leaves the old ones to be removed: a
 * chunk's name already carries the bundler's hash of its content (`agent-<hash>.cjs`), so it names its
 * cache as it is; a file without one (`main.cjs`, a few KB) is hashed here. Caches of files changed or
 * gone are removed when new ones are written.
 */
import { nameHash } from "../catalog/name-hash.js";
import { checkCacheDir, readCheckedCacheFile, writeCacheFile } from "../util/trusted-cache.js";

// Built-ins as bin/skillrt.js takes them (every start loads this file): no import facade.
const { existsSync, readdirSync, readFileSync, unlinkSync } = process.getBuiltinModule("node:fs");
const Module = process.getBuiltinModule("node:module");
const { createRequire } = Module;
const path = process.getBuiltinModule("node:path");
const vm = process.getBuiltinModule("node:vm");

/** Largest cache file read (the agent's chunk makes about 1 MB). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** Largest source whose cache starts with a copy of it; a larger one's starts with its SHA-256. */
export const COPY_LIMIT = 512 * 1024;

/**
 * What the cache of `source` starts with: a line naming how it is bound to its source (`copy <bytes>` or
 * `sha256 <hex>`), then the copy when there is one.
 */
function cacheHeader(source: Buffer): Buffer[] {
  if (source.length <= COPY_LIMIT) return [Buffer.from(`skillrt-v8 copy ${source.length}\n`), source];
  const digest = process.getBuiltinModule("node:crypto").hash("sha256", source, "hex");
  return [Buffer.from(`skillrt-v8 sha256 ${digest}\n`)];
}

/**
 * The V8 code cache in cache file `cache` when it was made from exactly `source` (the bytes compiled now),
 * else undefined: V8 itself would take a cache made from any source of the same length.
 */
export function verifiedCode(cache: Buffer, source: Buffer): Buffer | undefined {
  let at = 0;
  for (const part of cacheHeader(source)) {
    if (cache.length < at + part.length || !cache.subarray(at, at + part.length).equals(part))
      return undefined;
    at += part.length;
  }
  return at < cache.length ? cache.subarray(at) : undefined;
}

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
export function loadBundle(entry: string, given: string | undefined): unknown {
  // Checked once here (along its whole path), not once per file: the path cannot change under us after.
  const cacheDir = given !== undefined && checkCacheDir(given).ok ? given : undefined;
  const bundleDir = path.dirname(entry) + path.sep;
  const toWrite: Array<{ script: import("node:vm").Script; name: string; bytes: Buffer }> = [];
  const loaded = new Set<string>();
  const fallback = extensions[".cjs"] ?? extensions[".js"];
  extensions[".cjs"] = (module, filename) => {
    if (!filename.startsWith(bundleDir) || fallback === undefined) {
      fallback?.(module, filename);
      return;
    }
    const bytes = readFileSync(filename);
    const source = bytes.toString("utf8");
    const base = path.basename(filename);
    const name = `${base}.${HASHED_NAME.test(base) ? "named" : nameHash(source)}.v8`;
    loaded.add(name);
    const cacheFile =
      cacheDir === undefined ? undefined : readCheckedCacheFile(cacheDir, name, MAX_CACHE_BYTES);
    const cachedData = cacheFile === undefined ? undefined : verifiedCode(cacheFile, bytes);
    const script = new vm.Script(Module.wrap(source), {
      filename,
      ...(cachedData === undefined ? {} : { cachedData }),
    });
    if (cacheDir !== undefined && (cachedData === undefined || script.cachedDataRejected === true))
      toWrite.push({ script, name, bytes });
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
        for (const { script, name, bytes } of toWrite.splice(0))
          writeCacheFile(cacheDir, name, [...cacheHeader(bytes), script.createCachedData()]);
        removeStale(cacheDir, bundleDir, loaded);
      } catch {
        // a cache only ever saves time
      }
    });
  }
  return createRequire(entry)(entry);
}
