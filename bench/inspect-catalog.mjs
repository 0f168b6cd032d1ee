// Measures the inspector's Catalog page over a generated tree of skills (default 2,000) in headless
// Chromium: time from navigation start until the catalog view is on the page and laid out — the budget
// summary (how many skills are listed in full, shortened, by name only, left out), the status filter and
// the first page of rows (the page fetches /api/catalog, which computes each skill's place in the budgeted
// catalog block). Then, on the same page, that the status filter lists exactly the skills the budget left
// out, and how long showing every row takes (`allRowsMs`, click to rows laid out).
// Floor, measured in the same run and browser: a static HTML page holding the same summary and the same
// first rows, served by a bare node:http server: what showing that view costs at the least.
// Build first (`npm run build`), needs /usr/bin/chromium. Then: npx node bench/inspect-catalog.mjs [N=2000]
// Prints one JSON object.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../test/e2e/support/chromium.mjs";

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

const browser = await launchChromium();
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });

// Time since navigation start when the view (summary and rows) arrived, laid out: noted in the page by a
// MutationObserver installed before any script of the page runs, so polling from outside adds nothing.
await context.addInitScript(() => {
  new MutationObserver((_records, observer) => {
    const table = document.querySelector("#catalog");
    if (table === null || document.querySelector("#catalog-summary") === null) return;
    if (table.querySelector("tbody tr") === null) return;
    table.getBoundingClientRect(); // style and layout included in the figure
    window.__rowsAt = performance.now();
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
});

/** Opens `url` in fresh pages; milliseconds from navigation start until the view is laid out (median of RUNS, first discarded). */
async function measure(url, inspect) {
  const samples = [];
  let found;
  for (let i = 0; i <= RUNS; i++) {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "commit" });
    await page.waitForFunction(() => window.__rowsAt !== undefined, undefined, {
      polling: 50,
      timeout: 60_000,
    });
    const ms = await page.evaluate(() => window.__rowsAt);
    if (i > 0) samples.push(ms);
    if (i === RUNS) found = await inspect(page);
    await page.close();
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], max: samples[samples.length - 1], found };
}

const rowCount = (page) => page.evaluate(() => document.querySelectorAll("#catalog tbody tr").length);

const page = await measure(`${inspector.url}#/catalog`, async (p) => {
  const marks = await p.evaluate(() => {
    const summary = document.querySelector("#catalog-summary");
    return { ...summary.dataset, summary: summary.textContent };
  });
  const firstRows = await rowCount(p);
  // The status filter lists exactly the skills the budget left out (every one of them once shown in full).
  await p.selectOption("#catalog-status", "left-out");
  if (!(await p.locator("#catalog-all").isHidden())) await p.click("#catalog-all");
  const leftOutListed = await p.evaluate(() => [
    document.querySelectorAll("#catalog tbody tr").length,
    document.querySelectorAll('#catalog tbody tr:not([data-status="left-out"])').length,
  ]);
  // Every row: back to every status, then "Show all".
  await p.selectOption("#catalog-status", "");
  const t0 = await p.evaluate((n) => {
    window.__allAt = undefined;
    new MutationObserver((_r, o) => {
      if (document.querySelectorAll("#catalog tbody tr").length < n) return;
      document.querySelector("#catalog").getBoundingClientRect();
      window.__allAt = performance.now();
      o.disconnect();
    }).observe(document.querySelector("#catalog tbody"), { childList: true });
    return performance.now();
  }, N);
  await p.click("#catalog-all");
  await p.waitForFunction(() => window.__allAt !== undefined, undefined, { polling: 50, timeout: 60_000 });
  const allRowsMs = (await p.evaluate(() => window.__allAt)) - t0;
  return { marks, firstRows, leftOutListed, allRowsMs, allRows: await rowCount(p) };
});

const esc = (s) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const floorHtml = `<!doctype html><meta charset="utf-8"><title>floor</title><p id="catalog-summary">${esc(page.found.marks.summary)}</p><table id="catalog"><tbody>${view.skills
  .slice(0, page.found.firstRows)
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
const floor = await measure(`http://127.0.0.1:${floorServer.address().port}/`, async () => undefined);

await browser.close();
await inspector.close();
await store.close();
floorServer.close();
rmSync(tmp, { recursive: true, force: true });

const round = (x) => Math.round(x * 10) / 10;
const { marks, firstRows, leftOutListed, allRowsMs, allRows } = page.found;
console.log(
  JSON.stringify({
    skills: N,
    catalogBudget: BUDGET,
    catalogTokens: view.stats.tokens,
    full: Number(marks.full),
    shortened: Number(marks.shortened),
    nameOnly: Number(marks.nameOnly),
    leftOut: Number(marks.leftOut),
    summary: marks.summary,
    leftOutFilterRows: leftOutListed[0],
    leftOutFilterExact: leftOutListed[0] === Number(marks.leftOut) && leftOutListed[1] === 0,
    firstRows,
    apiColdMs: round(apiColdMs),
    renderMsMedian: round(page.median),
    renderMsMax: round(page.max),
    floorMsMedian: round(floor.median),
    ratioToFloor: Math.round((page.median / floor.median) * 100) / 100,
    underOneSecond: page.max < 1_000,
    allRows,
    allRowsMs: round(allRowsMs),
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
  }),
);
