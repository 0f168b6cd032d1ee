#!/usr/bin/env node
// Search and memory at scale, in one process over a generated tree of N skills (bench/gen-skills.mjs):
//   - index build: a SearchIndex over catalog.list() with the bodies' openings and headings read (what
//     the first catalog.search() does without a cache: reads them and tokenises every record), against the floor of reading every record's name and description
//     once (a pass that lowercases them);
//   - one query on the built index (median and p95 over 200 queries × 3 rounds: a fixed set plus
//     fragments of skills' descriptions and names), target ≤ 5 ms at 50,000 skills; against the floor of
//     a plain scan of the postings of the query's words (each posting read once and counted, nothing
//     scored — what any evaluation that looks at every posting does at least; the search scores every
//     posting of every expanded term);
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
const { SearchIndex } = await import("../dist/catalog/search-index.js");
const { serializeSearchIndex } = await import("../dist/catalog/search-index-data.js");
const { searchableRecords } = await import("../dist/catalog/search-texts.js");
const { tokenize } = await import("../dist/catalog/tokenize.js");
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
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const r = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/** The fixed queries, then fragments of descriptions (1–6 words) and names as words, deterministic. */
function queries(records, count) {
  let seed = 42;
  const random = (below) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % below;
  };
  const out = [...QUERIES];
  while (out.length < count) {
    const record = records[random(records.length)];
    if (random(4) === 0) out.push(record.name.replaceAll("-", " "));
    else {
      const words = record.description.split(/\s+/);
      const from = random(words.length);
      out.push(words.slice(from, from + 1 + random(6)).join(" "));
    }
  }
  return out;
}

/** The floor: every posting of the query's indexed words read once and counted into its document. */
function postingsScan(data, ids, counts, query) {
  let touched = 0;
  for (const word of new Set(tokenize(query))) {
    const t = ids.get(word);
    if (t === undefined) continue;
    for (let p = data.offsets[t]; p < data.offsets[t + 1]; p++) {
      if (counts[data.docs[p]]++ === 0) touched++;
    }
  }
  counts.fill(0);
  return touched;
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
  const index = new SearchIndex(searchableRecords(records).records);
  const build = performance.now() - t0;
  const data = serializeSearchIndex(index);
  const ids = new Map(data.terms.map((term, t) => [term, t]));
  const counts = new Uint32Array(n);

  const set = queries(records, 200);
  const timed = [];
  const floor = [];
  for (let round = 0; round < 3; round++) {
    for (const q of set) {
      let s = performance.now();
      postingsScan(data, ids, counts, q);
      floor.push(performance.now() - s);
      s = performance.now();
      index.search(q, 10);
      timed.push(performance.now() - s);
    }
  }
  return {
    n,
    index_build_ms: r(build, 1),
    index_build_floor_ms: r(buildFloor, 1),
    index_build_ratio: r(build / buildFloor),
    query_ms: r(median(timed), 3),
    query_p95_ms: r(p95(timed), 3),
    query_target_ms: 5,
    query_target_ratio: r(median(timed) / 5, 3),
    query_p95_target_ratio: r(p95(timed) / 5, 3),
    query_floor_ms: r(median(floor), 3),
    query_floor_p95_ms: r(p95(floor), 3),
    query_floor_ratio: r(median(timed) / median(floor)),
    heap_bytes_per_skill: Math.round((heapAfter - heapBefore) / records.length),
    l1_string_bytes_per_skill: Math.round(l1Bytes / records.length),
    memory_ratio: r((heapAfter - heapBefore) / l1Bytes),
    queries: timed.length,
    load: r(os.loadavg()[0]),
  };
}

const sizes = process.argv.slice(2).map(Number);
for (const n of sizes.length > 0 ? sizes : [10000, 50000]) {
  process.stdout.write(`${JSON.stringify(await measure(n))}\n`);
}
