import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ROOTS_LOCK_FILE, writeRootsLock } from "./roots-lock.js";

const DEAD = 4_194_305; // above every system's pid range
const pins = new Map([["https://example.com/a.tar.gz", `sha256:${"a".repeat(64)}`]]);

let project: string;
beforeEach(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), "skillrt-lock-"));
});
afterEach(async () => {
  await rm(project, { recursive: true, force: true });
});

describe("writeRootsLock's temporary file", () => {
  it("is removed when the write fails, and the error is the write's", async () => {
    // A folder where the lock goes: the rename over it fails once the temporary file is written.
    await mkdir(path.join(project, ROOTS_LOCK_FILE, "inside"), { recursive: true });
    await expect(writeRootsLock(project, pins)).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect((await readdir(project)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("left by a dead process is removed at the next write; a running process's is kept", async () => {
    await writeFile(path.join(project, `${ROOTS_LOCK_FILE}.${DEAD}.tmp`), '{"version":1,"ro');
    await writeFile(path.join(project, `${ROOTS_LOCK_FILE}.${process.ppid}.tmp`), "{}");
    const file = await writeRootsLock(project, pins);
    expect(JSON.parse(await readFile(file, "utf8")).roots).toEqual({
      "https://example.com/a.tar.gz": { digest: `sha256:${"a".repeat(64)}` },
    });
    expect((await readdir(project)).sort()).toEqual(
      [ROOTS_LOCK_FILE, `${ROOTS_LOCK_FILE}.${process.ppid}.tmp`].sort(),
    );
  });
});
