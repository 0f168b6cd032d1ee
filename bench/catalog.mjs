// Measures rendering the L1 catalog of 10,000 skills under a 2,000-token budget.
// Build first (`npm run build`), then: npx node bench/catalog.mjs [N=10000] [DIR]
// With DIR (e.g. made by `npx node bench/gen-skills.mjs 10000 DIR`) the skills are read from
// disk; otherwise N memory skills with generated descriptions are used. Prints one JSON object.
import { performance } from "node:perf_hooks";
import "../scripts/register-ts-sources.mjs";

const { createCatalog } = await import("../dist/catalog/create-catalog.js");
const { createSkillSession } = await import("../dist/context/create-skill-session.js");
const { createTokenCounter } = await import("../dist/context/token-counter.js");
// The generated skills of the catalog tests (a TypeScript fixture, run from source).
const { syntheticSkills } = await import("../src/context/__fixtures__/synthetic-skills.ts");

const N = Number(process.argv[2] ?? 10_000);
const DIR = process.argv[3];
const BUDGET = 2_000;

const t0 = performance.now();
const catalog = DIR
  ? await createCatalog({ roots: [DIR] })
  : await createCatalog({ roots: [], memory: syntheticSkills(N) });
const catalogMs = performance.now() - t0;
const counter = createTokenCounter();
counter.count("warm up the encoding");

// System placement re-renders the catalog after every state change (load markers, LRU order).
const session = createSkillSession({
  catalog,
  catalogBudget: BUDGET,
  placement: "system",
  tokenCounter: counter,
});
const c0 = performance.now();
const first = session.renderer.systemPrompt();
const coldMs = performance.now() - c0;

const names = catalog.list().map((r) => r.name);
const samples = [];
for (let i = 0; i < 30; i++) {
  const name = names[(i * 331) % names.length];
  await session.load(name);
  session.renderer.refreshCatalog(); // drop the render memo: time a full re-render (per-record counts stay cached)
  const s = performance.now();
  session.renderer.systemPrompt();
  samples.push(performance.now() - s);
  session.unload(name);
}
samples.sort((a, b) => a - b);
const stats = session.renderer.catalogStats();
const round = (x) => Math.round(x * 100) / 100;
console.log(
  JSON.stringify({
    skills: catalog.list().length,
    source: DIR ? "disk" : "memory",
    catalogBudget: BUDGET,
    catalogTokens: counter.count(first),
    listed: stats.listed,
    omitted: stats.omitted,
    searchOffered: stats.searchOffered,
    buildCatalogMs: round(catalogMs),
    coldRenderMs: round(coldMs),
    renderMsMedian: round(samples[Math.floor(samples.length / 2)]),
    renderMsMax: round(samples[samples.length - 1]),
  }),
);
