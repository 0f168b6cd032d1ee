// Measures the inspector's Catalog page over a generated tree of skills (default 2,000) in headless
// Chromium: time from navigation start until every skill's row is in the DOM (the page fetches
// /api/catalog, which computes each skill's place in the budgeted catalog block, then renders the table).
// Floor, measured in the same run and browser: a static HTML page holding an equal table (same names and
// descriptions), served by a bare node:http server: what showing that many rows costs at the least.
// Build first (`npm run build`), needs /usr/bin/chromium. Then: npx node bench/inspect-catalog.mjs [N=2000]
// Prints one JSON object; `shortened`, `nameOnly` and `leftOut` count the skills the page marks so.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { createCatalog } = await import("../dist/catalog/create-catalog.js");
const { createSqliteStore } = await import("../dist/store/create-sqlite-store.js");
const { createCatalogViewer } = await import("../dist/inspect/build-catalog-view.js");
const { createInspector } = await import("../dist/inspect/create-inspector.js");

const N = Number(process.argv[2] ?? 2_000);
const RUNS = 5;
const BUDGET = 2_000;
const tmp = mkdtempSync(path.join(os.tmpdir(), "skillrt-inspect-bench-"));
const skillsDir = path.join(tmp, "skills");
const gen = path.resolve(repo, "../shared/bench/gen-skills.mjs");
execFileSync(process.execPath, [gen, String(N), skillsDir], { stdio: "ignore" });

const catalog = await createCatalog({ roots: [skillsDir] });
const store = createSqliteStore({ path: path.join(tmp, "sessions.db") });
const viewer = createCatalogViewer({ catalog, catalogBudget: BUDGET });
const started = await createInspector({ store, catalog: viewer, port: 0 });
if (!started.ok) throw new Error(started.message);
const { inspector } = started;

// First view: reads and counts every body once (cached per skill record afterwards).
const a0 = performance.now();
const view = await viewer.view();
const apiColdMs = performance.now() - a0;

const esc = (s) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const floorHtml = `<!doctype html><meta charset="utf-8"><title>floor</title><table id="catalog"><tbody>${view.skills
  .map(
    (s) =>
      `<tr data-skill="${esc(s.name)}"><td><strong>${esc(s.name)}</strong><div>${esc(s.description)}</div></td><td>${s.scope}</td><td>${s.status}</td><td>${s.bodyTokens ?? ""}</td><td>—</td></tr>`,
  )
  .join("")}</tbody></table>`;
const floorServer = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(floorHtml);
});
await new Promise((resolve) => floorServer.listen(0, "127.0.0.1", resolve));
const floorUrl = `http://127.0.0.1:${floorServer.address().port}/`;

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });

// Time since navigation start when the last row arrived, noted in the page by a MutationObserver (installed
// before any script of the page runs), so polling from outside adds nothing to the figure.
await context.addInitScript((n) => {
  const done = () => document.querySelectorAll("#catalog tbody tr").length >= n;
  new MutationObserver((_records, observer) => {
    if (done()) {
      window.__rowsAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
}, N);

/** Milliseconds from navigation start until `N` rows are in #catalog (median of RUNS fresh pages, first discarded). */
async function measure(url) {
  const samples = [];
  let marks;
  for (let i = 0; i <= RUNS; i++) {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "commit" });
    await page.waitForFunction(() => window.__rowsAt !== undefined, undefined, {
      polling: 50,
      timeout: 60_000,
    });
    const ms = await page.evaluate(() => window.__rowsAt);
    if (i > 0) samples.push(ms);
    marks ??= await page.evaluate(() => ({
      shortened: document.querySelectorAll('#catalog tr[data-status="shortened"]').length,
      nameOnly: document.querySelectorAll('#catalog tr[data-status="name-only"]').length,
      leftOut: document.querySelectorAll('#catalog tr[data-status="left-out"]').length,
      full: document.querySelectorAll('#catalog tr[data-status="full"]').length,
      summary: document.querySelector("#catalog-summary")?.textContent ?? "",
    }));
    await page.close();
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], max: samples[samples.length - 1], marks };
}

const floor = await measure(floorUrl);
const page = await measure(`${inspector.url}#/catalog`);
await browser.close();
await inspector.close();
await store.close();
floorServer.close();
rmSync(tmp, { recursive: true, force: true });

const round = (x) => Math.round(x * 10) / 10;
console.log(
  JSON.stringify({
    skills: N,
    catalogBudget: BUDGET,
    catalogTokens: view.stats.tokens,
    full: page.marks.full,
    shortened: page.marks.shortened,
    nameOnly: page.marks.nameOnly,
    leftOut: page.marks.leftOut,
    summary: page.marks.summary,
    apiColdMs: round(apiColdMs),
    renderMsMedian: round(page.median),
    renderMsMax: round(page.max),
    floorMsMedian: round(floor.median),
    ratioToFloor: Math.round((page.median / floor.median) * 100) / 100,
    underOneSecond: page.max < 1_000,
  }),
);
