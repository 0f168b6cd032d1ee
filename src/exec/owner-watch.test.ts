/**
 * The owner watch with real processes: an owner (a Node process) starts a watched command, is killed with
 * SIGKILL, and the command's whole group goes, after the cleanup command ran. /proc is read to find them.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ownerWatchedArgv } from "./owner-watch.js";

// The owner: spawns the argv it is given as a group leader with the owner pipe, prints its pid, waits.
const OWNER = `
const { spawn } = require("node:child_process");
const child = spawn(process.argv[1], process.argv.slice(2), { detached: true, stdio: ["ignore", "ignore", "ignore", "pipe"] });
child.stdio[3].resume();
console.log(child.pid);
setInterval(() => {}, 1000);
`;

let dir: string;
let marker: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-owner-watch-"));
  marker = `watched-run-marker-${randomBytes(6).toString("hex")}`;
});
afterEach(async () => {
  for (const pid of processesWith(marker)) process.kill(pid, "SIGKILL");
  await rm(dir, { recursive: true, force: true });
});

function processesWith(text: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(text)) found.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

/** Starts the owner with `argv`; resolves with it once the watched command is running. */
async function startOwner(argv: string[]) {
  const owner = spawn(process.execPath, ["-e", OWNER, ...argv], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve) => owner.stdout.once("data", resolve));
  expect(await until(() => processesWith(marker).length >= 2, 10_000)).toBe(true);
  return owner;
}

async function kill9(owner: ReturnType<typeof spawn>): Promise<void> {
  const exited = new Promise((resolve) => owner.once("exit", resolve));
  owner.kill("SIGKILL");
  await exited;
}

describe.runIf(process.platform === "linux")("ownerWatchedArgv", () => {
  const command = () => ["/bin/sh", "-c", `sh -c 'sleep 300; : ${marker}' & sleep 300; : ${marker}`];

  it("kills the command's whole group when its owner is killed with SIGKILL", async () => {
    const owner = await startOwner(ownerWatchedArgv(command()));
    await kill9(owner);
    expect(await until(() => processesWith(marker).length === 0, 5_000)).toBe(true);
  });

  it("runs the cleanup command (quoted as given) before the group is killed", async () => {
    const done = path.join(dir, "it's cleaned; $(touch pwned)");
    const owner = await startOwner(
      ownerWatchedArgv(command(), ["/bin/sh", "-c", 'touch "$1"', "cleanup", done]),
    );
    await kill9(owner);
    expect(await until(() => processesWith(marker).length === 0, 5_000)).toBe(true);
    expect(existsSync(done)).toBe(true);
    expect(existsSync(path.join(process.cwd(), "pwned"))).toBe(false);
  });

  it("the command does not inherit the owner pipe; only the watcher holds it", async () => {
    const owner = await startOwner(ownerWatchedArgv(["/bin/sh", "-c", `sleep 300; : ${marker}`]));
    try {
      const cmdline = (pid: number) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "utf8");
        } catch {
          return "";
        }
      };
      let watcher: number[] = [];
      let leader: number[] = [];
      // The leader shows the command's line once it has exec'd it.
      await until(() => {
        const shells = processesWith(marker).filter((pid) => cmdline(pid).startsWith("/bin/sh"));
        watcher = shells.filter((pid) => cmdline(pid).includes("skillrt-owner-watch"));
        leader = shells.filter((pid) => !cmdline(pid).includes("skillrt-owner-watch"));
        return watcher.length === 1 && leader.length === 1;
      }, 5_000);
      expect(watcher).toHaveLength(1);
      expect(leader).toHaveLength(1);
      expect(existsSync(`/proc/${watcher[0]}/fd/3`)).toBe(true);
      expect(existsSync(`/proc/${leader[0]}/fd/3`)).toBe(false);
    } finally {
      await kill9(owner);
    }
  });
});
