#!/usr/bin/env node
// Reload latency: a catalog over N generated skills watches its root; one SKILL.md is edited (its
// description changes) and the time from the write to the change event is measured, minus the debounce.
// The floor is re-reading that one file (read + parse is what the change needs). Also times a no-change
// refresh() (a stat-only re-scan). Prints one JSON line. Usage: npm run build && npx node bench/reload.mjs [N=10000]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const { createCatalog } = await import("../dist/catalog/create-catalog.js");
const n = Number(process.argv[2] ?? 10_000);
const root = path.join(here, ".out", `s${n}`);
if (!(fs.existsSync(root) && fs.readdirSync(root).length === n)) {
  fs.rmSync(root, { recursive: true, force: true });
  spawnSync(process.execPath, [path.join(here, "gen-skills.mjs"), String(n), root], { stdio: "ignore" });
}
const debounceMs = 75;
const catalog = await createCatalog({ roots: [root], watchDebounceMs: debounceMs, maxWatches: n + 100 });
const target = catalog.list()[Math.floor(n / 2)];
const original = fs.readFileSync(target.location, "utf8");
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const latencies = [];
const floors = [];
let waiting;
const stop = catalog.watch((event) => waiting?.(event));
try {
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (let i = 0; i < 9; i++) {
    const text = original.replace(/description: /, `description: Edit ${i}. `);
    const seen = new Promise((resolve) => {
      waiting = resolve;
    });
    const start = performance.now();
    fs.writeFileSync(target.location, text);
    const event = await seen;
    latencies.push(performance.now() - start - debounceMs);
    if (!event.changed.includes(target.name)) throw new Error(`no change event for ${target.name}`);
    const f0 = performance.now();
    fs.readFileSync(target.location, "utf8");
    floors.push(performance.now() - f0);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const refresh = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await catalog.refresh();
    refresh.push(performance.now() - t0);
  }
  process.stdout.write(
    `${JSON.stringify({
      n,
      change_event_after_debounce_ms: Math.round(median(latencies) * 10) / 10,
      read_one_file_ms: Math.round(median(floors) * 100) / 100,
      no_change_refresh_ms: Math.round(median(refresh) * 10) / 10,
      edits: latencies.length,
      load: Math.round(os.loadavg()[0] * 100) / 100,
    })}\n`,
  );
} finally {
  stop();
  fs.writeFileSync(target.location, original);
}
