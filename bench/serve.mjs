#!/usr/bin/env node
// skillrt serve: what the HTTP chat service costs a client. Prints one JSON object.
//
// 1. Time to first streamed byte, and to the first text delta, of a one-step turn (the model answers
//    text at once) through `skillrt serve` (POST /api/chat, a fresh agent per request over Postgres)
//    against the same turn through `createSkillAgent` in the bench's own process on the same store and
//    catalog — made per turn as a route would (`in_process_fresh`), and kept from turn to turn
//    (`in_process_kept`). Floor: the loopback provider's own first streamed byte, asked directly.
// 2. Throughput: 16 clients, each its own conversation, each turn sent to the other of two replicas (so
//    every turn resumes from the store on a process that did not run the last one): turns/s, latency of
//    a whole turn p50/p99, errors, and each replica's memory (VmRSS now, VmHWM peak).
//
// The model is the shipped loopback provider (OpenAI wire format, no delay): what is measured is
// skillrt's part. PostgreSQL is a throwaway cluster (test/support/postgres-cluster.ts).
// Usage: npm run build && npx node bench/serve.mjs [--turns 20] [--clients 16] [--per-client 8]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.join(here, "..");
const bin = path.join(repo, "bin", "skillrt.js");
const examples = path.join(repo, "examples", "skills");
const { values: opts } = parseArgs({
  options: {
    turns: { type: "string", default: "20" },
    clients: { type: "string", default: "16" },
    "per-client": { type: "string", default: "8" },
  },
});
const TURNS = Number(opts.turns);
const CLIENTS = Number(opts.clients);
const PER_CLIENT = Number(opts["per-client"]);
const TOKEN = "bench-serve-token-0123456789abcdefghijklmnop";

const { startLoopbackProvider } = await import(path.join(repo, "dist", "lib", "test-kit.js"));
const { createCatalog, createPostgresStore, createSkillAgent, loadModelConfig, resolveModel } = await import(
  path.join(repo, "dist", "lib", "index.js")
);
const { startPostgresCluster } = await import("../test/support/postgres-cluster.ts");

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const round = (n) => Math.round(n * 100) / 100;
const stats = (values) => ({ p50: round(quantile(values, 0.5)), p99: round(quantile(values, 0.99)) });

function memoryOf(pid) {
  const text = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(text)?.[1] ?? Number.NaN);
  return { rssMB: round(kb("VmRSS") / 1024), peakMB: round(kb("VmHWM") / 1024) };
}

