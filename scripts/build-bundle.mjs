#!/usr/bin/env node
// Bundles the CLI (dist/cli/main.js and what it imports; lazily imported commands become chunks) into
// dist/bundle/, which bin/skillrt.js loads first: reading and linking a handful of files instead of ~60
// makes short commands such as `skillrt list` start faster. The packages the CLI uses are bundled too:
// resolving a bare specifier walks node_modules and reads package.json exports maps, which cost `skillrt ask`
// about 100 ms before its first model request over the AI SDK, its providers and zod. Left external: node:
// builtins; pg (it tries an optional native addon); playwright-core (large, loads its own files by path);
// gpt-tokenizer (loaded through createRequire with the encoding's name).
// dist/bundle/ sits two levels below the package root, like dist/<module>/, so paths built from
// import.meta.url resolve the same. Run after `tsc`.
//
// Every file costs its own resolution, read and link (about a millisecond each on a quiet machine), and
// by default every set of commands sharing modules gets its own chunk: `skillrt run` loaded ten files.
// The short commands' modules are therefore grouped: `core` holds what `list` imports statically (the
// spec parser, the catalog, the CLI helpers: every short command needs them), `exec` what `run` imports
// statically on top of that, `agent` what `ask` imports statically on top of both (the agent, the AI SDK,
// zod: chat, mcp and inspect share it). Only static imports are followed, so what a module loads lazily
// (the config schema, yaml, the MCP SDK, the providers) stays lazy. `skillrt list` reads three files,
// `skillrt run` four, and `skillrt ask` seven instead of 25: its first model request came ~45 ms sooner
// (326 vs 370 ms in alternation, load 2.3).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "dist/bundle");
const command = (name) => path.join(root, "dist/cli/commands", `${name}.js`);

/** Module id → the ids it imports statically, as rolldown parsed them. */
const staticImports = new Map();
const closures = new Map();
/** The modules `entry` imports statically, directly or not (not `entry` itself). */
function closureOf(entry) {
  let seen = closures.get(entry);
  if (seen !== undefined) return seen;
  seen = new Set();
  const stack = [...(staticImports.get(entry) ?? [])];
  while (stack.length > 0) {
    const id = stack.pop();
    if (seen.has(id) || !staticImports.has(id)) continue; // externals are not in the map
    seen.add(id);
    stack.push(...staticImports.get(id));
  }
  closures.set(entry, seen);
  return seen;
}
const mainModule = path.join(root, "dist/cli/main.js");
/** Whether a group takes `id`: not what main.js itself imports (main.js would then load the group). */
const groupable = (id) => !closureOf(mainModule).has(id);
const inCore = (id) =>
  groupable(id) && (closureOf(command("list")).has(id) || id.includes("rolldown/runtime"));
const inExec = (id) => groupable(id) && closureOf(command("run")).has(id) && !inCore(id);
const inAgent = (id) => groupable(id) && closureOf(command("ask")).has(id) && !inCore(id) && !inExec(id);

fs.rmSync(out, { recursive: true, force: true });
const result = await build({
  input: { main: mainModule },
  platform: "node",
  external: [/^node:/, /^(pg|playwright-core|gpt-tokenizer)(\/|$)/],
  logLevel: "warn",
  plugins: [
    {
      // `ai`'s import of the AI Gateway provider: loaded on first use instead (scripts/gateway-on-demand.mjs).
      name: "gateway-on-demand",
      resolveId(source, importer) {
        if (
          source === "@ai-sdk/gateway" &&
          importer !== undefined &&
          !importer.endsWith("gateway-on-demand.mjs")
        )
          return path.join(root, "scripts/gateway-on-demand.mjs");
        return null;
      },
    },
    {
      name: "static-import-graph",
      moduleParsed(info) {
        staticImports.set(info.id, info.importedIds);
      },
    },
  ],
  output: {
    dir: out,
    // CommonJS, so bin/skillrt.js can compile each file through vm.Script with a code cache made after the
    // command ran (src/cli/load-bundle.ts); an ES module's code cache holds only what was compiled at load.
    format: "cjs",
    // Dynamic imports of what stays external (pg, node:crypto) become require(): a vm.Script's import()
    // needs Node's experimental main-context loader, which prints a warning on stderr.
    dynamicImportInCjs: false,
    entryFileNames: "[name].cjs",
    chunkFileNames: "[name]-[hash].cjs",
    // No comments and only ASCII: V8 then reads each file as one-byte text (a file with one "—" is
    // decoded into two-byte text) and the compile cache hashes less of it; core shrinks to about half.
    comments: false,
    charset: "ascii",
    codeSplitting: {
      groups: [
        { name: "core", test: inCore, priority: 2 },
        { name: "exec", test: inExec, priority: 1 },
        { name: "agent", test: inAgent, priority: 0 },
      ],
    },
  },
});

// Which packages each file of the bundle holds (packages.json: file name -> package names), so a test can
// tell what a command loaded, as it could from node_modules paths before the packages were bundled.
const packageOf = (id) => {
  const at = id.lastIndexOf("/node_modules/");
  if (at < 0) return undefined;
  const [scope, name] = id.slice(at + "/node_modules/".length).split("/");
  return scope?.startsWith("@") ? `${scope}/${name}` : scope;
};
const manifest = {};
for (const chunk of result.output) {
  if (chunk.type !== "chunk") continue;
  manifest[chunk.fileName] = [...new Set(Object.keys(chunk.modules).map(packageOf).filter(Boolean))].sort();
}
fs.writeFileSync(path.join(out, "packages.json"), `${JSON.stringify(manifest, null, 1)}\n`);
