import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testPostgres } from "../store/__fixtures__/test-postgres.js";
import { createMemoryStore } from "../store/create-memory-store.js";
import { createPostgresStore } from "../store/create-postgres-store.js";
import { createSqliteStore } from "../store/create-sqlite-store.js";
import { openInspectStore } from "./open-inspect-store.js";

let cwd: string;
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-inspect-store-"));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe("openInspectStore", () => {
  it("opens the project's default database, creating it as chat would", async () => {
    const opened = await openInspectStore({ url: undefined, cwd });
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(opened.where).toBe(path.join(cwd, ".skillrt", "sessions.db"));
    expect(existsSync(path.join(cwd, ".skillrt", ".gitignore"))).toBe(true);
    await opened.store.close();
  });

  it("reads an existing SQLite file by path, sqlite: and file: URL", async () => {
    const file = path.join(cwd, "s.db");
    const writer = createSqliteStore({ path: file });
    await writer.put("a", { x: 1 }, { namespace: "conversation" });
    await writer.close();
    for (const url of ["s.db", `sqlite:${file}`, `file://${file}`]) {
      const opened = await openInspectStore({ url, cwd });
      expect(opened.ok, url).toBe(true);
      if (!opened.ok) continue;
      expect((await opened.store.list({ namespace: "conversation" })).map((s) => s.id)).toEqual(["a"]);
      await opened.store.close();
    }
  });

  it("says in one line what is wrong with a missing file, a non-database file or an unknown scheme", async () => {
    expect(await openInspectStore({ url: "missing.db", cwd })).toEqual({
      ok: false,
      message: `no session database at ${path.join(cwd, "missing.db")} (check --store)`,
    });
    await writeFile(
      path.join(cwd, "notes.txt"),
      "not a database, just some text that is long enough\n".repeat(50),
    );
    const text = await openInspectStore({ url: "notes.txt", cwd });
    expect(text.ok).toBe(false);
    if (!text.ok)
      expect(text.message).toMatch(/^cannot read .*notes\.txt as a skillrt session database: [^\n]+$/);
    expect(await openInspectStore({ url: "redis://x", cwd })).toEqual({
      ok: false,
      message:
        "unsupported store URL 'redis://x': give a SQLite file (PATH or sqlite:PATH) or a postgres:// URL",
    });
    expect(existsSync(path.join(cwd, "missing.db"))).toBe(false);
  });

  it("opens postgres:// URLs with the Postgres store; an unreachable server is one line without the password", async () => {
    const opened = await openInspectStore({ url: "postgres://me:hunter2-secret@127.0.0.1:1/skillrt", cwd });
    expect(opened.ok).toBe(false);
    if (opened.ok) return;
    expect(opened.message).toMatch(/^cannot open store 'postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/skillrt': .+/);
    expect(opened.message).not.toContain("hunter2");
    expect(opened.message).not.toContain("\n");
  });

  it("uses a registered opener for other schemes and hides credentials", async () => {
    const store = createMemoryStore();
    const opened = await openInspectStore({
      url: "postgres://user:secret@db/skillrt",
      cwd,
      openers: { postgres: async () => store },
    });
    expect(opened).toMatchObject({ ok: true, where: "postgres://user:***@db/skillrt" });
    const failing = await openInspectStore({
      url: "postgres://user:secret@db/skillrt",
      cwd,
      openers: {
        postgres: async () => {
          throw new Error("connection refused\nstack…");
        },
      },
    });
    expect(failing).toEqual({
      ok: false,
      message: "cannot open store 'postgres://user:***@db/skillrt': connection refused",
    });
  });
});

describe("openInspectStore with Postgres", () => {
  it("reads the schema it is given (the config's store.schema, as ask writes it), not public", async (context) => {
    const server = await testPostgres();
    if ("skip" in server) {
      context.skip();
      return;
    }
    const writer = createPostgresStore({ url: server.url, schema: "inspect_schema" });
    await writer.put("written-by-ask", { messages: [] }, { namespace: "conversation" });
    await writer.close();
    const inSchema = await openInspectStore({ url: server.url, cwd, schema: "inspect_schema" });
    const inPublic = await openInspectStore({ url: server.url, cwd });
    expect(inSchema.ok && inPublic.ok).toBe(true);
    if (!inSchema.ok || !inPublic.ok) return;
    const ids = async (store: typeof inSchema.store) =>
      (await store.list({ namespace: "conversation" })).map((s) => s.id);
    expect(await ids(inSchema.store)).toEqual(["written-by-ask"]);
    expect(await ids(inPublic.store)).not.toContain("written-by-ask");
    await inSchema.store.close();
    await inPublic.store.close();
  }, 180_000);
});
