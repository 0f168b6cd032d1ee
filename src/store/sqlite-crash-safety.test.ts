import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectIntactSnapshot, runAndKill } from "./__fixtures__/run-and-kill.js";
import { createSqliteStore } from "./create-sqlite-store.js";

describe("SQLite store crash safety", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-crash-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ["full", 1],
    ["full", 2],
    ["full", 3],
    ["normal", 1],
    ["normal", 2],
  ])("keeps the last committed snapshot intact after kill -9 (synchronous=%s, run %i)", async (sync, run) => {
    const dbPath = path.join(dir, `crash-${sync}-${run}.db`);
    let lastSeen = 0;
    // Several kill/reopen rounds on the same file: each round resumes from what the previous one left.
    for (let round = 0; round < 3; round++) {
      const committed = await runAndKill(dbPath, sync, 15 + run * 7 + round * 5);
      expect(committed).toBeGreaterThan(0);

      const check = new DatabaseSync(dbPath);
      expect(check.prepare("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
      check.close();

      const store = createSqliteStore({ path: dbPath });
      const got = await store.get("crash");
      await store.close();
      lastSeen = expectIntactSnapshot(got, committed, lastSeen);
    }
  });
});
