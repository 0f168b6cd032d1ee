#!/usr/bin/env node
import { existsSync } from "node:fs";
import module from "node:module";

// The CLI's bundle (scripts/build-library.mjs): its entry and the chunks a command needs instead of the
// ~60 modules of dist/cli/ and the packages' files, which stay the fallback when only tsc ran.
const bundled = new URL("../dist/bundle/main.js", import.meta.url);
const compiled = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(bundled) && !existsSync(compiled)) {
  // A checkout whose dist/ is missing (a first build interrupted, or `npx skillrt`, whose link step leaves
  // the build to this first start: scripts/build.mjs): build it now, to a folder of its own that replaces
  // dist/ only when complete, so Ctrl-C here leaves the checkout as it was. A package has no scripts/.
  const build = new URL("../scripts/build.mjs", import.meta.url);
  if (existsSync(build)) {
    process.stderr.write(
      "skillrt: dist/ is missing; building it once (tsc and the bundle, under a minute)…\n",
    );
    const { spawnSync } = await import("node:child_process");
    const { fileURLToPath } = await import("node:url");
    // Without npm's npm_command: under npx the build script leaves the build to this start.
    const env = { ...process.env };
    delete env.npm_command;
    const result = spawnSync(process.execPath, [fileURLToPath(build)], { env, stdio: ["ignore", 2, 2] });
    if (result.signal) process.kill(process.pid, result.signal);
  }
  if (!existsSync(bundled) && !existsSync(compiled)) {
    process.stderr.write(
      "skillrt: this checkout is not built (dist/ is missing): run `npm run build` in it, then try again\n",
    );
    process.exit(1);
  }
}
const { defaultCacheDir } = await import("../dist/catalog/cache-dir.js");
const { checkCacheDir, untrustedCacheWarning } = await import("../dist/util/trusted-cache.js");

const LISTING_COMMANDS = new Set(["list", "search", "validate", "prompt"]);
const command = process.argv.slice(2).find((arg) => !arg.startsWith("-"));
const listing = LISTING_COMMANDS.has(command);

// Node's module compile cache keeps V8's compiled code of every module between runs (Node >= 22.1):
// module compilation is a large share of short commands such as `skillrt list`. The cache is code this
// process runs, so it lives in skillrt's own cache directory under the cache rule (src/util/trusted-cache.ts:
// the whole path owned by the user, writable by nobody else; else no compile cache), never in Node's
// default folder under the shared tmp directory. Node checks each entry against a checksum of the source
// it compiles now (an entry made for another file is dropped); the folder rule keeps out anyone who could
// forge one. The listing commands set a V8
// flag (below) that makes V8 reject code cached without it, so they keep their own folder (v8/listing/,
// the rest v8/default/) instead of each refreshing the other's. NODE_COMPILE_CACHE (a folder of the user's
// choosing) and NODE_DISABLE_COMPILE_CACHE=1 are honoured; SKILLRT_CACHE=0 leaves it off with the other
// caches. When the folder is refused, the commands that use the cache directory warn when it is the
// directory itself, and this warns, once, when it is the folder below it (a link planted there, say).
const cacheDir = defaultCacheDir(process.env);
if (process.env.NODE_COMPILE_CACHE) module.enableCompileCache?.();
else if (cacheDir !== undefined) {
  const compileDir = `${cacheDir}/v8/${listing ? "listing" : "default"}`;
  const trust = checkCacheDir(compileDir, { create: true });
  if (trust.ok) module.enableCompileCache?.(compileDir);
  else if (checkCacheDir(cacheDir).ok)
    process.stderr.write(`skillrt: warning: ${untrustedCacheWarning(trust)}\n`);
}
// The listing commands keep V8's young generation at its first size instead of letting it grow to tens of
// MB: a command that reads thousands of skills once and exits then reuses the pages it already has, and on
// VMs where each fresh page costs microseconds to fault in, `skillrt list` over 10,000 skills runs ~10%
// faster cold and ~20% faster warm (bench/list.mjs). Long-running and agent commands (chat, mcp, ask,
// inspect, …) keep V8's defaults. Flags the user passes about the young generation win.
const v8Options = `${process.env.NODE_OPTIONS ?? ""} ${process.execArgv.join(" ")}`;
if (listing && !v8Options.includes("semi-space")) {
  process.getBuiltinModule("node:v8").setFlagsFromString("--semi-space-growth-factor=1");
}

const { main } = await import(existsSync(bundled) ? bundled.href : compiled.href);
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
