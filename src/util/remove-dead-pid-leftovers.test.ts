import { lstat, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isProcessAlive } from "./process-alive.js";
import { removeDeadPidLeftovers } from "./remove-dead-pid-leftovers.js";

// Above every system's pid range (Linux's pid_max is at most 2^22): never a running process.
const DEAD = 4_194_305;
const pidOf = (name: string) => {
  const match = /^left\.(\d+)$/.exec(name);
  return match === null ? undefined : Number(match[1]);
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-leftovers-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("removeDeadPidLeftovers", () => {
  it("removes a dead process's files and keeps a live one's and every other name", async () => {
    expect(isProcessAlive(DEAD)).toBe(false);
    expect(isProcessAlive(process.ppid)).toBe(true);
    await writeFile(path.join(dir, `left.${DEAD}`), "partial");
    await writeFile(path.join(dir, `left.${process.ppid}`), "in progress");
    await writeFile(path.join(dir, `left.${process.pid}`), "mine");
    await writeFile(path.join(dir, "skillrt.lock.json"), "{}");
    expect(await removeDeadPidLeftovers(dir, { pidOf })).toEqual([`left.${DEAD}`]);
    expect((await readdir(dir)).sort()).toEqual(
      [`left.${process.pid}`, `left.${process.ppid}`, "skillrt.lock.json"].sort(),
    );
  });

  it("removes folders only when asked, and a link in place of a leftover is removed without being followed", async () => {
    const outside = path.join(dir, "outside");
    await mkdir(outside);
    await writeFile(path.join(outside, "keep.txt"), "keep");
    const leftovers = path.join(dir, "tmp");
    await mkdir(path.join(leftovers, `left.${DEAD}`, "tree"), { recursive: true });
    await symlink(outside, path.join(leftovers, "left.4194306"));
    expect(await removeDeadPidLeftovers(leftovers, { pidOf })).toEqual([]);
    expect(await removeDeadPidLeftovers(leftovers, { pidOf, folders: true })).toEqual([`left.${DEAD}`]);
    // A symlink is neither a file nor a folder: left alone, and its target untouched.
    expect((await lstat(path.join(leftovers, "left.4194306"))).isSymbolicLink()).toBe(true);
    expect(await readdir(outside)).toEqual(["keep.txt"]);
  });

  it("is quiet when the folder does not exist", async () => {
    expect(await removeDeadPidLeftovers(path.join(dir, "missing"), { pidOf })).toEqual([]);
  });
});
