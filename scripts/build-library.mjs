#!/usr/bin/env node
// Bundles the entry points from tsc's output in DIST (argument; default dist/), two ESM builds with chunks
// chosen by the bundler from the import graph (what an entry imports lazily stays lazy, in chunks of its own):
//
// - the library, DIST/lib/: the package's "exports" (`skillrt`, its curated subpaths, `skillrt/mcp`,
//   `skillrt/node`, `skillrt/test`). A program importing `skillrt` loaded ~280 of skillrt's own files one by
//   one (resolve, read, compile, link each); here they become chunks shared by the entries (so a class such
//   as SkillrtError is one class whichever entry it comes from). Every package stays external: the
//   application's own `ai`, zod and providers are the ones skillrt uses.
// - the CLI, DIST/bundle/main.js (bin/skillrt.js imports it), with the packages it uses: resolving bare
//   specifiers (node_modules walks, package.json exports maps) and linking zod's ~100 files and the AI SDK's
//   cost `skillrt ask` ~60 ms of CPU before its first model request (200 vs 260 ms at 0 skills, load 18),
//   and no application shares the CLI's packages. Left external: node: builtins; pg (it tries an optional
//   native addon); playwright-core (large, loads its own files by path); gpt-tokenizer (loaded through
//   createRequire with the encoding's name). `ai`'s import of the AI Gateway provider is replaced by a
//   stand-in that loads it on first use (scripts/gateway-on-demand.mjs). `skillrt list` reads the CLI's
//   entry and the chunks its static imports need, never the agent's (src/cli/bin.test.ts).
//
// Both folders sit two levels below the package root, like dist/<module>/, so paths built from
// import.meta.url resolve the same. Run after `tsc` (scripts/build.mjs runs both). Types stay tsc's.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

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

/** Bundles the library's entries and the CLI of `dist` (tsc's output) into `dist/lib/` and `dist/bundle/`. */
export async function bundleEntries(dist) {
  // Imported here: scripts/build.mjs imports this file and loads the bundler only when it builds.
  const { build } = await import("rolldown");
  const output = (dir) => ({
    dir,
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "[name]-[hash].js",
    comments: false,
  });
  const lib = path.join(dist, "lib");
  const cli = path.join(dist, "bundle");
  fs.rmSync(lib, { recursive: true, force: true });
  fs.rmSync(cli, { recursive: true, force: true });
  await build({
    input: Object.fromEntries(
      Object.entries(LIBRARY_ENTRIES).map(([name, file]) => [name, path.join(dist, file)]),
    ),
    platform: "node",
    // Only skillrt's own files are bundled: every bare specifier (a package) and node: builtin stays an import.
    external: (id, importer) => importer !== undefined && !id.startsWith(".") && !path.isAbsolute(id),
    logLevel: "warn",
    output: output(lib),
  });
  const gatewayStandIn = fileURLToPath(new URL("gateway-on-demand.mjs", import.meta.url));
  await build({
    input: { main: path.join(dist, "cli/main.js") },
    platform: "node",
    external: [/^node:/, /^(pg|playwright-core|gpt-tokenizer)(\/|$)/],
    logLevel: "warn",
    plugins: [
      {
        name: "gateway-on-demand",
        resolveId(source, importer) {
          if (source === "@ai-sdk/gateway" && importer !== undefined && importer !== gatewayStandIn)
            return gatewayStandIn;
          return null;
        },
      },
    ],
    output: output(cli),
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  await bundleEntries(path.resolve(process.argv[2] ?? path.join(root, "dist")));
}
