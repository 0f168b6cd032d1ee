#!/usr/bin/env node
// Time from starting a process to its first model request, as a user of `skillrt ask` and of a library
// agent (the README's `createSkillAgent({ skills })` program, importing the package's entries in
// dist/lib/) waits for it, at 0 / 2,500 / 10,000 skills (bench/skill-trees.mjs), cold (empty cache
// directory) and warm (the cache a previous run left). A
// loopback provider in this process (skillrt/test's startLoopbackProvider, OpenAI wire format) records
// when each request arrives. Floor, in the same alternation: a bare `node` process POSTing the very
// request body `skillrt ask` sent at that N (fetch). Also timed: warm `skillrt list --json` over the same
// root (start to exit), the other yardstick of the target. Runs alternate floor, ask cold, ask warm,
// ask in a project, library cold, library warm, list warm; HOME is an empty folder, the working directory
// a fresh one — so ask warm also creates its session database (.skillrt/sessions.db) — except for "ask in
// a project": warm cache, and the working directory of the earlier such runs, where the database exists
// (a user's next `skillrt ask` in the same project).
// Prints one JSON line per N: medians of ms, and the ratios the target names (ask warm ≤ 2× floor at 0,
// ≤ 2× warm list at 10,000), for ask warm in a fresh directory and in a project.
// BENCH_BEFORE=DIR (a checkout of an earlier round, built) also times its `ask` and library agent (cold and
// warm, fresh directory) in the same alternation and prints their medians beside these, as `before`.
// Usage: npm run build && npx node bench/first-request.mjs [N ...]   (default 0 2500 10000; PAIRS=5)
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startLoopbackProvider } from "../dist/testing/start-loopback-provider.js";
import { median, round, skillTree } from "./skill-trees.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, "..", "bin/skillrt.js");
const node = process.execPath;
const sizes = process.argv.slice(2).map(Number);
if (sizes.length === 0) sizes.push(0, 2500, 10000);
const pairs = Number(process.env.PAIRS) || 5;
const beforeDir = process.env.BENCH_BEFORE ? path.resolve(process.env.BENCH_BEFORE) : undefined;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "skillrt-first-request-"));
const home = path.join(tmp, "home");
fs.mkdirSync(home);
const provider = await startLoopbackProvider("openai", []);
const env = {
  PATH: process.env.PATH,
  HOME: home,
  NO_COLOR: "1",
  OPENAI_BASE_URL: provider.baseURL,
  OPENAI_API_KEY: "bench",
  AGENT_MODEL: "loopback",
};

const floorScript = path.join(tmp, "floor.mjs");
fs.writeFileSync(
  floorScript,
  `import { readFileSync } from "node:fs";
const body = readFileSync(process.argv[2], "utf8");
const res = await fetch(process.argv[3] + "/chat/completions", {
  method: "POST",
  headers: { "content-type": "application/json", authorization: "Bearer bench" },
  body,
});
await res.text();
`,
);
/** The README's library agent over the package at `pkg` (its bundled entries, dist/lib/). */
function libraryScript(pkg, name) {
  const file = path.join(tmp, name);
  fs.writeFileSync(
    file,
    `import { createSkillAgent } from ${JSON.stringify(path.join(pkg, "dist/lib/index.js"))};
import { fromEnvironment } from ${JSON.stringify(path.join(pkg, "dist/lib/node.js"))};
const agent = await createSkillAgent(await fromEnvironment({ roots: [process.argv[2]], store: false }));
try {
  await agent.send("hi");
} finally {
  await agent.close();
}
`,
  );
  return file;
}
const libScript = libraryScript(path.join(here, ".."), "library-agent.mjs");
const beforeLib = beforeDir === undefined ? undefined : libraryScript(beforeDir, "library-agent-before.mjs");
const beforeBin = beforeDir === undefined ? undefined : path.join(beforeDir, "bin/skillrt.js");

/**
 * Runs `args` in `project` (default: a fresh directory, removed after); ms from spawn to the first request
 * it made (undefined: none) and to its exit.
 */
function run(args, extraEnv, project) {
  const cwd = project ?? fs.mkdtempSync(path.join(tmp, "cwd-"));
  const before = provider.requests.length;
  provider.script.push({ text: "ok" }, { text: "ok" });
  const start = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, {
      cwd,
      env: { ...env, ...extraEnv },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const exit = Date.now() - start;
      if (project === undefined) fs.rmSync(cwd, { recursive: true, force: true });
      if (code !== 0) return reject(new Error(`${args.join(" ")}: exit ${code}: ${stderr}`));
      const request = provider.requests[before];
      resolve({ request: request === undefined ? undefined : request.at - start, exit, body: request?.body });
    });
  });
}

