#!/usr/bin/env node
// Bundles the CLI (dist/cli/main.js and what it imports; lazily imported commands become chunks) into
// dist/bundle/, which bin/skillrt.js loads first: reading and linking a handful of files instead of ~60
// makes short commands such as `skillrt list` start faster. Packages and node: builtins stay external.
// dist/bundle/ sits two levels below the package root, like dist/<module>/, so paths built from
// import.meta.url resolve the same. Run after `tsc`.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "dist/bundle");
fs.rmSync(out, { recursive: true, force: true });
await build({
  input: { main: path.join(root, "dist/cli/main.js") },
  platform: "node",
  external: [/^[^./]/],
  logLevel: "warn",
  output: { dir: out, format: "esm", chunkFileNames: "[name]-[hash].js" },
});
