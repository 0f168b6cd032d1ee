#!/usr/bin/env node
// Search quality on the evaluation set: recall@1, recall@5 and MRR of the catalog's search (what
// `skillrt search` and the skill_search tool run) for the requests in bench/selection/requests.txt over
// bench/corpus (create it first: node bench/selection/fetch-corpus.mjs). Splits are fixed by an FNV-1a
// hash of the request text (h): "heldout" is the quarter h % 4 = 0 and "dev" the rest; "tune" (h % 4 in
// 1, 2) and "test" (h % 4 in 0, 3) halve the set, so a change can be fitted on one half and judged on the
// other. Every split and the whole set are reported.
// Also reports the median and p95 query time over the corpus.
// Usage: npx node bench/selection/search-eval.mjs [--misses]   → prints JSON (misses of "tune" only).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import "../../scripts/register-ts-sources.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { createCatalog } = await import("../../src/catalog/create-catalog.ts");
const { SearchIndex } = await import("../../src/catalog/search-index.ts");
const { searchableRecords } = await import("../../src/catalog/search-texts.ts");
// --weights '{"bigram":0}' ranks with other parameters (see SearchWeights) instead of the catalog's own.
const weightsArg = process.argv.indexOf("--weights");
const weights = weightsArg > 0 ? JSON.parse(process.argv[weightsArg + 1]) : undefined;

/** The requests of the set: `{ request, expect: string[], split: "dev" | "heldout" }`. */
export function readRequests(file = path.join(here, "requests.txt")) {
  const out = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" => ");
    if (at < 0) throw new Error(`requests.txt: no " => " in: ${line}`);
    const request = line.slice(0, at).trim();
    const expect = line
      .slice(at + 4)
      .split("|")
      .map((s) => s.trim());
    const h = fnv1a(request) % 4;
    out.push({
      request,
      expect,
      split: h === 0 ? "heldout" : "dev",
      half: h === 1 || h === 2 ? "tune" : "test",
    });
  }
  return out;
}

function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const corpus = path.resolve(here, "../corpus");
const roots = readdirSync(corpus).map((d) => path.join(corpus, d));
const t0 = performance.now();
const catalog = await createCatalog({ roots });
const scanMs = performance.now() - t0;
const requests = readRequests();
const unknown = requests.flatMap((r) => r.expect.filter((n) => catalog.get(n) === undefined));
if (unknown.length > 0)
  throw new Error(`requests name skills missing from the corpus: ${unknown.join(", ")}`);

const t1 = performance.now();
// With other weights the index is built here, over the records as the catalog's own index reads them
// (each with its body's opening and headings).
function searchWith(weights) {
  const searchable = searchableRecords(catalog.list());
  const index = new SearchIndex(searchable.records, weights);
  return (query, limit) => index.search(query, limit).map(searchable.hit);
}
const search = weights === undefined ? catalog.search : searchWith(weights);
search("warm up", 5);
const buildMs = performance.now() - t1;
const times = [];
const splits = { dev: [], heldout: [] };
for (const r of requests) {
  const started = performance.now();
  const hits = search(r.request, 10);
  times.push(performance.now() - started);
  const rank = hits.findIndex((h) => r.expect.includes(h.record.name)) + 1;
  splits[r.split].push({ ...r, rank, top: hits.slice(0, 3).map((h) => h.record.name) });
}

function figures(rows) {
  const n = rows.length;
  const at = (k) => rows.filter((r) => r.rank > 0 && r.rank <= k).length / n;
  const mrr = rows.reduce((s, r) => s + (r.rank > 0 ? 1 / r.rank : 0), 0) / n;
  return {
    n,
    recallAt1: round(at(1)),
    recallAt1Ci95: wilson(at(1), n),
    recallAt5: round(at(5)),
    mrr: round(mrr),
  };
}

// The 95% Wilson interval of a proportion p over n: how far a figure on ~100 requests can move by chance
// (one request is ~0.009 of a half; two rankings within the interval are not told apart by this set).
function wilson(p, n) {
  const z = 1.96;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [round(centre - half), round(centre + half)];
}
const round = (x) => Math.round(x * 1000) / 1000;
times.sort((a, b) => a - b);
const report = {
  skills: catalog.list().length,
  dev: figures(splits.dev),
  heldout: figures(splits.heldout),
  tune: figures([...splits.dev, ...splits.heldout].filter((r) => r.half === "tune")),
  test: figures([...splits.dev, ...splits.heldout].filter((r) => r.half === "test")),
  all: figures([...splits.dev, ...splits.heldout]),
  scanMs: Math.round(scanMs),
  indexBuildMs: Math.round(buildMs),
  queryMsP50: round(times[Math.floor(times.length / 2)]),
  queryMsP95: round(times[Math.floor(times.length * 0.95)]),
};
// --misses lists the misses of the tune half only (look at those, judge on the other).
if (process.argv.includes("--misses"))
  report.misses = [...splits.dev, ...splits.heldout]
    .filter((r) => r.half === "tune" && r.rank !== 1)
    .map((r) => `${r.rank || "-"}  ${r.request}  => ${r.expect[0]}  got ${r.top.join(", ")}`);
console.log(JSON.stringify(report, null, 2));
