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
// The code caches live below the cache directory, in v8/<listing|default>/ (Node's compile cache) and
// bundle-<node version>/<command>/ below that (the bundle's, src/cli/load-bundle.ts), one folder per Node
// version and command. Both folders Node or the loader writes into are checked along their whole paths,
// which covers the folders above them (no folder on the way another user owns or can write, no symlink
// another user made; each created 0700 when missing). When one is refused, both caches are off; the
// commands that use the cache directory warn when it is the directory itself, and this warns, once, when
// it is a folder below it (a link planted there, say).
const cacheDir = defaultCacheDir(process.env);
const compileDir = cacheDir && path.join(cacheDir, "v8", listing ? "listing" : "default");
const commandDir =
  compileDir &&
  path.join(
    compileDir,
    `bundle-${process.version}-${process.arch}`,
    /^[a-z][a-z-]{0,31}$/.test(command ?? "") ? command : "other",
  );
const commandDirOk = (() => {
  if (commandDir === undefined) return false;
  for (const dir of [compileDir, commandDir]) {
    const trust = checkCacheDir(dir, { create: true });
    if (trust.ok) continue;
    if (checkCacheDir(cacheDir).ok)
      process.stderr.write(`skillrt: warning: ${untrustedCacheWarning(trust)}\n`);
    return false;
  }
  return true;
})();
if (process.env.NODE_COMPILE_CACHE) module.enableCompileCache?.();
else if (commandDirOk) module.enableCompileCache?.(compileDir);
const bundleCaches = commandDirOk ? commandDir : undefined;
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
