// Load test of the session stores under the real turn path: N processes × M shared sessions × K turns
// each, every process running a SkillAgent per session with a scripted model (no network), all against one
// throwaway PostgreSQL cluster (initdb + pg_ctl, fsync on), then the same against one SQLite file.
// Build first (`npm run build`), then: npx node bench/store-load.mjs [N=4] [M=8] [K=5]
// Prints one JSON object: turns/s, store latency p50/p99 (get + put), lock wait p50/p99, lost and
// duplicated turns (must be 0), and a floor: bare sequential store writes per second in one process.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import "../scripts/register-ts-sources.mjs";

const self = fileURLToPath(import.meta.url);
const { openSessionStore } = await import("../dist/store/open-session-store.js");

/** A store whose get/put/lockSession calls are timed into `times`. */
function timed(store, times) {
  const wrap =
    (name, bucket) =>
    async (...args) => {
      const t = performance.now();
      try {
        return await store[name](...args);
      } finally {
        times[bucket].push(performance.now() - t);
      }
    };
  return {
    ...store,
    get: wrap("get", "store"),
    put: wrap("put", "store"),
    list: (...a) => store.list(...a),
    delete: (...a) => store.delete(...a),
    lockSession: wrap("lockSession", "lock"),
    close: () => store.close(),
  };
}

async function worker(url, proc, sessions, turns, schema) {
  const { createSkillAgent } = await import("../dist/engine/create-skill-agent.js");
  const { scriptedModel } = await import("../src/testing/scripted-model.ts");
  const { createCatalog } = await import("../dist/catalog/create-catalog.js");
  const times = { store: [], lock: [] };
  const cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-load-"));
  const store = timed(openSessionStore({ url, cwd, schema }), times);
  const catalog = await createCatalog({ roots: [cwd] });
  const agents = [];
  for (let m = 0; m < sessions; m++) {
    agents.push(
      await createSkillAgent({
        cwd,
        env: {},
        model: scriptedModel([{ text: "ok, noted." }]),
        store,
        sessionId: `s${m}`,
        executor: false,
        catalog,
        lockTimeoutMs: 120_000,
      }),
    );
  }
  let done = 0;
  const startedAt = Date.now();
  for (let k = 0; k < turns; k++) {
    // Each round visits the sessions in a different order, so processes collide on sessions all the time.
    const order = agents.map((_a, i) => i).sort(() => Math.random() - 0.5);
    for (const m of order) {
      await agents[m].send(`p${proc} s${m} t${k}`);
      done++;
    }
  }
  const endedAt = Date.now();
  for (const agent of agents) await agent.close();
  await store.close();
  await rm(cwd, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify({ done, times, startedAt, endedAt })}\n`);
}

function runWorker(url, proc, sessions, turns, schema) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [self, "--worker", url, String(proc), String(sessions), String(turns), schema ?? ""],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`worker exit ${code}`)),
    );
  });
}

function percentile(values, p) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 100) / 100;
}

/** Bare sequential writes of a conversation-sized snapshot through one store in this process. */
async function floor(url, schema, cwd) {
  const store = openSessionStore({ url, cwd, schema: schema === undefined ? undefined : `${schema}_floor` });
  const snapshot = {
    version: 1,
    messages: Array.from({ length: 20 }, (_v, i) => ({ role: "user", content: `m${i}` })),
  };
  await store.put("warm", snapshot);
  const n = 200;
  const t = performance.now();
  for (let i = 0; i < n; i++) await store.put("floor", snapshot);
  const seconds = (performance.now() - t) / 1000;
  await store.close();
  return Math.round((n / seconds) * 10) / 10;
}

async function measure(label, url, schema, n, m, k, cwd) {
  const results = await Promise.all(Array.from({ length: n }, (_v, p) => runWorker(url, p, m, k, schema)));
  // The turn phase: from the first process starting its turns to the last finishing (startup excluded).
  const seconds =
    (Math.max(...results.map((r) => r.endedAt)) - Math.min(...results.map((r) => r.startedAt))) / 1000;
  const store = openSessionStore({ url, cwd, schema });
  let lost = 0;
  let duplicated = 0;
  for (let s = 0; s < m; s++) {
    const saved = (await store.get(`s${s}`, "conversation"))?.data;
    const users = (saved?.messages ?? []).filter((x) => x.role === "user").map((x) => String(x.content));
    for (let p = 0; p < n; p++) {
      for (let t = 0; t < k; t++) {
        const count = users.filter((u) => u === `p${p} s${s} t${t}`).length;
        if (count === 0) lost++;
        if (count > 1) duplicated += count - 1;
      }
    }
  }
  await store.close();
  const storeTimes = results.flatMap((r) => r.times.store);
  const lockTimes = results.flatMap((r) => r.times.lock);
  const turns = results.reduce((sum, r) => sum + r.done, 0);
  const floorPutsPerSec = await floor(url, schema, cwd);
  const turnsPerSec = Math.round((turns / seconds) * 10) / 10;
  return {
    store: label,
    turns,
    seconds: Math.round(seconds * 100) / 100,
    turnsPerSec,
    storeLatencyMs: {
      p50: percentile(storeTimes, 50),
      p99: percentile(storeTimes, 99),
      ops: storeTimes.length,
    },
    lockWaitMs: { p50: percentile(lockTimes, 50), p99: percentile(lockTimes, 99) },
    lostTurns: lost,
    duplicatedTurns: duplicated,
    floorPutsPerSec,
    ratioTurnsToFloor: Math.round((turnsPerSec / floorPutsPerSec) * 1000) / 1000,
  };
}

if (process.argv[2] === "--worker") {
  const [, , , url, proc, sessions, turns, schema] = process.argv;
  await worker(url, Number(proc), Number(sessions), Number(turns), schema === "" ? undefined : schema);
} else {
  const N = Number(process.argv[2] ?? 4);
  const M = Number(process.argv[3] ?? 8);
  const K = Number(process.argv[4] ?? 5);
  const { startPostgresCluster } = await import("../test/support/postgres-cluster.ts");
  const cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-load-main-"));
  const cluster = await startPostgresCluster();
  try {
    const postgres = await measure("postgres", cluster.url, "load", N, M, K, cwd);
    const sqlite = await measure("sqlite", `sqlite:${path.join(cwd, "load.db")}`, undefined, N, M, K, cwd);
    const result = {
      bench: "store-load",
      processes: N,
      sessions: M,
      turnsPerProcessPerSession: K,
      model: "scripted (no network, no delay)",
      cpus: os.cpus().length,
      loadAverage: os.loadavg().map((l) => Math.round(l * 10) / 10),
      results: [postgres, sqlite],
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (postgres.lostTurns + postgres.duplicatedTurns + sqlite.lostTurns + sqlite.duplicatedTurns > 0) {
      process.exitCode = 1;
    }
  } finally {
    await cluster.stop();
    await rm(cwd, { recursive: true, force: true });
  }
}