for (const n of sizes) {
  const root = skillTree(n);
  const cold = path.join(tmp, `cold-${n}`);
  const warm = path.join(tmp, `warm-${n}`);
  const project = fs.mkdtempSync(path.join(tmp, `project-${n}-`));
  const ask = [bin, "ask", "hi", "--root", root];
  const list = [bin, "list", "--json", "--root", root];
  // Priming: the request body for the floor, and the warm cache (written by list and by ask).
  const primed = await run(ask, { SKILLRT_CACHE_DIR: warm });
  await run(list, { SKILLRT_CACHE_DIR: warm });
  await run(ask, { SKILLRT_CACHE_DIR: warm }, project);
  await run([libScript, root], { SKILLRT_CACHE_DIR: warm });
  const beforeAsk = beforeBin === undefined ? undefined : [beforeBin, "ask", "hi", "--root", root];
  const beforeWarm = path.join(tmp, `before-warm-${n}`);
  if (beforeAsk !== undefined) {
    await run(beforeAsk, { SKILLRT_CACHE_DIR: beforeWarm });
    await run([beforeLib, root], { SKILLRT_CACHE_DIR: beforeWarm });
  }
  const b = { askCold: [], askWarm: [], libCold: [], libWarm: [] };
  const bodyFile = path.join(tmp, `body-${n}.json`);
  fs.writeFileSync(bodyFile, JSON.stringify(primed.body));
  const t = { floor: [], askCold: [], askWarm: [], askProject: [], libCold: [], libWarm: [], listWarm: [] };
  for (let i = 0; i < pairs; i++) {
    t.floor.push((await run([floorScript, bodyFile, provider.baseURL], {})).request);
    fs.rmSync(cold, { recursive: true, force: true });
    t.askCold.push((await run(ask, { SKILLRT_CACHE_DIR: cold })).request);
    t.askWarm.push((await run(ask, { SKILLRT_CACHE_DIR: warm })).request);
    t.askProject.push((await run(ask, { SKILLRT_CACHE_DIR: warm }, project)).request);
    fs.rmSync(cold, { recursive: true, force: true });
    t.libCold.push((await run([libScript, root], { SKILLRT_CACHE_DIR: cold })).request);
    t.libWarm.push((await run([libScript, root], { SKILLRT_CACHE_DIR: warm })).request);
    t.listWarm.push((await run(list, { SKILLRT_CACHE_DIR: warm })).exit);
    if (beforeAsk !== undefined) {
      fs.rmSync(cold, { recursive: true, force: true });
      b.askCold.push((await run(beforeAsk, { SKILLRT_CACHE_DIR: cold })).request);
      b.askWarm.push((await run(beforeAsk, { SKILLRT_CACHE_DIR: beforeWarm })).request);
      fs.rmSync(cold, { recursive: true, force: true });
      b.libCold.push((await run([beforeLib, root], { SKILLRT_CACHE_DIR: cold })).request);
      b.libWarm.push((await run([beforeLib, root], { SKILLRT_CACHE_DIR: beforeWarm })).request);
    }
  }
  const m = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, median(v)]));
  process.stdout.write(
    `${JSON.stringify({
      n,
      runs: pairs,
      floor_node_request_ms: m.floor,
      ask_cold_ms: m.askCold,
      ask_warm_ms: m.askWarm,
      ask_project_ms: m.askProject,
      library_cold_ms: m.libCold,
      library_warm_ms: m.libWarm,
      list_warm_exit_ms: m.listWarm,
      ...(beforeAsk === undefined
        ? {}
        : {
            before: {
              ask_cold_ms: median(b.askCold),
              ask_warm_ms: median(b.askWarm),
              library_cold_ms: median(b.libCold),
              library_warm_ms: median(b.libWarm),
            },
          }),
      ask_warm_vs_floor: round(m.askWarm / m.floor),
      ask_warm_vs_list_warm: round(m.askWarm / m.listWarm),
      ask_project_vs_floor: round(m.askProject / m.floor),
      ask_project_vs_list_warm: round(m.askProject / m.listWarm),
      load: round(os.loadavg()[0]),
    })}\n`,
  );
}
await provider.close();
fs.rmSync(tmp, { recursive: true, force: true });
