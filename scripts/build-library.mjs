#!/usr/bin/env node
// Bundles the library's entry points (the package's "exports": `skillrt`, its curated subpaths, `skillrt/mcp`,
// `skillrt/node` and `skillrt/test`) into dist/lib/, which the exports map names. A program importing
// `skillrt` loaded ~280 of skillrt's own files one by one (resolve, read, compile, link each): about 300-450 ms
// before the README's short program could send its first request with no skills at all. Here skillrt's files
// become a few chunks shared by the entries (so a class such as SkillrtError is one class whichever entry it
// comes from), and what an entry loads lazily stays lazy (its own chunk). Every package stays external: the
// application's own `ai`, zod and providers are the ones skillrt uses. Types stay tsc's (`dist/*.d.ts`).
// dist/lib/ sits two levels below the package root, like dist/<module>/, so paths built from import.meta.url
// resolve the same. Run after `tsc`.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "dist");
const out = path.join(dist, "lib");

/** Entry name (file in dist/lib/) → the tsc output it bundles; the exports map points at the entry files. */
const LIBRARY_ENTRIES = {
  index: "index.js",
  catalog: "catalog.js",
  session: "session.js",
  exec: "exec.js",
  store: "store.js",
  mcp: "mcp/index.js",
  node: "cli/from-environment.js",
  "test-kit": "test-kit.js",
};

fs.rmSync(out, { recursive: true, force: true });
await build({
  input: Object.fromEntries(
    Object.entries(LIBRARY_ENTRIES).map(([name, file]) => [name, path.join(dist, file)]),
  ),
  platform: "node",
  // Only skillrt's own files are bundled: every bare specifier (a package) and node: builtin stays an import.
  external: (id, importer) => importer !== undefined && !id.startsWith(".") && !path.isAbsolute(id),
  logLevel: "warn",
  output: {
    dir: out,
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "[name]-[hash].js",
    comments: false,
  },
});
