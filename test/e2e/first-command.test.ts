/**
 * The README's first command in a fresh checkout: `npx skillrt …` links the checkout into npm's npx cache and
 * runs its `prepare` (scripts/build.mjs), which builds nothing under npx; bin/skillrt.js builds a missing
 * dist/ on its first start. Interrupted (Ctrl-C: SIGINT to the whole process group) at several moments, the
 * checkout must still work: its earlier dist/ untouched, or, on a first build, no half-built dist/ and the
 * next run builds and starts. A checkout whose dist/ is up to date starts without building anything. A real
 * copy of the repository's files (what `git ls-files` names, node_modules linked), real npm and npx with a
 * cache of their own, offline.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");
const nodeBin = path.dirname(process.execPath);

let base: string;
let checkout: string;

/** npm's environment for the copy: this Node first on PATH, npm's cache (and npx's) `cache` in the test folder. */
function npmEnv(cache = "npm-cache"): Record<string, string> {
  return {
    PATH: `${path.join(repo, "node_modules", ".bin")}:${nodeBin}:${process.env["PATH"] ?? ""}`,
    HOME: base,
    npm_config_cache: path.join(base, cache),
    npm_config_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    NO_COLOR: "1",
  };
}

/** The copy's CLI run directly (`node bin/skillrt.js …`). */
function cli(args: string[]) {
  return spawnSync(process.execPath, [path.join(checkout, "bin", "skillrt.js"), ...args], {
    cwd: checkout,
    env: { PATH: process.env["PATH"] ?? "", HOME: base, SKILLRT_CACHE: "0", NO_COLOR: "1" },
    encoding: "utf8",
  });
}

/** The build folders a build in progress (or a killed one) has next to dist/. */
const buildDirs = () => fs.readdirSync(checkout).filter((name) => name.startsWith(".dist-build-"));

/** Whether a build's tsc has written its last entry's output: the bundler runs next. */
const bundling = () => buildDirs().some((dir) => fs.existsSync(path.join(checkout, dir, "test-kit.d.ts")));

/**
 * Starts `npx skillrt --version` in the copy and, once `moment` holds (polled every 20 ms), sends SIGINT to
 * its process group as a terminal's Ctrl-C does; resolves when every process of it has ended. Resolves
 * `interrupted: false` when the command ended before the moment came.
 */
async function interruptWhen(
  moment: (output: string) => boolean,
  cache?: string,
): Promise<{ interrupted: boolean; output: string; ms: number }> {
  const started = Date.now();
  const child = spawn("npx", ["skillrt", "--version"], {
    cwd: checkout,
    env: npmEnv(cache),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => {
    output += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    output += d.toString();
  });
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  let interrupted = false;
  while (child.exitCode === null && child.signalCode === null) {
    if (moment(output)) {
      process.kill(-child.pid!, "SIGINT");
      interrupted = true;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const ended = await Promise.race([
    closed.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000)),
  ]);
  if (!ended) process.kill(-child.pid!, "SIGKILL");
  await closed;
  // Whatever of the group outlived npm (a compiler it started) is gone before the checkout is looked at.
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(-child.pid!, 0);
    } catch {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { interrupted, output, ms: Date.now() - started };
}

/** A tree's files with their size and mtime (to tell that dist/ was left exactly as it was). */
function listing(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      const stat = fs.statSync(file);
      return `${path.relative(dir, file)} ${stat.size} ${stat.mtimeMs}`;
    })
    .sort();
}

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "skillrt-first-command-"));
  checkout = path.join(base, "skillrt");
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: repo, encoding: "utf8" })
    .split("\0")
    .filter((file) => file !== "" && fs.existsSync(path.join(repo, file)));
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(checkout, file)), { recursive: true });
    fs.copyFileSync(path.join(repo, file), path.join(checkout, file));
  }
  fs.symlinkSync(path.join(repo, "node_modules"), path.join(checkout, "node_modules"));
});

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

describe("npx skillrt in a fresh checkout", () => {
  it("interrupted at any moment of its first build leaves no half-built dist/, and the next run builds", async () => {
    expect(fs.existsSync(path.join(checkout, "dist"))).toBe(false);
    // The same npx cache throughout: npm's link step is done in a moment, and an interrupt after it leaves
    // npm's npx folder whole, so the next `npx skillrt` runs.
    const moments: Array<[string, (output: string) => boolean]> = [
      ["while tsc compiles", (output) => output.includes("building it once") && buildDirs().length === 0],
      ["while the bundle is built", bundling],
    ];
    for (const [label, moment] of moments) {
      const { interrupted, output } = await interruptWhen(moment, "npx-first");
      expect(interrupted, `${label}: ${output}`).toBe(true);
      expect(output, label).not.toContain("npm error enoent");
      expect(fs.existsSync(path.join(checkout, "dist")), label).toBe(false);
    }

    // Left alone, the same command builds and runs.
    const done = await interruptWhen(() => false, "npx-first");
    expect(done.interrupted).toBe(false);
    expect(done.output).toContain("0.1.0");
    expect(buildDirs()).toEqual([]); // what the interrupted builds left is gone
    expect(cli(["list", "--root", "examples/skills"]).status).toBe(0);
  }, 600_000);

  it("starts without building when dist/ is up to date, and keeps dist/ working when a rebuild is interrupted", async () => {
    const dist = path.join(checkout, "dist");
    const before = listing(dist);
    // A first `npx skillrt` (a fresh npx cache) in a built checkout: nothing is built.
    const quick = await interruptWhen(() => false, "npx-built");
    expect(quick.output).toContain("0.1.0");
    expect(quick.output).not.toContain("building");
    expect(listing(dist)).toEqual(before);
    process.stdout.write(`first npx skillrt --version in a built checkout: ${quick.ms} ms\n`);

    // A changed source: `npm run build` rebuilds; interrupted, the earlier dist/ stays as it was.
    fs.appendFileSync(path.join(checkout, "src", "index.ts"), "\n// edited\n");
    const moments: Array<[string, () => boolean]> = [
      ["while the build's files are written", () => buildDirs().length > 0],
      ["while the bundle is built", bundling],
    ];
    for (const [label, moment] of moments) {
      const child = spawn("npm", ["run", "build"], {
        cwd: checkout,
        env: npmEnv(),
        detached: true,
        stdio: "ignore",
      });
      const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
      while (child.exitCode === null && !moment()) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(child.exitCode, label).toBeNull();
      process.kill(-child.pid!, "SIGINT");
      await closed;
      expect(listing(dist), label).toEqual(before);
      const list = cli(["list", "--json", "--root", "examples/skills"]);
      expect(list.status, `${label}: ${list.stderr}`).toBe(0);
      expect(JSON.parse(list.stdout).skills.length, label).toBeGreaterThan(0);
    }

    // A build killed (SIGKILL) between its two renames left dist/ aside: the next build puts it back as
    // it was, and finds nothing to build when the sources match it.
    fs.writeFileSync(
      path.join(checkout, "src", "index.ts"),
      fs.readFileSync(path.join(repo, "src", "index.ts")),
    );
    const aside = path.join(checkout, ".dist-old-4194300");
    fs.renameSync(dist, aside);
    const restored = spawnSync(process.execPath, [path.join(checkout, "scripts", "build.mjs")], {
      cwd: checkout,
      env: npmEnv(),
      encoding: "utf8",
    });
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toContain("dist/ is up to date");
    expect(listing(dist)).toEqual(before);
    expect(fs.existsSync(aside)).toBe(false);
  }, 600_000);
});
