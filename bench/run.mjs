#!/usr/bin/env node
// Overhead of skill_run("true") over a bare child_process.spawn("true"), for the local and sandbox
// executors: each skill_run sample is the full runSkillCommand path (input validation, skill lookup,
// command policy, redactor with a configured secret, staging check of the skill in a workspace, run
// directory, environment, executor, result), as the skill_run tool calls it. Samples are interleaved
// (bare, local, sandbox, bare, …) so machine noise hits every series alike; ≥ 100 iterations each.
// The executor alone (executor.run(["true"]) with a prepared request) is reported too, to show where the
// time goes. Pass check: sandbox skill_run overhead p50 ≤ 25 ms.
// Runs the TypeScript sources directly (Node ≥ 23.6 strips types; a resolve hook maps .js → .ts).
// Usage: npx node bench/run.mjs [iterations]   → prints JSON.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import "../scripts/register-ts-sources.mjs";
import os from "node:os";
import path from "node:path";

const src = new URL("../src/exec/", import.meta.url);
const { createLocalExecutor } = await import(new URL("local-executor.ts", src).href);
const { createSandboxExecutor, probeSandbox } = await import(new URL("sandbox-executor.ts", src).href);
const { createWorkspace } = await import(new URL("create-workspace.ts", src).href);
const { runSkillCommand } = await import(new URL("run-skill-command.ts", src).href);

const iterations = Math.max(100, Number(process.argv[2] ?? 200));
const TARGET_MS = 25;

function bare() {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn("true", [], { stdio: ["pipe", "pipe", "pipe"] });
    child.stdin.end();
    child.on("error", reject);
    child.on("close", () => resolve(performance.now() - started));
  });
}

async function timed(fn) {
  const started = performance.now();
  const result = await fn();
  const elapsed = performance.now() - started;
  if (result.status === "refused") throw new Error(`run refused: ${result.message}`);
  if (result.exitCode !== 0) throw new Error(`exit ${result.exitCode}: ${result.stderr}`);
  return elapsed;
}

function pct(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const round = (n) => Math.round(n * 100) / 100;
const stats = (values) => ({ p50: round(pct(values, 50)), p95: round(pct(values, 95)) });

const base = await mkdtemp(path.join(os.tmpdir(), "skillrt-bench-"));
const skillDir = path.join(base, "bench-skill");
await mkdir(path.join(skillDir, "scripts"), { recursive: true });
await mkdir(path.join(skillDir, "references"), { recursive: true });
await writeFile(
  path.join(skillDir, "SKILL.md"),
  "---\nname: bench-skill\ndescription: bench\n---\n\nRun it.\n",
);
await writeFile(path.join(skillDir, "scripts", "go.sh"), "#!/bin/sh\ntrue\n");
await writeFile(path.join(skillDir, "references", "notes.md"), "# Notes\n");
const record = { name: "bench-skill", dir: skillDir };
const sandboxOk = probeSandbox().ok;
const executors = {
  local: createLocalExecutor(),
  ...(sandboxOk ? { sandbox: createSandboxExecutor() } : {}),
};

// One workspace per executor, as one per session; the skill is staged on the first run and re-used.
const workspaces = {};
for (const kind of Object.keys(executors))
  workspaces[kind] = await createWorkspace({ baseDir: base, id: `bench-${kind}` });
const contexts = Object.fromEntries(
  Object.entries(executors).map(([kind, executor]) => [
    kind,
    {
      workspace: workspaces[kind],
      executor,
      getSkill: (name) => (name === record.name ? record : undefined),
      isLoaded: () => true,
      requireLoaded: true,
      skillEnv: { "bench-skill": { API_TOKEN: "bench-secret-value-0123456789" } },
      policy: { deny: ["curl"] },
      hostDirs: [base],
    },
  ]),
);
const skillRun = (kind) => runSkillCommand({ name: "bench-skill", command: ["true"] }, contexts[kind]);

// Executor alone: a prepared request, no per-run workspace work.
const staged = await workspaces.local.stageSkill(record);
const runDir = await workspaces.local.createRunDir();
const request = {
  command: ["true"],
  cwd: staged.viewDir,
  env: workspaces.local.runEnv(staged, runDir),
  timeoutMs: 10_000,
  mounts: workspaces.local.mounts(staged),
};

const kinds = Object.keys(executors);
const samples = { bare: [] };
const overhead = {};
for (const kind of kinds) {
  samples[`${kind}SkillRun`] = [];
  samples[`${kind}Executor`] = [];
  overhead[`${kind}SkillRun`] = [];
  overhead[`${kind}Executor`] = [];
}
for (let i = 0; i < 10; i++) {
  await bare();
  for (const kind of kinds) {
    await timed(() => skillRun(kind));
    await timed(() => executors[kind].run(request));
  }
}
for (let i = 0; i < iterations; i++) {
  const b = await bare();
  samples.bare.push(b);
  for (const kind of kinds) {
    const run = await timed(() => skillRun(kind));
    samples[`${kind}SkillRun`].push(run);
    overhead[`${kind}SkillRun`].push(run - b);
    const exec = await timed(() => executors[kind].run(request));
    samples[`${kind}Executor`].push(exec);
    overhead[`${kind}Executor`].push(exec - b);
  }
}
for (const ws of Object.values(workspaces)) await ws.dispose();
await rm(base, { recursive: true, force: true });

const series = (kind) => ({
  skillRunMs: stats(samples[`${kind}SkillRun`]),
  skillRunOverheadMs: stats(overhead[`${kind}SkillRun`]),
  executorMs: stats(samples[`${kind}Executor`]),
  executorOverheadMs: stats(overhead[`${kind}Executor`]),
});
const sandboxP50 = sandboxOk ? stats(overhead.sandboxSkillRun).p50 : undefined;
const report = {
  iterations,
  node: process.version,
  sandboxAvailable: sandboxOk,
  bareSpawnMs: stats(samples.bare),
  local: series("local"),
  ...(sandboxOk ? { sandbox: series("sandbox") } : {}),
  targetSandboxSkillRunOverheadP50Ms: TARGET_MS,
  meetsTarget: sandboxP50 === undefined ? null : sandboxP50 <= TARGET_MS,
};
console.log(JSON.stringify(report, null, 2));
