/**
 * `skillrt add`, `install`, `update` and `remove` against the ecosystem's installer itself (the `skills`
 * CLI from npm): both write the same skills-lock.json for a local folder and a git repository, what
 * `skills add` installed `skillrt install` restores identically in a clean checkout, and `skillrt update`
 * reports an upstream change and leaves the changed skill's scripts waiting for trust.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, runCli } from "./support/run-cli.js";

const skillsCli = path.join(
  path.dirname(createRequire(import.meta.url).resolve("skills/package.json")),
  "bin",
  "cli.mjs",
);

let base: string;
let upstream: string;
let home: string;

async function write(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], {
    cwd,
    stdio: "pipe",
  });

beforeAll(() => assertBuilt());
beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "skillrt-install-"));
  home = path.join(base, "home");
  await mkdir(home);
  upstream = path.join(base, "upstream");
  await write(
    path.join(upstream, "skills", "alpha", "SKILL.md"),
    "---\nname: alpha\ndescription: Alpha.\n---\nAlpha body.\n",
  );
  await write(
    path.join(upstream, "skills", "beta", "SKILL.md"),
    "---\nname: beta\ndescription: Beta.\n---\nRun `sh scripts/run.sh`.\n",
  );
  await write(path.join(upstream, "skills", "beta", "scripts", "run.sh"), "echo BETA\n");
  git(upstream, "init", "-q", "-b", "main");
  git(upstream, "add", "-A");
  git(upstream, "commit", "-qm", "one");
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** `npx skills add SOURCE -y` in `project` (no telemetry, its own HOME). */
function skillsAdd(project: string, source: string): void {
  skills(project, ["add", source, "-y"]);
}

/** `npx skills ARGS` in `project` (no telemetry, its own HOME); fails the test when it fails. */
function skills(project: string, args: string[]): void {
  const run = spawnSync(process.execPath, [skillsCli, ...args], {
    cwd: project,
    env: {
      PATH: process.env["PATH"] ?? "/usr/bin:/bin",
      HOME: home,
      DO_NOT_TRACK: "1",
      DISABLE_TELEMETRY: "1",
      CI: "1",
    },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
}

async function project(name: string): Promise<string> {
  const dir = path.join(base, name);
  await mkdir(dir);
  git(dir, "init", "-q");
  return dir;
}

const cli = (cwd: string, args: string[]) => runCli(args, { cwd, env: { HOME: home }, timeoutMs: 60_000 });

async function treeDigest(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) =>
    e.isFile(),
  )) {
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = createHash("sha256")
      .update(await readFile(file))
      .digest("hex");
  }
  return out;
}

