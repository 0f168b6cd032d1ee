// Measures session store latency (put/get/list) for memory and SQLite (synchronous FULL and NORMAL).
// Run: npx node bench/session-store.bench.mjs   Prints one JSON object (µs per operation).
import { mkdtempSync, rmSync } from "node:fs";
import "../scripts/register-ts-sources.mjs";
import os from "node:os";
import path from "node:path";

const { createMemoryStore } = await import("../src/store/create-memory-store.ts");
const { createSqliteStore } = await import("../src/store/create-sqlite-store.ts");

// A typical snapshot: a few loaded skills with ledger entries, ~20 KB of JSON.
const snapshot = {
  version: 1,
  loaded: Array.from({ length: 5 }, (_, i) => ({
    name: `skill-${i}`,
    tokens: 1200 + i,
    docs: ["references/a.md"],
  })),
  ledger: Array.from({ length: 100 }, (_, i) => ({
    item: `item-${i}`,
    tokens: i * 7,
    note: "x".repeat(150),
  })),
};
const snapshotBytes = JSON.stringify(snapshot).length;

async function perOp(fn, iterations) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await fn(i);
  return Math.round(Number(process.hrtime.bigint() - start) / 1000 / iterations);
}

async function measure(store, iterations) {
  for (let i = 0; i < 200; i++) await store.put(`s-${i}`, snapshot);
  const put = await perOp((i) => store.put(`s-${i % 200}`, snapshot), iterations);
  const get = await perOp((i) => store.get(`s-${i % 200}`), iterations);
  const list = await perOp(() => store.list({ limit: 50 }), 200);
  await store.close();
  return { putUs: put, getUs: get, list50Us: list };
}

const dir = mkdtempSync(path.join(os.tmpdir(), "skillrt-bench-"));
try {
  const result = {
    bench: "session-store",
    node: process.version,
    snapshotBytes,
    sessions: 200,
    memory: await measure(createMemoryStore(), 2000),
    sqliteFull: await measure(createSqliteStore({ path: path.join(dir, "full.db") }), 500),
    sqliteNormal: await measure(
      createSqliteStore({ path: path.join(dir, "normal.db"), synchronous: "normal" }),
      2000,
    ),
    tmpdir: os.tmpdir(),
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
