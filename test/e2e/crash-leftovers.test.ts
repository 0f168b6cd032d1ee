/**
 * What a `skillrt` killed with SIGKILL leaves behind: the built CLI as a real child process, killed at the
 * right moment. The local executor's run dies with it (no process of the run is left; /proc is scanned),
 * the next start removes the workspace of the killed run, and the next fetch of a remote root removes the
 * partial extraction a fetch killed mid-way left in the cache.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeTar, skillMd } from "../../src/catalog/remote/__fixtures__/make-archives.js";
import { type LoopbackProvider, loopbackEnv, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

const bin = path.resolve(import.meta.dirname, "../../bin/skillrt.js");

let dir: string;
let env: Record<string, string>;
let provider: LoopbackProvider | undefined;
let server: Server | undefined;
const started: ChildProcess[] = [];
const markers: string[] = [];

beforeAll(() => assertBuilt());
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-crash-"));
  await mkdir(path.join(dir, "tmp"), { mode: 0o700 });
  // Workspaces go under $TMPDIR/skillrt-<uid>: a folder of this test only.
  env = {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    HOME: dir,
    NO_COLOR: "1",
    TMPDIR: path.join(dir, "tmp"),
    SKILLRT_CACHE_DIR: path.join(dir, "cache"),
  };
});
afterEach(async () => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  // A failed test may leave its own run's processes (found by their marker): they go too.
  for (const marker of markers.splice(0))
    for (const pid of processesWith(marker)) process.kill(pid, "SIGKILL");
  await provider?.close();
  provider = undefined;
  const s = server;
  server = undefined;
  if (s !== undefined) await new Promise((resolve) => s.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

/** Starts the built CLI with `args` in `dir`. */
function startCli(args: string[], extraEnv: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: dir,
    env: { ...env, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.resume();
  child.stderr?.resume();
  started.push(child);
  return child;
}

async function killAndWait(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

async function waitFor(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Pids of the processes whose command line holds `marker` (Linux /proc). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker)) found.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

async function workspaces(): Promise<string[]> {
  const base = path.join(dir, "tmp", `skillrt-${process.getuid?.()}`);
  try {
    return (await readdir(base)).filter((n) => n.includes("skillrt-ws-"));
  } catch {
    return [];
  }
}

/**
 * Starts `ask --executor local` whose skill run holds (a child and a grandchild, each carrying a marker in
 * its command line) and resolves once the run has started. The provider's next reply is "Second answer.".
 */
async function askHoldingRun(): Promise<{ marker: string; ask: ChildProcess }> {
  const marker = `skillrt-crash-marker-${randomBytes(6).toString("hex")}`;
  markers.push(marker);
  const skill = path.join(dir, "team-skills", "holder");
  await mkdir(path.join(skill, "scripts"), { recursive: true });
  await writeFile(path.join(skill, "SKILL.md"), skillMd("holder", "Holds the line for a while."));
  await writeFile(
    path.join(skill, "scripts", "hold.sh"),
    `sh -c "sleep 300; : $1" &\nsh -c "sh -c 'sleep 300; : $1' & sleep 300; : $1" &\ntouch "$2"\nsleep 300\n: "$1"\n`,
  );
  await chmod(path.join(skill, "scripts", "hold.sh"), 0o755);
  const ready = path.join(dir, "run-started");
  provider = await startLoopbackProvider("openai", [
    { toolCalls: [{ name: "skill_load", input: { name: "holder" } }] },
    {
      toolCalls: [
        { name: "skill_run", input: { name: "holder", command: `sh scripts/hold.sh ${marker} ${ready}` } },
      ],
    },
    // The killed turn never gets to its answer: the next request is the next ask's.
    { text: "Second answer." },
  ]);
  // Named roots are trusted: the skill's command runs.
  const ask = startCli(
    ["ask", "--root", "team-skills", "--executor", "local", "hold it"],
    loopbackEnv(provider),
  );
  await waitFor(
    async () => {
      if (ask.exitCode !== null) throw new Error(`ask exited early (${ask.exitCode})`);
      return (await readdir(dir)).includes("run-started");
    },
    60_000,
    "the skill's command to start",
  );
  return { marker, ask };
}

describe.runIf(process.platform === "linux")(
  "after skillrt is killed with SIGKILL",
  { timeout: 90_000 },
  () => {
    it("ask --executor local leaves no process of the run", async () => {
      const { marker, ask } = await askHoldingRun();
      expect(processesWith(marker).length).toBeGreaterThanOrEqual(3);
      await killAndWait(ask);
      // Every process of the run goes within moments (the run's watcher kills its group).
      await waitFor(() => processesWith(marker).length === 0, 5_000, "the run's processes to go").catch(
        () => {
          throw new Error(`left running after kill -9: ${processesWith(marker).join(", ")}`);
        },
      );
    });

    it("the next ask removes the workspace of an ask killed mid-run", async () => {
      const { ask } = await askHoldingRun();
      await killAndWait(ask);
      // The killed run's workspace is still there until the next start.
      expect((await workspaces()).filter((n) => !n.startsWith("."))).toHaveLength(1);
      const next = await runCli(["ask", "--root", "team-skills", "--executor", "local", "again"], {
        cwd: dir,
        env: { ...env, ...loopbackEnv(provider as LoopbackProvider) },
        timeoutMs: 60_000,
      });
      expect(next.stderr).not.toMatch(/internal error|a bug in skillrt/);
      expect(next.code).toBe(0);
      expect(next.stdout).toContain("Second answer.");
      // Neither the killed run's workspace (nor its mark) nor the finished ask's own is left.
      expect(await workspaces()).toEqual([]);
    });

    it("a fetch of a remote root killed mid-extraction leaves nothing the next fetch does not remove", async () => {
      // Many small files: extraction takes long enough to be caught in the middle.
      const entries = [{ name: "big/SKILL.md", data: skillMd("big", "A skill with many files.") }];
      for (let i = 0; i < 6000; i++) entries.push({ name: `big/assets/f${i}.txt`, data: `file ${i}\n` });
      const archive = makeTar(entries);
      server = createServer((_req, res) => {
        res.writeHead(200, { "content-length": archive.length }).end(archive);
      });
      await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/big.tar`;
      const tmp = path.join(dir, "cache", "remote", "tmp");
      const partial = async (): Promise<string[]> => {
        try {
          return (await readdir(tmp)).filter((n) => n.startsWith("fetch-"));
        } catch {
          return [];
        }
      };

      const list = startCli(["list", "--root", url, "--json"]);
      await waitFor(
        async () => {
          if (list.exitCode !== null)
            throw new Error("list finished before it could be killed mid-extraction");
          const [work] = await partial();
          if (work === undefined) return false;
          return (await readdir(path.join(tmp, work)).catch((): string[] => [])).includes("tree");
        },
        60_000,
        "the extraction to start",
      );
      await killAndWait(list);
      expect(await partial()).toHaveLength(1); // the killed fetch's partial folder

      const again = await runCli(["list", "--root", url, "--json"], { cwd: dir, env, timeoutMs: 60_000 });
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout).skills.map((s: { name: string }) => s.name)).toEqual(["big"]);
      expect(await partial()).toEqual([]);
    });
  },
);
