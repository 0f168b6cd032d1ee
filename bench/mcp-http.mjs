#!/usr/bin/env node
// skillrt mcp --http under load, and at scale. Prints one JSON object.
//
// 1. Concurrency: 16 MCP SDK clients (Streamable HTTP, one session each) against one `skillrt mcp
//    --http --no-exec` over 2,500 generated skills. Each pages through skills/list (every page) once,
//    then reads 100 random skill files with resources/read. Reported: latency p50/p99 of a whole listing,
//    of one listing page and of one read, errors, and the server's memory (VmRSS, VmHWM). The first
//    listing (every digest computed) is timed apart, before the clients start.
//    Floor: a bare node:http server (a child process, as the server is) answering the same requests of
//    the same clients with the same result bytes, recorded from skillrt just before — what HTTP, JSON
//    and the SDK client cost without any skill work.
// 2. Scale: for 250, 2,500 and 10,000 skills, one SDK client pages resources/list and skills/list to the
//    end (pages, bytes, time, whether the connection survived), then times 300 resources/read of random
//    files: read time should not grow with the number of skills.
//
// Trees are bench/.out/s<N> (bench/gen-skills.mjs, seed 42; made when missing).
// Usage: npm run build && npx node bench/mcp-http.mjs [--skills 2500] [--clients 16] [--reads 100] [--scale 250,2500,10000]
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, "..", "bin", "skillrt.js");
const { values: opts } = parseArgs({
  options: {
    skills: { type: "string", default: "2500" },
    clients: { type: "string", default: "16" },
    reads: { type: "string", default: "100" },
    scale: { type: "string", default: "250,2500,10000" },
  },
});
const SKILLS = Number(opts.skills);
const CLIENTS = Number(opts.clients);
const READS = Number(opts.reads);
const SCALE = opts.scale === "" ? [] : opts.scale.split(",").map(Number);

const ListResult = z.looseObject({
  skills: z.array(z.looseObject({ uri: z.string() })),
  nextCursor: z.string().optional(),
});

function tree(n) {
  const root = path.join(here, ".out", `s${n}`);
  if (!(fs.existsSync(root) && fs.readdirSync(root).length === n)) {
    fs.rmSync(root, { recursive: true, force: true });
    spawnSync(process.execPath, [path.join(here, "gen-skills.mjs"), String(n), root], { stdio: "ignore" });
  }
  return root;
}

/** `skillrt mcp --http` with a fresh token in `tokenFile`; the clients send it. */
async function startSkillrt(args) {
  fs.mkdirSync(path.dirname(tokenFile), { recursive: true });
  fs.rmSync(tokenFile, { force: true });
  // Every client keeps its session open until the end: the per-client session cap must fit them all.
  const perClient = String(Math.max(32, CLIENTS + 1));
  const server = await start([...args, "--token-file", tokenFile, "--sessions-per-client", perClient]);
  headers = { Authorization: `Bearer ${fs.readFileSync(tokenFile, "utf8").trim()}` };
  return server;
}

/** Starts a process whose first stdout line is its URL. */
async function start(args) {
  const child = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, SKILLRT_CACHE: "0" },
  });
  let err = "";
  child.stderr.on("data", (d) => {
    err += d;
  });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
    });
    child.once("exit", (code) => reject(new Error(`exited ${code} before its URL: ${err}`)));
  });
  return {
    url,
    pid: child.pid,
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      return exited;
    },
  };
}

function memory(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss_mib: +(kb("VmRSS") / 1024).toFixed(1), peak_rss_mib: +(kb("VmHWM") / 1024).toFixed(1) };
}

const pct = (xs, p) => {
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  return +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(2);
};
const summary = (xs) => ({ n: xs.length, p50_ms: pct(xs, 50), p99_ms: pct(xs, 99) });

// skillrt mcp --http requires a bearer token: it writes a random one to this file (the floor ignores it).
const tokenFile = path.join(here, ".out", `mcp-http-${process.pid}.token`);
let headers = {};
process.on("exit", () => fs.rmSync(tokenFile, { force: true }));

async function connect(url) {
  const client = new Client({ name: "bench", version: "1" });
  const state = { closed: false };
  client.onclose = () => {
    state.closed = true;
  };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return { client, state };
}

/** Pages skills/list to the end; page and whole-listing latencies go to `lat`. */
async function listSkills(client, lat, record) {
  const entries = [];
  let cursor;
  const t0 = performance.now();
  do {
    const params = cursor === undefined ? {} : { cursor };
    const t = performance.now();
    const page = await client.request({ method: "skills/list", params }, ListResult);
    lat?.page.push(performance.now() - t);
    record?.("skills/list", params, page);
    entries.push(...page.skills);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  lat?.full.push(performance.now() - t0);
  return entries;
}

/** A deterministic choice of `count` file URIs for client `k`. */
function picks(uris, k, count) {
  let a = 0x9e3779b9 ^ (k * 2654435761);
  const out = [];
  for (let i = 0; i < count; i++) {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out.push(uris[((t ^ (t >>> 14)) >>> 0) % uris.length]);
  }
  return out;
}

/** The 16-client workload against `url`. */
async function workload(url, uris) {
  const lat = { full: [], page: [], read: [] };
  let errors = 0;
  let disconnects = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, k) => {
      let session;
      try {
        session = await connect(url);
        await listSkills(session.client, lat);
        for (const uri of picks(uris, k, READS)) {
          const t = performance.now();
          try {
            await session.client.readResource({ uri });
            lat.read.push(performance.now() - t);
          } catch {
            errors++;
          }
        }
      } catch {
        errors++;
      } finally {
        if (session?.state.closed) disconnects++;
        await session?.client.close();
      }
    }),
  );
  return {
    wall_ms: Math.round(performance.now() - t0),
    skills_list_full: summary(lat.full),
    skills_list_page: summary(lat.page),
    resources_read: summary(lat.read),
    errors,
    disconnects,
  };
}

