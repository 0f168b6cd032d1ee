#!/usr/bin/env node
// The longest event-loop stall a user's server sees while an agent runs its first turn over 10,000 skills
// (bench/skill-trees.mjs), measured by a timer in the same process (a 1 ms interval; a stall is the gap
// between two ticks). The turn is a `createSkillAgent` turn whose mock model first calls `skill_search`
// (the catalog at 10,000 skills does not fit its budget, so the turn also matches skills to the request),
// then answers. Floor, measured the same way in the same process: the same turn shape with a bare AI SDK
// `streamText` and a no-op tool. Also reported: the longest stall while the catalog is created (scan) and
// while the agent is created, and the catalog's cold start (scan, cache written) beside its warm start
// (from the metadata cache; the agent runs over this one). Each round is a fresh process (modules, tokenizer tables, catalog and index
// all cold) running floor, then agent. Prints one JSON line: medians over the rounds (and the worst turn).
// Usage: npm run build && npx node bench/stall.mjs [N=10000] [rounds=5]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { stepCountIs, streamText, tool } from "ai";
import { z } from "zod";
import { createCatalog } from "../dist/catalog/create-catalog.js";
import { createSkillAgent } from "../dist/engine/create-skill-agent.js";
import { instantModel } from "./mock-model.mjs";
import { median, round, skillTree } from "./skill-trees.mjs";

const n = Number(process.argv[2] ?? 10000);
const rounds = Number(process.argv[3] ?? 5);
const root = skillTree(n);

/** Calls `toolName` with `input`, then answers. */
const searchingModel = (toolName, input) => instantModel((n) => (n === 0 ? { toolName, input } : undefined));

/** Runs `work` with a 1 ms timer ticking; the longest gap between ticks (or to the end) in ms. */
async function longestStall(work) {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    const value = await work();
    longest = Math.max(longest, performance.now() - last);
    return { longest, value };
  } finally {
    clearInterval(timer);
  }
}

const query = { query: "convert pdf invoices to csv" };
const noop = tool({
  description: "no-op",
  inputSchema: z.object({ query: z.string() }),
  execute: async () => "",
});
/** One round, in a fresh process (what it loads and builds is cold): stalls in ms. */
async function round1() {
  const floor = await longestStall(async () => {
    const result = streamText({
      model: searchingModel("noop", query),
      prompt: "Which skill converts PDF invoices to CSV?",
      tools: { noop },
      stopWhen: stepCountIs(3),
    });
    await result.consumeStream();
  });
  // Cold: a scan that writes the metadata cache; warm: a second catalog from that cache (a stat per
  // folder and file, no SKILL.md read), which the agent then uses, as a second process start would.
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillrt-stall-cache-"));
  let start = performance.now();
  const scan = await longestStall(() => createCatalog({ roots: [root], cacheDir }));
  const coldMs = performance.now() - start;
  start = performance.now();
  const warm = await longestStall(() => createCatalog({ roots: [root], cacheDir }));
  const warmMs = performance.now() - start;
  const catalog = warm.value;
  const created = await longestStall(() =>
    createSkillAgent({
      model: searchingModel("skill_search", query),
      catalog,
      executor: false,
      env: {},
    }),
  );
  const agent = created.value;
  start = performance.now();
  const turn = await longestStall(() => agent.send("Which skill converts PDF invoices to CSV?"));
  const turnMs = performance.now() - start;
  if (!turn.value.toolCalls.some((c) => c.toolName === "skill_search" && !c.isError))
    throw new Error("the turn did not search");
  await agent.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
  return {
    floor: floor.longest,
    scan: scan.longest,
    create: created.longest,
    turn: turn.longest,
    turnMs,
    coldMs,
    warmMs,
    warmStall: warm.longest,
  };
}

if (process.argv[4] === "--round") {
  process.stdout.write(JSON.stringify(await round1()));
} else {
  const samples = {
    floor: [],
    scan: [],
    create: [],
    turn: [],
    turnMs: [],
    coldMs: [],
    warmMs: [],
    warmStall: [],
  };
  for (let r = 0; r < rounds; r++) {
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), String(n), "1", "--round"], {
      encoding: "utf8",
    });
    if (child.status !== 0) throw new Error(`round ${r}: exit ${child.status}: ${child.stderr}`);
    const one = JSON.parse(child.stdout);
    for (const key of Object.keys(samples)) samples[key].push(one[key]);
  }
  process.stdout.write(
    `${JSON.stringify({
      n,
      rounds,
      first_turn_stall_ms: round(median(samples.turn)),
      first_turn_stall_max_ms: round(Math.max(...samples.turn)),
      first_turn_ms: round(median(samples.turnMs)),
      floor_turn_stall_ms: round(median(samples.floor)),
      catalog_scan_stall_ms: round(median(samples.scan)),
      agent_create_stall_ms: round(median(samples.create)),
      catalog_cold_ms: round(median(samples.coldMs)),
      catalog_warm_ms: round(median(samples.warmMs)),
      catalog_warm_stall_ms: round(median(samples.warmStall)),
      target_ms: 100,
      load: round(os.loadavg()[0]),
    })}\n`,
  );
}