function startServe(cwd, env) {
  const child = spawn(
    process.execPath,
    [bin, "serve", "--token-file", "token", "--root", examples, "--turns-per-minute", "100000"],
    {
      cwd,
      env: { PATH: process.env.PATH, HOME: cwd, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let err = "";
  child.stderr.on("data", (d) => {
    err += d;
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve({ url: out.split("\n")[0], child });
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

/** One turn over HTTP: ms to the first body byte, to the first text delta, and to the end. */
async function httpTurn(url, id, text) {
  const started = performance.now();
  const response = await fetch(`${url}/api/chat`, {
    method: "POST",
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      id,
      messages: [{ id: `m-${Math.random()}`, role: "user", parts: [{ type: "text", text }] }],
    }),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  const decoder = new TextDecoder();
  let firstByte;
  let firstText;
  let body = "";
  for await (const chunk of response.body) {
    firstByte ??= performance.now() - started;
    body += decoder.decode(chunk, { stream: true });
    if (firstText === undefined && body.includes('"type":"text-delta"'))
      firstText = performance.now() - started;
  }
  if (!body.includes('"type":"finish"')) throw new Error(`no finish part: ${body.slice(-300)}`);
  return { firstByte, firstText, total: performance.now() - started };
}

/** The provider's own first streamed byte: the floor. */
async function providerFirstByte(baseURL) {
  const started = performance.now();
  const response = await fetch(`${baseURL}/chat/completions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: "Bearer sk-x" },
    body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "hi" }] }),
  });
  const reader = response.body.getReader();
  await reader.read();
  const ms = performance.now() - started;
  await reader.cancel();
  return ms;
}

const cluster = await startPostgresCluster();
const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "skillrt-bench-serve-"));
const provider = await startLoopbackProvider("openai", []);
const env = {
  OPENAI_BASE_URL: provider.baseURL,
  OPENAI_API_KEY: "sk-loopback",
  AGENT_MODEL: "loopback-model",
  SKILLRT_STORE_URL: cluster.url,
};
fs.writeFileSync(path.join(cwd, "token"), `${TOKEN}\n`, { mode: 0o600 });
fs.writeFileSync(path.join(cwd, "skillrt.config.json"), JSON.stringify({ store: { schema: "bench_serve" } }));
const replicas = [await startServe(cwd, env), await startServe(cwd, env)];
try {
  // Warm-up: both replicas and the provider, untimed.
  for (const r of replicas) await httpTurn(r.url, `warm-${r.child.pid}`, "hello");
  const floor = [];
  const serve = { firstByte: [], firstText: [] };
  for (let i = 0; i < TURNS; i++) {
    floor.push(await providerFirstByte(provider.baseURL));
    const t = await httpTurn(replicas[0].url, `ttfb-serve-${i % 4}`, `question ${i}`);
    serve.firstByte.push(t.firstByte);
    serve.firstText.push(t.firstText);
  }

  // In-process: the same turn through createSkillAgent, same store (its own schema) and catalog.
  const model = resolveModel(await loadModelConfig({ env }));
  const catalog = await createCatalog({ roots: [{ path: examples, scope: "user" }] });
  const store = createPostgresStore({ url: cluster.url, schema: "bench_inproc" });
  const firstText = async (agent, text) => {
    const started = performance.now();
    let first;
    await agent.send(text, {
      onEvent: (e) => {
        if (e.type === "text-delta") first ??= performance.now() - started;
      },
    });
    return first;
  };
  const fresh = [];
  const kept = [];
  const keptAgent = await createSkillAgent({ model, catalog, store, sessionId: "kept", executor: "auto" });
  await firstText(keptAgent, "warm");
  for (let i = 0; i < TURNS; i++) {
    // From the request to the first text, as a route making an agent per request sees it.
    const started = performance.now();
    const agent = await createSkillAgent({
      model,
      catalog,
      store,
      sessionId: `fresh-${i % 4}`,
      executor: "auto",
    });
    const made = performance.now() - started;
    fresh.push(made + (await firstText(agent, `question ${i}`)));
    await agent.close();
    kept.push(await firstText(keptAgent, `question ${i}`));
  }
  await keptAgent.close();
  await store.close();

  // Throughput: 16 clients, each turn to the other replica.
  const latencies = [];
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 0; i < PER_CLIENT; i++) {
        try {
          const t = await httpTurn(replicas[i % 2].url, `load-${c}`, `turn ${i} of client ${c}`);
          latencies.push(t.total);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;

  const result = {
    bench: "serve",
    model: "loopback provider (OpenAI wire format, no delay)",
    store: "postgres (throwaway cluster)",
    cpus: os.cpus().length,
    loadAverage: os.loadavg().map((l) => round(l)),
    firstByte: {
      turns: TURNS,
      floor_provider_first_byte_ms: stats(floor),
      serve_first_byte_ms: stats(serve.firstByte),
      serve_first_text_ms: stats(serve.firstText),
      in_process_fresh_agent_first_text_ms: stats(fresh),
      in_process_kept_agent_first_text_ms: stats(kept),
      serve_first_text_vs_in_process_fresh: round(quantile(serve.firstText, 0.5) / quantile(fresh, 0.5)),
      serve_first_text_vs_floor: round(quantile(serve.firstText, 0.5) / quantile(floor, 0.5)),
    },
    load: {
      clients: CLIENTS,
      turnsPerClient: PER_CLIENT,
      replicas: 2,
      turns: latencies.length,
      errors,
      turnsPerSecond: round(latencies.length / seconds),
      turn_ms: stats(latencies),
      replicaMemory: replicas.map((r) => memoryOf(r.child.pid)),
    },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (errors > 0) process.exitCode = 1;
} finally {
  for (const r of replicas) r.child.kill("SIGTERM");
  await Promise.all(replicas.map((r) => new Promise((resolve) => r.child.once("exit", resolve))));
  await provider.close();
  await cluster.stop();
  fs.rmSync(cwd, { recursive: true, force: true });
}
