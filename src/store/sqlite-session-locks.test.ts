import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadNodeSqlite } from "../errors/sqlite-unavailable-error.js";
import { migrateSqliteSchema } from "./sqlite-schema.js";
import { createSqliteSessionLocks } from "./sqlite-session-locks.js";

let dir: string;
let db: DatabaseSync;
/** The statements `db.exec` ran, in order. */
let ran: string[];

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-locks-"));
  db = new (loadNodeSqlite().DatabaseSync)(path.join(dir, "sessions.db"));
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = FULL");
  migrateSqliteSchema(db, "test");
  ran = [];
  const exec = db.exec.bind(db);
  db.exec = (sql: string) => {
    ran.push(sql);
    exec(sql);
  };
});
afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

const level = () => db.prepare("PRAGMA synchronous").get()?.["synchronous"];

describe("SQLite session locks", () => {
  it("write a lease without the store's fsync (NORMAL for that transaction) and leave the store's level FULL", async () => {
    const locks = createSqliteSessionLocks(db, 30);
    const lock = await locks.lock("s1", {});
    const take = ran.indexOf("BEGIN IMMEDIATE");
    expect(ran.slice(take - 1, take + 3)).toEqual([
      "PRAGMA synchronous = NORMAL",
      "BEGIN IMMEDIATE",
      "COMMIT",
      "PRAGMA synchronous = 2",
    ]);
    expect(level()).toBe(2);
    // The heartbeat renews the lease (every 10 ms here) the same way.
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(ran.filter((sql) => sql === "PRAGMA synchronous = NORMAL").length).toBeGreaterThan(1);
    await lock.release();
    expect(ran.at(-2)).toBe("PRAGMA synchronous = NORMAL");
    expect(level()).toBe(2);
    expect(db.prepare("SELECT COUNT(*) AS n FROM session_locks").get()?.["n"]).toBe(0);
  });

  it("leaves a store already at NORMAL as it is", async () => {
    db.exec("PRAGMA synchronous = NORMAL");
    ran = [];
    const locks = createSqliteSessionLocks(db);
    const lock = await locks.lock("s1", {});
    await lock.release();
    expect(ran.filter((sql) => sql.startsWith("PRAGMA"))).toEqual([]);
    expect(level()).toBe(1);
  });
});
