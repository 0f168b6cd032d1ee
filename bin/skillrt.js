#!/usr/bin/env node
import { defaultCacheDir } from "../dist/catalog/cache-dir.js";
import { loadBundle } from "../dist/cli/load-bundle.js";
import { checkCacheDir, untrustedCacheWarning } from "../dist/util/trusted-cache.js";

// Node's built-ins are taken with `process.getBuiltinModule` here and in the modules every start loads
// (dist/catalog/cache-dir.js, dist/cli/load-bundle.js, dist/util/trusted-cache.js), not imported: an ES
// module's import of a built-in makes a facade that reads each of its exports, and reading node:fs's loads
// its stream classes and Node's stream modules, ~5 ms of each start (`skillrt --version`: 75 → 69 ms).
const { existsSync } = process.getBuiltinModule("node:fs");
const module = process.getBuiltinModule("node:module");
const path = process.getBuiltinModule("node:path");
const { fileURLToPath } = process.getBuiltinModule("node:url");

const LISTING_COMMANDS = new Set(["list", "search", "validate", "prompt"]);
const command = process.argv.slice(2).find((arg) => !arg.startsWith("-"));
const listing = LISTING_COMMANDS.has(command);

// Reuse V8's compiled code between runs (Node >= 22.1; a no-op elsewhere): module compilation is a large
// share of short commands such as `skillrt list`. The code cache is code this process runs, so it lives in
// skillrt's own cache directory under the cache rule (owned by the user, writable by nobody else; else no
// compile cache), never in Node's default folder under the shared tmp directory. The listing commands set a
// V8 flag (below) that makes V8 reject code cached without it, so they keep their own folder instead of
// each refreshing the other's. NODE_COMPILE_CACHE (a folder of the user's choosing) and
// NODE_DISABLE_COMPILE_CACHE=1 are honoured; SKILLRT_CACHE=0 leaves it off with the other caches.
// The cache directory, its v8/ folder and the command's folder must each pass, each along its whole path
// (no folder on the way another user owns or can write, no symlink another user made): checked top down,
// each created 0700 when missing. A refused cache directory is warned about by the commands that use it;
// a refused folder below it (a link planted there, say) is warned about here, once.
const cacheDir = defaultCacheDir(process.env);
const chain = cacheDir
  ? [cacheDir, path.join(cacheDir, "v8"), path.join(cacheDir, "v8", listing ? "listing" : "default")]
  : [];
/** Whether each of `dirs` passes (created when missing); warns about the first below the cache dir that does not. */
function usable(dirs) {
  for (const dir of dirs) {
    const trust = checkCacheDir(dir, { create: true });
    if (trust.ok) continue;
    if (dir !== cacheDir) process.stderr.write(`skillrt: warning: ${untrustedCacheWarning(trust)}\n`);
    return false;
  }
  return dirs.length > 0;
}
const cacheChainOk = usable(chain);
if (process.env.NODE_COMPILE_CACHE) module.enableCompileCache?.();
else if (cacheChainOk) module.enableCompileCache?.(chain[2]);
// The bundle's own code caches (made after a run, with the functions it compiled: src/cli/load-bundle.ts),
// one folder per Node version and command, below the same checked folders; none when the caches are off.
const bundleCaches = (() => {
  if (!cacheChainOk) return undefined;
  const versionDir = path.join(chain[2], `bundle-${process.version}-${process.arch}`);
  const commandDir = path.join(versionDir, /^[a-z][a-z-]{0,31}$/.test(command ?? "") ? command : "other");
  return usable([versionDir, commandDir]) ? commandDir : undefined;
})();
// The listing commands keep V8's young generation at its first size instead of letting it grow to tens of
// MB: a command that reads thousands of skills once and exits then reuses the pages it already has, and on
// VMs where each fresh page costs microseconds to fault in, `skillrt list` over 10,000 skills runs ~10%
// faster cold and ~20% faster warm (bench/list.mjs). Long-running and agent commands (chat, mcp, ask,
// inspect, …) keep V8's defaults. Flags the user passes about the young generation win.
const v8Options = `${process.env.NODE_OPTIONS ?? ""} ${process.execArgv.join(" ")}`;
if (listing && !v8Options.includes("semi-space")) {
  process.getBuiltinModule?.("node:v8").setFlagsFromString("--semi-space-growth-factor=1");
}
// The bundled CLI (npm run build makes it; see scripts/build-bundle.mjs) starts faster than the ~60 modules of
// dist/cli/; fall back to those when the bundle was not built.
const bundleMain = fileURLToPath(new URL("../dist/bundle/main.cjs", import.meta.url));
const { main } = existsSync(bundleMain)
  ? loadBundle(bundleMain, bundleCaches)
  : await import("../dist/cli/main.js");
// Written now, not only at exit: a long-running command (chat, mcp, inspect) ended by a signal keeps it.
module.flushCompileCache?.();

// A reader that stops early (`skillrt list --json | head`) closes the pipe: end quietly, as `yes | head` does.
// The handler is attached when a command first uses stdout: creating `process.stdout` (a socket or a
// stream) costs milliseconds that a command printing nothing, such as `skillrt run NAME -- true`, need not pay.
let stdout;
const io = {
  get stdout() {
    if (stdout === undefined) {
      stdout = process.stdout;
      stdout.on("error", (error) => {
        if (error.code === "EPIPE") process.exit(0);
        throw error;
      });
    }
    return stdout;
  },
};

main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(
      `skillrt: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 70;
  },
);
