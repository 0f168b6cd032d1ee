/**
 * The module boundaries of docs/architecture.md, checked in every clone: its table is read here and is the
 * rule — each folder of src/ may import only the folders its row lists (type imports included), rows are in
 * dependency order, cli/, mcp/ and inspect/ are leaves nothing imports, the package entry points at the
 * top of src/ are imported by nothing, and no import cycle in src/ spans more than two files.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const REPO = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const SRC = path.join(REPO, "src");
const ARCHITECTURE = path.join(REPO, "docs", "architecture.md");

const LEAVES = ["cli", "mcp", "inspect", "serve"];
/** Package entry points at the top of src/ (`package.json` "exports"): they re-export, nothing imports them. */
const ENTRY_POINTS = ["index.ts", "catalog.ts", "session.ts", "exec.ts", "store.ts", "test-kit.ts"];

/**
 * docs/architecture.md's module table: folder → the folders it may import, in table order. The "may
 * import" cell names folders (`` `catalog/` ``), or says "`engine/` and below" (that row and every row
 * above it), "everything" (every other row) or "—" (none).
 */
function moduleTable(text: string): Array<{ folder: string; imports: string[] }> {
  const section = /^## Modules[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text)?.[1] ?? "";
  const rows = section
    .split("\n")
    .filter((line) => /^\| `/.test(line))
    .map((line) => line.split("|").map((c) => c.trim()));
  const names = (cell: string | undefined): string[] =>
    [...(cell ?? "").matchAll(/`([a-z]+)\/`/g)].map((m) => m[1] ?? "");
  const order = rows.map((cells) => names(cells[1])[0] ?? "");
  return rows.map((cells, i) => {
    const cell = cells.at(-2) ?? "";
    const folder = order[i] ?? "";
    if (cell === "everything") return { folder, imports: order.filter((f) => f !== folder) };
    const below = /^`([a-z]+)\/` and below$/.exec(cell)?.[1];
    if (below !== undefined) return { folder, imports: order.slice(0, order.indexOf(below) + 1) };
    return { folder, imports: names(cell) };
  });
}

const TABLE = moduleTable(readFileSync(ARCHITECTURE, "utf8"));
const ALLOWED: Record<string, string[]> = Object.fromEntries(TABLE.map((row) => [row.folder, row.imports]));

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

/** src/ as a graph: each source file → the source files it imports (type imports and re-exports too). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const targets = relativeImports(file)
      .map((spec) => path.resolve(path.dirname(file), spec).replace(/\.js$/, ".ts"))
      .filter((target) => existsSync(target));
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected components of `graph` with more than one file (Tarjan's algorithm). */
function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(path.relative(SRC, member));
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

describe("module boundaries", () => {
  it("every src/ folder imports only the folders docs/architecture.md allows", () => {
    const violations: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const rel = path.relative(SRC, file);
      const folder = rel.split(path.sep)[0] ?? "";
      if (!rel.includes(path.sep)) continue; // an entry point (index.ts, session.ts, …) may export anything
      const allowed = ALLOWED[folder];
      if (allowed === undefined) {
        violations.push(`${rel}: folder '${folder}' is not in docs/architecture.md's module table`);
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

  it("nothing imports cli/, mcp/, inspect/ or serve/", () => {
    const offenders = sourceFiles(SRC)
      .filter((file) => !LEAVES.includes(path.relative(SRC, file).split(path.sep)[0] ?? ""))
      .filter((file) => relativeImports(file).some((s) => /(^|\/)(cli|mcp|inspect|serve)\//.test(s)));
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

  it("docs/architecture.md's table is in dependency order: each row imports only rows above it", () => {
    const order = TABLE.map((row) => row.folder);
    expect(order.length).toBeGreaterThan(10);
    expect(new Set(order).size).toBe(order.length);
    expect(order.at(-1)).toBe("cli"); // the top: it may import every other folder
    for (const [index, row] of TABLE.slice(0, -1).entries()) {
      for (const target of row.imports) {
        const at = order.indexOf(target);
        expect(at >= 0 && at < index, `${row.folder} → ${target}`).toBe(true);
      }
    }
  });

  it("src/ has no import cycle of more than two files (type imports included)", () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(200);
    // The check itself: a three-file loop is found.
    const loop = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(importCycles(loop).map((c) => c.length)).toEqual([3]);
    expect(importCycles(graph).filter((cycle) => cycle.length > 2)).toEqual([]);
  });
});
