#!/usr/bin/env node
// Builds dist/ (`npm run build`, and `prepare`, which npm runs on `npm install` and when `npx skillrt` links
// the checkout into its cache): tsc's output (the types the exports map names), then the ESM bundle of every
// entry (scripts/build-library.mjs).
//
// Skipped under npx (npm_command=exec; see below). Fast when nothing changed: dist/ carries a stamp, a SHA-256 of every input of the build (the sources tsc
// compiles, the build scripts, the tsconfig files, package.json, the compiler's and bundler's versions). When
// it matches, the build is skipped: `npx skillrt` in a checkout that `npm install` already built starts at
// once instead of compiling again. `--force` builds anyway.
//
// Safe to interrupt: the build goes to a folder of its own next to dist/ (.dist-build-<pid>/, two levels
// above its files like dist/, so paths built from import.meta.url resolve the same), and replaces dist/ only
// when complete, by renames, with SIGINT, SIGTERM and SIGHUP held off while they run. Ctrl-C at any moment
// leaves the earlier dist/ as it was (or none, on a first build); the next build removes what a killed one
// left, and puts back a dist/ that a kill during the renames (SIGKILL) left aside.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleEntries } from "./build-library.mjs";
import { buildStamp, builtStamp, STAMP } from "./build-stamp.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "dist");
const force = process.argv.includes("--force");

/** Whether process `pid` is running (a build folder of a running build is not ours to remove). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** Removes what killed builds left; puts back a complete dist/ set aside by a swap that was killed. */
function recover() {
  for (const name of fs.readdirSync(root)) {
    const match = /^\.dist-(build|old)-(\d+)$/.exec(name);
    if (match === null || alive(Number(match[2]))) continue;
    const dir = path.join(root, name);
    if (match[1] === "old" && !fs.existsSync(dist) && fs.existsSync(path.join(dir, STAMP))) {
      fs.renameSync(dir, dist);
      continue;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `swap` with the signals a user sends (Ctrl-C, a closing terminal) held until it returns. */
function withSignalsHeld(swap) {
  const held = [];
  const hold = (signal) => held.push(signal);
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of signals) process.on(signal, hold);
  try {
    swap();
  } finally {
    for (const signal of signals) process.off(signal, hold);
  }
  if (held.length > 0) process.kill(process.pid, held[0]);
}

recover();
// `npx skillrt` links the checkout into npm's npx cache and runs this as its `prepare`; an interrupted
// prepare leaves npm's npx folder broken (npm then fails on every later `npx skillrt` until the folder is
// removed). So under npx nothing is built here: bin/skillrt.js builds a missing dist/ on its first start,
// outside npm, and `npm install` or `npm run build` builds a stale one.
if (process.env.npm_command === "exec" && !force) {
  process.stdout.write("skillrt: not building under npx (bin/skillrt.js builds a missing dist/ itself)\n");
  process.exit(0);
}
const wanted = buildStamp(root);
if (!force && builtStamp(root) === wanted) {
  process.stdout.write(
    "skillrt: dist/ is up to date with its sources; nothing to build (--force builds anyway)\n",
  );
  process.exit(0);
}

const work = path.join(root, `.dist-build-${process.pid}`);
fs.rmSync(work, { recursive: true, force: true });
process.stdout.write("skillrt: building dist/ (tsc, then the bundle)…\n");
const tsc = spawnSync(
  process.execPath,
  [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json", "--outDir", work],
  { cwd: root, stdio: "inherit" },
);
if (tsc.status !== 0) {
  fs.rmSync(work, { recursive: true, force: true });
  process.stderr.write(`skillrt: tsc failed (exit ${tsc.status ?? tsc.signal}); dist/ is left as it was\n`);
  process.exit(1);
}
await bundleEntries(work);
// Written last: a folder with the stamp is a complete build.
fs.writeFileSync(path.join(work, STAMP), `${wanted}\n`);

const old = path.join(root, `.dist-old-${process.pid}`);
withSignalsHeld(() => {
  if (fs.existsSync(dist)) fs.renameSync(dist, old);
  fs.renameSync(work, dist);
});
fs.rmSync(old, { recursive: true, force: true });
process.stdout.write("skillrt: built dist/\n");
