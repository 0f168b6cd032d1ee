#!/usr/bin/env node
// A skills server at scale (issue 43). Prints one JSON object.
//
// 1. Listing over stdio at N skills (default 10,000), from a warm metadata cache: a first `skillrt mcp`
//    process lists everything once (filling the catalog's metadata cache and the digest cache beside it)
//    and exits; then a fresh process is timed on its first and its second complete skills/list paging.
//    Floor: a bare MCP SDK server (a child process over stdio too) answering the same pages, recorded from
//    skillrt, from memory. Ratios: skillrt / floor (target ≤ 3 for both).
// 2. HTTP under load: `skillrt mcp --http --no-exec` on the same tree; its RSS once idle (one listing
//    done), then 16 and 64 concurrent SDK clients, each opening its own session and making R requests
//    (skills/list first page, prompts/list first page, resources/read of a random SKILL.md, in turn).
//    Reported per level: throughput (requests/s), p50/p99 latency, errors, the server's peak RSS during it
//    and its ratio to the idle RSS (target: 0 errors at 64, ratio ≤ 2).
//
// The tree is bench/.out/s<N> (bench/gen-skills.mjs, seed 42; made when missing). HOME (and so the
// metadata cache) is a fresh directory under bench/.out, removed at the end.
// Usage: npm run build && npx node bench/mcp-skills-scale.mjs [--skills 10000] [--requests 30] [--levels 16,64]
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, "..", "bin", "skillrt.js");
const { values: opts } = parseArgs({
  options: {
    skills: { type: "string", default: "10000" },
    requests: { type: "string", default: "30" },
    levels: { type: "string", default: "16,64" },
  },
});
const SKILLS = Number(opts.skills);
const REQUESTS = Number(opts.requests);
const LEVELS = opts.levels.split(",").map(Number);

const Page = z.looseObject({
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

const root = tree(SKILLS);
const home = fs.mkdtempSync(path.join(here, ".out", "scale-home-"));
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, NO_COLOR: "1" };
process.on("exit", () => fs.rmSync(home, { recursive: true, force: true }));

async function stdioClient(command, args) {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StdioClientTransport({ command, args, env, stderr: "ignore" }));
  return client;
}

/** Pages skills/list to the end: ms, pages, and the pages themselves (for the floor). */
async function page(client) {
  const pages = [];
  let cursor;
  const t0 = performance.now();
  do {
    const result = await client.request(
      { method: "skills/list", params: cursor === undefined ? {} : { cursor } },
      Page,
    );
    pages.push(result);
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  return { ms: performance.now() - t0, pages };
}

const serve = ["mcp", "--root", root, "--no-exec"];
// Warm-up process: fills the metadata cache and the digest cache, then exits.
{
  const warm = await stdioClient(process.execPath, [bin, ...serve]);
  await page(warm);
  await warm.close();
}
const skillrt = await stdioClient(process.execPath, [bin, ...serve]);
const first = await page(skillrt);
const second = await page(skillrt);
await skillrt.close();

// The floor: the same pages from memory, over stdio, from a bare SDK server.
const pagesFile = path.join(home, "pages.json");
fs.writeFileSync(pagesFile, JSON.stringify(first.pages));
const floorScript = path.join(home, "floor.mjs");
const sdk = (p) =>
  JSON.stringify(path.join(here, "..", "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm", p));
fs.writeFileSync(
  floorScript,
  `import fs from "node:fs";
import { Server } from ${sdk("server/index.js")};
import { StdioServerTransport } from ${sdk("server/stdio.js")};
import { z } from ${JSON.stringify(path.join(here, "..", "node_modules", "zod", "index.js"))};
const pages = JSON.parse(fs.readFileSync(${JSON.stringify(pagesFile)}, "utf8"));
const byCursor = new Map(pages.map((p, i) => [i === 0 ? "" : pages[i - 1].nextCursor, p]));
const server = new Server({ name: "floor", version: "1" }, { capabilities: { extensions: {} } });
server.setRequestHandler(z.object({ method: z.literal("skills/list"), params: z.record(z.string(), z.unknown()).optional() }),
  async (r) => byCursor.get(r.params?.cursor ?? ""));
await server.connect(new StdioServerTransport());
`,
);
const floorClient = await stdioClient(process.execPath, [floorScript]);
const floorFirst = await page(floorClient);
const floorSecond = await page(floorClient);
await floorClient.close();

// HTTP under load.
const tokenFile = path.join(home, "token");
const child = spawn(
  process.execPath,
  [
    bin,
    ...serve,
    "--http",
    "--token-file",
    tokenFile,
    "--sessions-per-client",
    "200",
    "--max-sessions",
    "400",
  ],
  { env, stdio: ["ignore", "pipe", "pipe"] },
);
const url = await new Promise((resolve, reject) => {
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => {
    err += d;
  });
  child.stdout.on("data", (d) => {
    out += d;
    if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
  });
  child.once("exit", (code) => reject(new Error(`skillrt mcp --http exited ${code}: ${err}`)));
});
const headers = { Authorization: `Bearer ${fs.readFileSync(tokenFile, "utf8").trim()}` };
const rss = () =>
  Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

async function httpClient() {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}
{
  const c = await httpClient();
  await page(c);
  await c.close();
}
await new Promise((r) => setTimeout(r, 500));
const idle = rss();
const skillUris = first.pages.flatMap((p) => p.skills.map((s) => s.uri));

const pct = (xs, p) => {
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  return +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1);
};

async function level(clients) {
  const lat = [];
  let errors = 0;
  let peak = rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 50);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      let client;
      try {
        client = await httpClient();
      } catch {
        errors += REQUESTS;
        return;
      }
      for (let i = 0; i < REQUESTS; i++) {
        const t = performance.now();
        try {
          if (i % 3 === 0) await client.request({ method: "skills/list", params: {} }, Page);
          else if (i % 3 === 1) await client.listPrompts();
          else await client.readResource({ uri: skillUris[(c * 7919 + i * 104729) % skillUris.length] });
          lat.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
      await client.close().catch(() => {});
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rss());
  return {
    clients,
    requests: clients * REQUESTS,
    throughput_rps: +(lat.length / seconds).toFixed(1),
    p50_ms: pct(lat, 50),
    p99_ms: pct(lat, 99),
    errors,
    peak_rss_mib: +peak.toFixed(1),
    rss_vs_idle: +(peak / idle).toFixed(2),
  };
}
const levels = [];
for (const n of LEVELS) levels.push(await level(n));
const exited = new Promise((r) => child.once("exit", r));
child.kill("SIGTERM");
await exited;

const ms = (x) => +x.toFixed(1);
console.log(
  JSON.stringify(
    {
      skills: SKILLS,
      listing_stdio: {
        pages: first.pages.length,
        first_ms: ms(first.ms),
        second_ms: ms(second.ms),
        floor_first_ms: ms(floorFirst.ms),
        floor_second_ms: ms(floorSecond.ms),
        first_ratio: +(first.ms / floorFirst.ms).toFixed(2),
        second_ratio: +(second.ms / floorSecond.ms).toFixed(2),
      },
      http: { idle_rss_mib: +idle.toFixed(1), levels },
    },
    null,
    2,
  ),
);
process.exit(0);