describe("skillrt add / install / update / remove and the skills CLI", () => {
  it("writes the same skills-lock.json as `skills add` for a local folder and for a git repository", async () => {
    for (const source of ["../upstream", `file://${upstream}/.git`]) {
      const theirs = await project(`theirs-${source.length}`);
      const ours = await project(`ours-${source.length}`);
      skillsAdd(theirs, source);
      const added = await cli(ours, ["add", source]);
      expect(added.code, added.stderr).toBe(0);
      expect(added.stdout).toContain("+ alpha");
      const expected = await readFile(path.join(theirs, "skills-lock.json"), "utf8");
      expect(await readFile(path.join(ours, "skills-lock.json"), "utf8")).toBe(expected);
      expect(await treeDigest(path.join(ours, ".agents", "skills"))).toEqual(
        await treeDigest(path.join(theirs, ".agents", "skills")),
      );
      // The skills CLI restores from the lock skillrt wrote, and leaves it as it was.
      const restored = await project(`restored-${source.length}`);
      await cp(path.join(ours, "skills-lock.json"), path.join(restored, "skills-lock.json"));
      skills(restored, ["experimental_install", "-y"]);
      expect(await treeDigest(path.join(restored, ".agents", "skills"))).toEqual(
        await treeDigest(path.join(ours, ".agents", "skills")),
      );
      expect(await readFile(path.join(restored, "skills-lock.json"), "utf8")).toBe(expected);
    }
  });

  it("restores what `skills add` installed, identically, in a clean checkout; refuses a changed upstream until update", async () => {
    const first = await project("first");
    skillsAdd(first, `file://${upstream}/.git`);
    const installed = await treeDigest(path.join(first, ".agents", "skills"));
    // A new machine: the lock alone (no installed skills, an empty HOME and cache).
    const clean = await project("clean");
    await cp(path.join(first, "skills-lock.json"), path.join(clean, "skills-lock.json"));
    const restored = await cli(clean, ["install", "--json"]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ installed: ["alpha", "beta"], failed: [] });
    expect(await treeDigest(path.join(clean, ".agents", "skills"))).toEqual(installed);
    expect(await readFile(path.join(clean, "skills-lock.json"), "utf8")).toBe(
      await readFile(path.join(first, "skills-lock.json"), "utf8"),
    );
    // Run again: nothing to do.
    expect(JSON.parse((await cli(clean, ["install", "--json"])).stdout)).toMatchObject({
      present: ["alpha", "beta"],
    });

    // Upstream changes beta's script.
    await write(path.join(upstream, "skills", "beta", "scripts", "run.sh"), "echo BETA TWO\n");
    git(upstream, "commit", "-qam", "two");
    const elsewhere = await project("elsewhere");
    await cp(path.join(first, "skills-lock.json"), path.join(elsewhere, "skills-lock.json"));
    await rm(path.join(home, ".cache"), { recursive: true, force: true });
    const refused = await cli(elsewhere, ["install"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("beta: its source changed since it was locked");
    expect(refused.stderr).toContain("skillrt update beta");
  });

  it("update reports an upstream change, rewrites the lock, and the changed skill's scripts wait for trust", async () => {
    const dir = await project("p");
    expect((await cli(dir, ["add", `file://${upstream}/.git`])).code).toBe(0);
    expect((await cli(dir, ["trust", ".agents/skills"])).code).toBe(0);
    const before = JSON.parse(await readFile(path.join(dir, "skills-lock.json"), "utf8"));

    await write(path.join(upstream, "skills", "beta", "scripts", "run.sh"), "echo BETA TWO\n");
    git(upstream, "commit", "-qam", "two");
    const updated = await cli(dir, ["update", "--json"]);
    expect(updated.code, updated.stderr).toBe(0);
    const report = JSON.parse(updated.stdout);
    expect(report.updated.map((u: { name: string }) => u.name)).toEqual(["beta"]);
    expect(report.current).toEqual(["alpha"]);
    expect(await readFile(path.join(dir, ".agents", "skills", "beta", "scripts", "run.sh"), "utf8")).toBe(
      "echo BETA TWO\n",
    );
    const after = JSON.parse(await readFile(path.join(dir, "skills-lock.json"), "utf8"));
    expect(after.skills.alpha).toEqual(before.skills.alpha);
    expect(after.skills.beta.computedHash).not.toBe(before.skills.beta.computedHash);
    expect(after.skills.beta.computedHash).toBe(report.updated[0].to);

    const listed = await cli(dir, ["trust", "--list"]);
    // The project root's trust lapsed with the change: its scripts are refused until trusted again.
    expect(listed.stdout).toContain(`${path.join(dir, ".agents", "skills")}  changed since it was trusted`);
  });

  it("remove deletes the folder and the lock entry; add refuses a skill its source does not have", async () => {
    const dir = await project("r");
    expect((await cli(dir, ["add", "../upstream"])).code).toBe(0);
    const removed = await cli(dir, ["remove", "alpha"]);
    expect(removed.code).toBe(0);
    const lock = JSON.parse(await readFile(path.join(dir, "skills-lock.json"), "utf8"));
    expect(Object.keys(lock.skills)).toEqual(["beta"]);
    expect(await readdir(path.join(dir, ".agents", "skills"))).toEqual(["beta"]);
    const missing = await cli(dir, ["add", "../upstream", "--skill", "gamma"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("'gamma' not in ../upstream (it has: alpha, beta)");
  });
});
