#!/usr/bin/env node
// Search and memory at scale, in one process over a generated tree of N skills (bench/gen-skills.mjs):
//   - index build: the first catalog.search() (tokenises every record), against the floor of reading
//     every record's name and description once (a pass that lowercases them);
//   - one query on the built index (median over a fixed query set), against the floor of one naive pass
//     over every description testing each query word with includes() — the least a search that looks at
//     every skill does; target ≤ 5 ms per query at 50,000 skills;
//   - memory per skill: V8 heap held by a catalog of N skills (after a full GC), per skill, against the
//     floor of the UTF-16 bytes of the L1 strings themselves (name, description, location, dir).
// Prints one JSON line per N. Usage: npm run build && npx node --expose-gc bench/search.mjs [N ...]
// (default 10000 50000).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, ".out");
const { createCatalog } = await import("../dist/catalog/create-catalog.js");
const gc = globalThis.gc;
if (gc === undefined) throw new Error("run with node --expose-gc");

function tree(n) {
  const dir = path.join(out, `s${n}`);
  if (!(fs.existsSync(dir) && fs.readdirSync(dir).length === n)) {
    fs.rmSync(dir, { recursive: true, force: true });
    const gen = spawnSync(process.execPath, [path.join(here, "gen-skills.mjs"), String(n), dir], {
      stdio: "ignore",
    });
    if (gen.status !== 0) throw new Error(`gen-skills.mjs failed for N=${n}`);
  }
  return dir;
}

const QUERIES = [
  "pdf form",
  "fill out a pdf form",
  "review my pull request",
  "kubernetes deploy",
  "convert spreadsheet to csv",
  "summarize meeting notes",
  "resize images",
  "write unit tests for the parser",
  "security audit of dependencies",
  "draft release notes from the changelog",
  "optimize sql query performance",
  "translate the ui strings",
  "lint python code",
  "make a slide deck",
  "scrape a web page",
  "terraform plan",
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const r = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

function naiveQuery(records, query) {
  const words = query.toLowerCase().split(/\s+/);
  let hits = 0;
  for (const record of records) {
    const text = record.description.toLowerCase();
    for (const word of words) if (text.includes(word)) hits++;
  }
  return hits;
}

async function measure(n) {
  const root = tree(n);
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const catalog = await createCatalog({ roots: [root] });
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  const records = catalog.list();
  let l1Bytes = 0;
  for (const record of records)
    l1Bytes +=
      2 * (record.name.length + record.description.length + record.location.length + record.dir.length);

  let t0 = performance.now();
  for (const record of records) `${record.name} ${record.description}`.toLowerCase();
  const buildFloor = performance.now() - t0;
  t0 = performance.now();
  catalog.search("warm up the index");
  const build = performance.now() - t0;

  const query = [];
  const floor = [];
  const ratios = [];
  for (let round = 0; round < 5; round++) {
    for (const q of QUERIES) {
      let s = performance.now();
      naiveQuery(records, q);
      const f = performance.now() - s;
      s = performance.now();
      catalog.search(q, 10);
      const t = performance.now() - s;
      floor.push(f);
      query.push(t);
      ratios.push(t / f);
    }
  }
  return {
    n,
    index_build_ms: r(build, 1),
    index_build_floor_ms: r(buildFloor, 1),
    index_build_ratio: r(build / buildFloor),
    query_ms: r(median(query)),
    query_p95_ms: r([...query].sort((a, b) => a - b)[Math.floor(query.length * 0.95)]),
    query_floor_ms: r(median(floor)),
    query_ratio: r(median(ratios)),
    query_target_ms: 5,
    heap_bytes_per_skill: Math.round((heapAfter - heapBefore) / records.length),
    l1_string_bytes_per_skill: Math.round(l1Bytes / records.length),
    memory_ratio: r((heapAfter - heapBefore) / l1Bytes),
    queries: query.length,
    load: r(os.loadavg()[0]),
  };
}

const sizes = process.argv.slice(2).map(Number);
for (const n of sizes.length > 0 ? sizes : [10000, 50000]) {
  process.stdout.write(`${JSON.stringify(await measure(n))}\n`);
}
