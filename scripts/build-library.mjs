#!/usr/bin/env node
// Bundles every entry point in one ESM build: the package's "exports" (`skillrt`, its curated subpaths,
// `skillrt/mcp`, `skillrt/node`, `skillrt/test`) and the CLI (`cli`, which bin/skillrt.js imports), from
// tsc's output in DIST (argument; default dist/) into DIST/lib/. A program importing `skillrt` loaded ~280 of
// skillrt's own files one by one (resolve, read, compile, link each); here they become chunks the bundler
// chooses from the import graph, shared by the entries (so a class such as SkillrtError is one class whichever
// entry it comes from), and what an entry imports lazily stays lazy (its own chunk): `skillrt list` reads
// the CLI's entry and the chunks its static imports need, never the agent's. Every package stays external:
// the application's own `ai`, zod and providers are the ones skillrt uses. Types stay tsc's (`dist/*.d.ts`).
// DIST/lib/ sits two levels below the package root, like dist/<module>/, so paths built from
// import.meta.url resolve the same. Run after `tsc` (scripts/build.mjs runs both).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** Entry name (file in dist/lib/) → the tsc output it bundles; the exports map points at the entry files. */
export const ENTRIES = {
  index: "index.js",
  catalog: "catalog.js",
  session: "session.js",
  exec: "exec.js",
  store: "store.js",
  mcp: "mcp/index.js",
  node: "cli/from-environment.js",
  "test-kit": "test-kit.js",
  cli: "cli/main.js",
};

/** Bundles the entries of `dist` (tsc's output) into `dist/lib/`. */
export async function bundleEntries(dist) {
  const out = path.join(dist, "lib");
  // Imported here: scripts/build.mjs imports this file and loads the bundler only when it builds.
  const { build } = await import("rolldown");
  fs.rmSync(out, { recursive: true, force: true });
  await build({
    input: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(dist, file)])),
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
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  await bundleEntries(path.resolve(process.argv[2] ?? path.join(root, "dist")));
}
