import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testPostgres } from "./__fixtures__/test-postgres.js";
import { openSessionStore } from "./open-session-store.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-open-store-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("openSessionStore", () => {
  it("defaults to .skillrt/sessions.db under the cwd", async () => {
    const store = openSessionStore({ cwd: dir, url: "" });
    await store.put("s", 1);
    await store.close();
    expect(existsSync(path.join(dir, ".skillrt", "sessions.db"))).toBe(true);
  });

  it("opens sqlite:PATH relative to the cwd, and sqlite:///abs", async () => {
    const relative = openSessionStore({ cwd: dir, url: "sqlite:data/s.db" });
    await relative.put("s", 1);
    await relative.close();
    expect(existsSync(path.join(dir, "data", "s.db"))).toBe(true);
    const absolute = openSessionStore({ cwd: "/", url: `sqlite://${path.join(dir, "abs.db")}` });
    await absolute.put("s", 1);
    await absolute.close();
    expect(existsSync(path.join(dir, "abs.db"))).toBe(true);
  });

  it("refuses other URLs in one line, without the password", () => {
    expect(() => openSessionStore({ cwd: dir, url: "mysql://me:pw@db/x" })).toThrow(
      "Store URL 'mysql://me:***@db/x' is not supported: use postgres://USER@HOST:PORT/DATABASE, sqlite:PATH, or leave it unset for .skillrt/sessions.db.",
    );
    expect(() => openSessionStore({ cwd: dir, url: "sqlite:" })).toThrow(/not supported/);
  });

  it("refuses a sqlite:// URL with a host or credentials instead of creating files after them", () => {
    for (const url of ["sqlite://user:pw@host/db", "sqlite://host/db", "sqlite://me@localhost/x.db"])
      expect(() => openSessionStore({ cwd: dir, url }), url).toThrow(
        /names a host, but a SQLite store is a file: use sqlite:PATH .* or sqlite:\/\/\/absolute\/path/,
      );
    expect(() => openSessionStore({ cwd: dir, url: "sqlite://user:pw@host/db" })).toThrow(
      "Store URL 'sqlite://user:***@host/db' names a host",
    );
    expect(existsSync("/user:pw@host")).toBe(false);
  });

  it("opens postgres:// URLs with the given schema", async (context) => {
    const server = await testPostgres();
    if ("skip" in server) return context.skip();
    const store = openSessionStore({ cwd: dir, url: server.url, schema: "opened" });
    await store.put("s", { ok: true });
    expect((await store.get("s"))?.data).toEqual({ ok: true });
    await store.close();
  }, 180_000);
});
