/**
 * The module boundaries of DESIGN.md, checked: each folder of src/ may import only the folders listed
 * here (dependencies point one way; cli/, mcp/ and inspect/ are leaves nothing imports), and this table
 * agrees with DESIGN.md's (read from ../shared/DESIGN.md beside the repository when it is there).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "src");

const BASE = ["errors", "util"];
const ALLOWED: Record<string, string[]> = {
  errors: [],
  util: ["errors"],
  config: [...BASE],
  spec: [...BASE],
  catalog: [...BASE, "spec", "config"],
  store: [...BASE, "config"],
  context: [...BASE, "spec", "config", "catalog", "store"],
  exec: [...BASE, "spec", "config", "catalog"],
  tools: [...BASE, "spec", "config", "catalog", "store", "context", "exec"],
  engine: [...BASE, "spec", "config", "catalog", "store", "context", "exec", "tools"],
  mcp: [...BASE, "spec", "config", "catalog", "store", "context", "exec", "tools", "engine"],
  inspect: [...BASE, "spec", "config", "catalog", "store", "context", "exec", "tools", "engine"],
  cli: [
    ...BASE,
    "spec",
    "config",
    "catalog",
    "store",
    "context",
    "exec",
    "tools",
    "engine",
    "mcp",
    "inspect",
  ],
};

const LEAVES = ["cli", "mcp", "inspect"];
/** Package entry points at the top of src/ (`package.json` "exports"): they re-export, nothing imports them. */
const ENTRY_POINTS = ["index.ts", "catalog.ts", "session.ts", "exec.ts", "store.ts", "test-kit.ts"];
const DESIGN = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "shared", "DESIGN.md");

/** DESIGN.md's module table: folder → the folders its "may import" column names, in table order. */
function designTable(text: string): Array<{ folders: string[]; imports: string[] }> {
  const section = /^## Modules[^\n]*\n([\s\S]*?)^## /m.exec(text)?.[1] ?? "";
  return section
    .split("\n")
    .filter((line) => /^\| `/.test(line))
    .map((line) => {
      const cells = line.split("|").map((c) => c.trim());
      const names = (cell: string | undefined): string[] =>
        [...(cell ?? "").matchAll(/`([a-z]+)\/`/g)].map((m) => m[1] ?? "");
      return { folders: names(cells[1]), imports: names(cells.at(-2)) };
    });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "__fixtures__" ? [] : sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

function relativeImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [
    ...text.matchAll(/(?:import|export)[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g),
  ];
  return specifiers.map((m) => m[1] ?? m[2] ?? "").filter((s) => s.startsWith("."));
}

describe("module boundaries", () => {
  it("every src/ folder imports only the folders DESIGN.md allows", () => {
    const violations: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const rel = path.relative(SRC, file);
      const folder = rel.split(path.sep)[0] ?? "";
      if (!rel.includes(path.sep)) continue; // an entry point (index.ts, session.ts, …) may export anything
      const allowed = ALLOWED[folder];
      if (allowed === undefined) {
        violations.push(`${rel}: folder '${folder}' is not in DESIGN.md's module table`);
        continue;
      }
      for (const spec of relativeImports(file)) {
        const target = path.relative(SRC, path.resolve(path.dirname(file), spec)).split(path.sep)[0] ?? "";
        if (target === folder || target.endsWith(".js")) continue;
        if (!allowed.includes(target)) violations.push(`${rel} imports ${spec} (${folder} → ${target})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("nothing imports cli/, mcp/ or inspect/", () => {
    const offenders = sourceFiles(SRC)
      .filter((file) => !LEAVES.includes(path.relative(SRC, file).split(path.sep)[0] ?? ""))
      .filter((file) => relativeImports(file).some((s) => /(^|\/)(cli|mcp|inspect)\//.test(s)));
    expect(offenders.map((f) => path.relative(SRC, f))).toEqual([]);
  });

  it("src/ holds only the module folders and the package entry points, which nothing imports", () => {
    const top = readdirSync(SRC, { withFileTypes: true });
    expect(
      top
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort(),
    ).toEqual(Object.keys(ALLOWED).sort());
    const files = top.filter((e) => e.isFile() && !e.name.endsWith(".test.ts")).map((e) => e.name);
    expect(files.sort()).toEqual([...ENTRY_POINTS].sort());
    const entries = ENTRY_POINTS.map((entry) => path.join(SRC, entry.replace(/\.ts$/, ".js")));
    const importers = sourceFiles(SRC).filter((file) =>
      relativeImports(file).some((s) => entries.includes(path.resolve(path.dirname(file), s))),
    );
    expect(importers.map((f) => path.relative(SRC, f))).toEqual([]);
  });

  it.skipIf(!existsSync(DESIGN))("agrees with DESIGN.md's module table", () => {
    const rows = designTable(readFileSync(DESIGN, "utf8"));
    const order = rows.flatMap((r) => r.folders);
    // The same folders, in the same order (dependencies point down the table).
    expect(order).toEqual(Object.keys(ALLOWED));
    for (const row of rows) {
      for (const folder of row.folders) {
        const allowed = ALLOWED[folder] ?? [];
        // Everything the table names is allowed, and everything allowed comes earlier in the table.
        for (const target of row.imports) expect(allowed, `${folder} → ${target}`).toContain(target);
        for (const target of allowed) {
          expect(order.indexOf(target), `${folder} → ${target}`).toBeLessThan(order.indexOf(folder));
        }
      }
    }
  });
});