/** The floor server: answers each recorded request with its recorded result bytes. */
const FLOOR = `
import http from "node:http";
import fs from "node:fs";
const answers = new Map(JSON.parse(fs.readFileSync(process.argv[1], "utf8")));
const server = http.createServer((req, res) => {
  if (req.method !== "POST") { res.writeHead(405).end(); return; }
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const msg = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (msg.id === undefined) { res.writeHead(202).end(); return; }
    const result = answers.get(JSON.stringify([msg.method, msg.params ?? {}]));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(result === undefined
      ? JSON.stringify({ jsonrpc: "2.0", id: msg.id, error: { code: -32602, message: "not recorded" } })
      : '{"jsonrpc":"2.0","id":' + JSON.stringify(msg.id) + ',"result":' + result + "}");
  });
});
server.listen(0, "127.0.0.1", () => console.log("http://127.0.0.1:" + server.address().port + "/mcp"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
`;

async function concurrency() {
  const root = tree(SKILLS);
  const server = await startSkillrt([bin, "mcp", "--http", "--no-exec", "--root", root]);
  try {
    const memoryIdle = memory(server.pid);
    // One client lists first: every digest is computed here; the answers are recorded for the floor.
    const answers = new Map();
    const record = (method, params, result) =>
      answers.set(JSON.stringify([method, params]), JSON.stringify(result));
    const first = await connect(server.url);
    const initResult = {
      protocolVersion: "2025-06-18",
      capabilities: first.client.getServerCapabilities(),
      serverInfo: first.client.getServerVersion(),
    };
    const tFirst = performance.now();
    const entries = await listSkills(first.client, undefined, record);
    const firstListingMs = Math.round(performance.now() - tFirst);
    const uris = entries.flatMap((e) => e.resources.map((r) => r.uri));
    const wanted = new Set(Array.from({ length: CLIENTS }, (_, k) => picks(uris, k, READS)).flat());
    for (const uri of wanted) record("resources/read", { uri }, await first.client.readResource({ uri }));
    await first.client.close();

    const measured = await workload(server.url, uris);
    const memoryAfter = memory(server.pid);

    const file = path.join(here, ".out", "mcp-http-floor.json");
    answers.set(JSON.stringify(["initialize", null]), JSON.stringify(initResult));
    fs.writeFileSync(file, JSON.stringify([...answers]));
    const floorServer = await start([
      "--input-type=module",
      "-e",
      FLOOR.replace(
        "answers.get(JSON.stringify([msg.method, msg.params ?? {}]))",
        'answers.get(JSON.stringify([msg.method, msg.method === "initialize" ? null : (msg.params ?? {})]))',
      ),
      file,
    ]);
    let floor;
    try {
      floor = await workload(floorServer.url, uris);
      floor.memory = memory(floorServer.pid);
    } finally {
      await floorServer.stop();
    }
    return {
      skills: entries.length,
      files: uris.length,
      clients: CLIENTS,
      reads_per_client: READS,
      first_listing_ms: firstListingMs,
      skillrt: { ...measured, memory_idle: memoryIdle, memory_after: memoryAfter },
      floor,
      ratio_p50: {
        skills_list_full: +(measured.skills_list_full.p50_ms / floor.skills_list_full.p50_ms).toFixed(2),
        resources_read: +(measured.resources_read.p50_ms / floor.resources_read.p50_ms).toFixed(2),
      },
    };
  } finally {
    await server.stop();
  }
}

async function scale(n) {
  const root = tree(n);
  const server = await startSkillrt([bin, "mcp", "--http", "--no-exec", "--root", root]);
  try {
    const { client, state } = await connect(server.url);
    let pages = 0;
    let bytes = 0;
    let largestPage = 0;
    const resourceUris = [];
    let cursor;
    let t = performance.now();
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      const size = JSON.stringify(page).length;
      bytes += size;
      largestPage = Math.max(largestPage, size);
      pages++;
      resourceUris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    const resourcesList = {
      pages,
      resources: resourceUris.length,
      mib: +(bytes / 2 ** 20).toFixed(1),
      largest_page_kib: Math.round(largestPage / 1024),
      ms: Math.round(performance.now() - t),
    };
    t = performance.now();

    const lat = { full: [], page: [] };
    const entries = await listSkills(client, lat);
    const skillPages = lat.page.length;
    const skillsList = { pages: skillPages, skills: entries.length, ms: Math.round(performance.now() - t) };
    const reads = [];
    let errors = 0;
    const uris = picks(resourceUris, 1, 350);
    for (const [i, uri] of uris.entries()) {
      const r0 = performance.now();
      try {
        await client.readResource({ uri });
        if (i >= 50) reads.push(performance.now() - r0);
      } catch {
        errors++;
      }
    }
    const survived = !state.closed;
    await client.close();
    return {
      skills: n,
      resources_list: resourcesList,
      skills_list: skillsList,
      resources_read: summary(reads),
      errors,
      connection_survived: survived,
      memory: memory(server.pid),
    };
  } finally {
    await server.stop();
  }
}

const out = { bench: "mcp-http", node: process.version };
out.concurrency = await concurrency();
out.scale = [];
for (const n of SCALE) out.scale.push(await scale(n));
console.log(JSON.stringify(out, null, 2));
