#!/usr/bin/env node
// Overhead of executor.run(["true"]) over a bare child_process.spawn("true"), for the local and
// sandbox executors (interleaved, ≥ 100 iterations each), plus a full runSkillCommand round trip.
// Runs the TypeScript sources directly (Node ≥ 23.6 strips types; a resolve hook maps .js → .ts).
// Usage: npx node bench/run.mjs [iterations]   → prints JSON.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import "./register-ts-sources.mjs";
import os from "node:os";
import path from "node:path";

const src = new URL("../src/exec/", import.meta.url);
const { createLocalExecutor } = await import(new URL("local-executor.ts", src).href);
const { createSandboxExecutor, probeSandbox } = await import(new URL("sandbox-executor.ts", src).href);
const { createWorkspace } = await import(new URL("workspace.ts", src).href);
const { runSkillCommand } = await import(new URL("run-skill-command.ts", src).href);

const iterations = Math.max(100, Number(process.argv[2] ?? 200));

function bare() {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn("true", [], { stdio: ["pipe", "pipe", "pipe"] });
    child.stdin.end();
    child.on("close", () => resolve(performance.now() - started));
  });
}

async function timed(fn) {
  const started = performance.now();
  const result = await fn();
  if (result.exitCode !== 0 && result.status !== "ran")
    throw new Error(`run failed: ${JSON.stringify(result)}`);
  if (result.exitCode !== 0) throw new Error(`exit ${result.exitCode}: ${result.stderr}`);
  return performance.now() - started;
}

function pct(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const round = (n) => Math.round(n * 100) / 100;
function stats(values) {
  return { p50: round(pct(values, 50)), p95: round(pct(values, 95)) };
}

const base = await mkdtemp(path.join(os.tmpdir(), "skillrt-bench-"));
const skillDir = path.join(base, "bench-skill");
await mkdir(path.join(skillDir, "scripts"), { recursive: true });
await writeFile(path.join(skillDir, "SKILL.md"), "---\nname: bench-skill\ndescription: bench\n---\n");
const workspace = await createWorkspace({ baseDir: base, id: "bench" });
const record = { name: "bench-skill", dir: skillDir };
const staged = await workspace.stageSkill(record);
const sandboxOk = probeSandbox().ok;
const executors = {
  local: createLocalExecutor(),
  ...(sandboxOk ? { sandbox: createSandboxExecutor() } : {}),
};
const runDir = await workspace.createRunDir();
const request = {
  command: ["true"],
  cwd: staged.viewDir,
  env: workspace.runEnv(staged, runDir),
  timeoutMs: 10_000,
  mounts: workspace.mounts(staged),
};

const samples = { bare: [], local: [], sandbox: [], skillRunSandbox: [] };
const overhead = { local: [], sandbox: [] };
for (let i = 0; i < 10; i++) {
  await bare();
  for (const ex of Object.values(executors)) await ex.run(request);
}
for (let i = 0; i < iterations; i++) {
  const b = await bare();
  samples.bare.push(b);
  for (const [kind, ex] of Object.entries(executors)) {
    const t = await timed(() => ex.run(request));
    samples[kind].push(t);
    overhead[kind].push(t - b);
  }
  if (sandboxOk) {
    samples.skillRunSandbox.push(
      await timed(() =>
        runSkillCommand(
          { name: "bench-skill", command: ["true"] },
          { workspace, executor: executors.sandbox, getSkill: () => record },
        ),
      ),
    );
  }
}
await workspace.dispose();
await rm(base, { recursive: true, force: true });

const report = {
  iterations,
  node: process.version,
  sandboxAvailable: sandboxOk,
  bareSpawnMs: stats(samples.bare),
  localRunMs: stats(samples.local),
  localOverheadMs: stats(overhead.local),
  ...(sandboxOk
    ? {
        sandboxRunMs: stats(samples.sandbox),
        sandboxOverheadMs: stats(overhead.sandbox),
        skillRunSandboxMs: stats(samples.skillRunSandbox),
        targetSandboxOverheadP50Ms: 25,
        meetsTarget: stats(overhead.sandbox).p50 <= 25,
      }
    : {}),
};
console.log(JSON.stringify(report, null, 2));
