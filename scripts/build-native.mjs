#!/usr/bin/env node
// Builds skillrt's optional native directory scanner (native/scan.c → build/Release/skillrt_scan.node)
// with npm's own node-gyp. Never fails the install: without a C compiler (or on Windows) skillrt lists
// directories from JavaScript, with the same results, only slower on large skill trees.
// Skips the build when the addon is newer than its sources. SKILLRT_NATIVE=0 skips it altogether.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const addon = path.join(root, "build/Release/skillrt_scan.node");
const sources = ["native/scan.c", "binding.gyp"].map((file) => path.join(root, file));

function skip(why) {
  process.stderr.write(`skillrt: native scanner not built (${why}); the JavaScript scanner will be used.\n`);
  process.exit(0);
}

if (process.env.SKILLRT_NATIVE === "0") process.exit(0);
if (process.platform === "win32") skip("not supported on Windows");
if (!sources.every((file) => fs.existsSync(file))) skip("sources missing");
const built = fs.statSync(addon, { throwIfNoEntry: false });
if (built !== undefined && sources.every((file) => fs.statSync(file).mtimeMs <= built.mtimeMs))
  process.exit(0);

// npm tells lifecycle scripts where its node-gyp is; else look beside the npm running us.
const candidates = [
  process.env.npm_config_node_gyp,
  process.env.npm_execpath &&
    path.join(path.dirname(process.env.npm_execpath), "../node_modules/node-gyp/bin/node-gyp.js"),
].filter((file) => file !== undefined && file !== "" && fs.existsSync(file));
const gyp = candidates[0];
if (gyp === undefined) skip("node-gyp not found; run this through npm");

const run = spawnSync(process.execPath, [gyp, "rebuild"], { cwd: root, encoding: "utf8" });
if (run.status !== 0 || !fs.existsSync(addon)) {
  const lines = `${run.stderr ?? ""}${run.stdout ?? ""}`.trim().split("\n");
  // The compiler's own error lines say most; else the last lines node-gyp printed.
  const errors = lines.filter((line) => /\berror\b/i.test(line) && !line.startsWith("gyp ERR!"));
  const shown = (errors.length > 0 ? errors.slice(0, 3) : lines.slice(-3)).join(" | ");
  skip(`node-gyp failed: ${shown || run.error?.message || `exit ${run.status}`}`);
}
