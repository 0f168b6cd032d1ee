import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillrtError } from "../errors/skillrt-error.js";
import { createSqliteStore } from "./create-sqlite-store.js";
import { defaultStorePath } from "./default-store-path.js";
import { SQLITE_SCHEMA_VERSION } from "./sqlite-schema.js";
import { StoreConflictError } from "./store-conflict-error.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-sqlite-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("createSqliteStore", () => {
  it("keeps sessions across close and reopen, creating missing directories", async () => {
    const file = path.join(dir, "nested", "deeper", "sessions.db");
    const first = createSqliteStore({ path: file });
    await first.put("s", { loaded: ["pdf"] }, { namespace: "agent" });
    await first.close();
    const second = createSqliteStore({ path: file });
    expect(await second.get("s", "agent")).toMatchObject({ version: 1, data: { loaded: ["pdf"] } });
    await second.close();
  });

  it("uses WAL journaling and records its schema version", async () => {
    const file = path.join(dir, "s.db");
    await createSqliteStore({ path: file }).close();
    const db = new DatabaseSync(file);
    expect(db.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(db.prepare("SELECT MAX(version) AS v FROM skillrt_schema").get()).toEqual({
      v: SQLITE_SCHEMA_VERSION,
    });
    db.close();
    // Reopening does not re-run migrations.
    await createSqliteStore({ path: file }).close();
    const again = new DatabaseSync(file);
    expect(again.prepare("SELECT COUNT(*) AS n FROM skillrt_schema").get()).toEqual({
      n: SQLITE_SCHEMA_VERSION,
    });
    again.close();
  });

  it("detects a conflicting write made through another connection to the same file", async () => {
    const file = path.join(dir, "s.db");
    const a = createSqliteStore({ path: file });
    const b = createSqliteStore({ path: file });
    const version = await a.put("s", { by: "a" });
    expect(await b.put("s", { by: "b" }, { expectedVersion: version })).toBe(2);
    const error = await a.put("s", { by: "a again" }, { expectedVersion: version }).catch((e: unknown) => e);
    expect(StoreConflictError.isInstance(error)).toBe(true);
    expect((await a.get("s"))?.data).toEqual({ by: "b" });
    await a.close();
    await b.close();
  });

  it("reports a corrupt row by name on get, and still lists every session", async () => {
    const file = path.join(dir, "s.db");
    const store = createSqliteStore({ path: file });
    await store.put("good", { ok: true });
    await store.put("bad", { ok: true });
    const raw = new DatabaseSync(file);
    raw.prepare("UPDATE sessions SET data = ? WHERE id = ?").run('{"truncated": [1, 2', "bad");
    raw.close();

    const error = await store.get("bad").catch((e: unknown) => e);
    expect(SkillrtError.isInstance(error) && error.code).toBe("store-error");
    expect((error as Error).message).toContain("Session 'bad' (namespace 'default')");
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/not valid JSON/);

    const listed = await store.list();
    expect(listed.map((s) => [s.id, s.corrupt !== undefined])).toEqual([
      ["bad", true],
      ["good", false],
    ]);
    expect((await store.get("good"))?.data).toEqual({ ok: true });
    // The session can be repaired by overwriting it.
    await store.put("bad", { repaired: true });
    expect((await store.get("bad"))?.data).toEqual({ repaired: true });
    await store.close();
  });

  it("refuses a database written by a newer schema, saying what to do", async () => {
    const file = path.join(dir, "s.db");
    await createSqliteStore({ path: file }).close();
    const raw = new DatabaseSync(file);
    raw.prepare("INSERT INTO skillrt_schema (version, applied_at) VALUES (?, ?)").run(99, "2030-01-01");
    raw.close();
    expect(() => createSqliteStore({ path: file })).toThrow(/schema version 99.*Upgrade skillrt/);
  });

  it("fails with the path and a hint when the file is not a SQLite database", async () => {
    const file = path.join(dir, "notes.db");
    await writeFile(file, "this is not a database, just some text that is long enough ".repeat(20));
    let error: unknown;
    try {
      createSqliteStore({ path: file });
    } catch (e) {
      error = e;
    }
    expect(SkillrtError.isInstance(error) && error.code).toBe("store-error");
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/SQLite file/);
  });

  it("accepts synchronous=normal", async () => {
    const store = createSqliteStore({ path: path.join(dir, "n.db"), synchronous: "normal" });
    expect(await store.put("s", 1)).toBe(1);
    await store.close();
  });
});

describe("defaultStorePath", () => {
  it("returns .skillrt/sessions.db and ignores the folder in git", async () => {
    const file = defaultStorePath(dir);
    expect(file).toBe(path.join(dir, ".skillrt", "sessions.db"));
    expect(await readFile(path.join(dir, ".skillrt", ".gitignore"), "utf8")).toBe("*\n");
    const store = createSqliteStore({ path: file });
    await store.put("s", 1);
    await store.close();
  });

  it("leaves an existing .gitignore alone", async () => {
    defaultStorePath(dir);
    await writeFile(path.join(dir, ".skillrt", ".gitignore"), "sessions.db\n");
    defaultStorePath(dir);
    expect(await readFile(path.join(dir, ".skillrt", ".gitignore"), "utf8")).toBe("sessions.db\n");
  });
});
