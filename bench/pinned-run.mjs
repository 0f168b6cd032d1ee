#!/usr/bin/env node
// What running a skill from a verified copy costs (a skill whose trust is bound to a digest: the copy is
// made and digested with its root, then re-used while neither the skill nor the copy changed). For the
// sandbox executor, skill_run("true") of a typical skill (SKILL.md, 3 scripts, 2 references, an asset:
// ~60 KB) and of a skill with a node_modules/ of 2,000 small files, three ways: unpinned (the real folder
// mounted read-only, as before), pinned steady state (the checked copy re-used) and pinned first run
// (copy + digest, measured by touching the skill between samples). Samples are interleaved.
// Usage: npx node bench/pinned-run.mjs [iterations]   → prints JSON (milliseconds, p50 and p90).
// Measured on a shared 2-core machine under load (p50, two runs): typical skill unpinned 35-40, pinned
// steady 37-40 (no measurable overhead), pinned first run 54-77 (+20-40: copy and digest); node_modules/
// of 2,000 files unpinned 18-40, steady 63-116 (+45-75: the real tree's and the copy's fingerprints and
// the disk-quota walk over the copy), first run 2.0-3.4 s (2,000 file creations at ~0.9 ms each on this
// disk; the digest itself is ~60-110 ms).
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import "../scripts/register-ts-sources.mjs";
import os from "node:os";
import path from "node:path";

const src = new URL("../src/", import.meta.url);
const load = (rel) => import(new URL(rel, src).href);
const { createSandboxExecutor } = await load("exec/sandbox-executor.ts");
const { createWorkspace } = await load("exec/create-workspace.ts");
const { runSkillCommand } = await load("exec/run-skill-command.ts");
const { digestRoot } = await load("catalog/root-digest.ts");

const iterations = Math.max(20, Number(process.argv[2] ?? 40));
const base = await mkdtemp(path.join(os.tmpdir(), "skillrt-pinned-bench-"));

async function makeSkill(name, modules) {
  const root = path.join(base, `${name}-root`);
  const dir = path.join(root, name);
  await mkdir(path.join(dir, "scripts"), { recursive: true });
  await mkdir(path.join(dir, "references"), { recursive: true });
  await mkdir(path.join(dir, "assets"), { recursive: true });
  await writeFile(
    path.join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: bench\n---\n${"Body. ".repeat(800)}\n`,
  );
  for (const s of ["a.py", "b.sh", "c.js"]) await writeFile(path.join(dir, "scripts", s), "x".repeat(4000));
  for (const r of ["guide.md", "api.md"]) await writeFile(path.join(dir, "references", r), "y".repeat(20000));
  await writeFile(path.join(dir, "assets", "logo.bin"), Buffer.alloc(8000, 7));
  for (let i = 0; i < modules; i++) {
    const pkg = path.join(dir, "node_modules", `p${i % 100}`);
    await mkdir(pkg, { recursive: true });
    await writeFile(path.join(pkg, `f${i}.js`), `module.exports = ${i};\n`);
  }
  const record = { name, dir, scope: "project", source: root };
  const digest = await digestRoot(root);
  return { record, root, digest };
}

const executor = createSandboxExecutor();
// One workspace per series: a workspace keeps one staged view per skill, so interleaving modes in one
// would make every sample stage again.
const workspaces = {
  unpinned: await createWorkspace({ baseDir: base }),
  steady: await createWorkspace({ baseDir: base }),
  first: await createWorkspace({ baseDir: base }),
};

function config(skill, mode) {
  const pinned = mode !== "unpinned";
  const trust = {
    isTrusted: () => true,
    howToTrust: () => "skillrt trust",
    pinOf: () =>
      pinned ? { root: skill.root, digest: skill.digest, howToTrust: "skillrt trust" } : undefined,
  };
  return {
    environment: { workspace: workspaces[mode], executor },
    lookup: { getSkill: (n) => (n === skill.record.name ? skill.record : undefined) },
    trust,
  };
}

async function sample(skill, mode) {
  if (mode === "first") {
    // A new mtime on a file makes the staging copy and check again (the content stays the same).
    const t = new Date(Date.now() + Math.random() * 1e6);
    await utimes(path.join(skill.record.dir, "SKILL.md"), t, t);
  }
  const started = performance.now();
  const result = await runSkillCommand({ name: skill.record.name, command: ["true"] }, config(skill, mode));
  const elapsed = performance.now() - started;
  if (result.status !== "ran" || result.exitCode !== 0) throw new Error(JSON.stringify(result));
  return elapsed;
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => Number(s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(1));
  return { p50: at(0.5), p90: at(0.9) };
};

const out = {};
for (const [label, modules] of [
  ["typical", 0],
  ["node_modules-2000", 2000],
]) {
  // The first-run series touches its skill: it gets a skill of its own, so the others stay unchanged.
  const name = label.replace(/[^a-z]/g, "");
  const skill = await makeSkill(name, modules);
  const touched = await makeSkill(`${name}t`, modules);
  const of = (mode) => (mode === "first" ? touched : skill);
  const series = { unpinned: [], steady: [], first: [] };
  for (const mode of Object.keys(series)) await sample(of(mode), mode); // warm up
  for (let i = 0; i < iterations; i++)
    for (const mode of Object.keys(series)) series[mode].push(await sample(of(mode), mode));
  out[label] = Object.fromEntries(Object.entries(series).map(([k, v]) => [k, stats(v)]));
}
for (const ws of Object.values(workspaces)) await ws.dispose();
await rm(base, { recursive: true, force: true });
console.log(JSON.stringify({ iterations, ...out }, null, 2));
