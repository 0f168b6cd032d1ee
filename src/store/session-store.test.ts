import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillrtError } from "../errors/skillrt-error.js";
import { testPostgres } from "./__fixtures__/test-postgres.js";
import { createMemoryStore } from "./create-memory-store.js";
import { createPostgresStore } from "./create-postgres-store.js";
import { createSqliteStore } from "./create-sqlite-store.js";
import { SessionBusyError } from "./session-busy-error.js";
import type { SessionStore } from "./session-store.js";
import { StoreConflictError } from "./store-conflict-error.js";

/** A clock that advances one second per reading, so timestamps are distinct and predictable. */
function tickingClock(): () => Date {
  let t = Date.parse("2026-01-01T00:00:00.000Z");
  return () => {
    t += 1000;
    return new Date(t);
  };
}

/** Builds a fresh, empty store; `skip` when this implementation cannot run here (with the reason). */
type Factory = (dir: string, now: () => Date) => Promise<SessionStore | { skip: string }>;

let schemaCount = 0;
const implementations: Array<[string, Factory]> = [
  ["memory", async (_dir, now) => createMemoryStore({ now })],
  ["sqlite file", async (dir, now) => createSqliteStore({ path: path.join(dir, "s.db"), now })],
  ["sqlite :memory:", async (_dir, now) => createSqliteStore({ path: ":memory:", now })],
  [
    "postgres",
    async (_dir, now) => {
      const server = await testPostgres();
      if ("skip" in server) return server;
      // A schema per test: each starts empty, and the migrations run on first use every time.
      schemaCount += 1;
      return createPostgresStore({ url: server.url, schema: `contract_${process.pid}_${schemaCount}`, now });
    },
  ],
];

describe.each(implementations)("SessionStore contract: %s", (_label, factory) => {
  let dir: string;
  let store: SessionStore;

  beforeEach(async (context) => {
    dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-store-"));
    const made = await factory(dir, tickingClock());
    if ("skip" in made) {
      console.log(`skipping: ${made.skip}`);
      context.skip();
      return;
    }
    store = made;
  }, 180_000);
  afterEach(async () => {
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("round-trips a snapshot as a JSON copy", async () => {
    const data = {
      v: 1,
      loaded: ["pdf", "xlsx"],
      nested: { unicode: "日本 ✓ \u0000", n: 1.5 },
      at: new Date(0),
    };
    expect(await store.put("s1", data)).toBe(1);
    const got = await store.get("s1");
    expect(got).toMatchObject({ id: "s1", namespace: "default", version: 1 });
    expect(got?.data).toEqual(JSON.parse(JSON.stringify(data)));
    expect(got?.createdAt).toBe("2026-01-01T00:00:01.000Z");
    expect(got?.updatedAt).toBe(got?.createdAt);
    // Mutating what was written or read does not change what is stored.
    data.loaded.push("docx");
    (got!.data as { loaded: string[] }).loaded.push("pptx");
    expect((await store.get("s1"))?.data).toMatchObject({ loaded: ["pdf", "xlsx"] });
  });

  it("returns undefined for an unknown session", async () => {
    expect(await store.get("missing")).toBeUndefined();
  });

  it("increments the version on every write and keeps createdAt", async () => {
    await store.put("s", { step: 1 });
    await store.put("s", { step: 2 });
    expect(await store.put("s", { step: 3 })).toBe(3);
    const got = await store.get("s");
    expect(got?.data).toEqual({ step: 3 });
    expect(got?.createdAt).toBe("2026-01-01T00:00:01.000Z");
    expect(got?.updatedAt).toBe("2026-01-01T00:00:03.000Z");
  });

  it("refuses a write with a stale expectedVersion and keeps the stored snapshot", async () => {
    expect(await store.put("s", { a: 1 }, { expectedVersion: 0 })).toBe(1);
    expect(await store.put("s", { a: 2 }, { expectedVersion: 1 })).toBe(2);
    const error = await store.put("s", { a: "lost" }, { expectedVersion: 1 }).catch((e: unknown) => e);
    expect(StoreConflictError.isInstance(error)).toBe(true);
    expect(SkillrtError.isInstance(error) && error.code).toBe("store-error");
    expect(error).toMatchObject({ sessionId: "s", expectedVersion: 1, actualVersion: 2 });
    expect((error as Error).message).toMatch(/'s'.*version 1.*version 2/);
    expect((await store.get("s"))?.data).toEqual({ a: 2 });
  });

  it("treats expectedVersion 0 as create-only", async () => {
    await store.put("s", 1);
    await expect(store.put("s", 2, { expectedVersion: 0 })).rejects.toThrow(/expected at version 0/);
    await expect(store.put("new", 1, { expectedVersion: 3 })).rejects.toThrow(/does not exist/);
  });

  it("isolates namespaces", async () => {
    await store.put("s", { who: "a" }, { namespace: "agent-a" });
    await store.put("s", { who: "b" }, { namespace: "agent-b" });
    expect((await store.get("s", "agent-a"))?.data).toEqual({ who: "a" });
    expect((await store.get("s", "agent-b"))?.data).toEqual({ who: "b" });
    expect(await store.get("s")).toBeUndefined();
    expect((await store.list({ namespace: "agent-a" })).map((s) => s.namespace)).toEqual(["agent-a"]);
    expect(await store.delete("s", "agent-a")).toBe(true);
    expect((await store.get("s", "agent-b"))?.data).toEqual({ who: "b" });
    const all = await store.list({ allNamespaces: true });
    expect(all.map((s) => `${s.namespace}/${s.id}`)).toEqual(["agent-b/s"]);
  });

  it("lists most recently written first, without data, honouring limit", async () => {
    await store.put("old", 1);
    await store.put("mid", 1);
    await store.put("new", 1);
    await store.put("old", 2); // rewriting makes it the most recent
    const listed = await store.list();
    expect(listed.map((s) => s.id)).toEqual(["old", "new", "mid"]);
    expect(listed[0]).toEqual({
      id: "old",
      namespace: "default",
      version: 2,
      createdAt: "2026-01-01T00:00:01.000Z",
      updatedAt: "2026-01-01T00:00:04.000Z",
    });
    expect((await store.list({ limit: 2 })).map((s) => s.id)).toEqual(["old", "new"]);
    expect(await store.list({ limit: 0 })).toEqual([]);
  });

  it("deletes sessions and reports whether one existed", async () => {
    await store.put("s", 1);
    expect(await store.delete("s")).toBe(true);
    expect(await store.delete("s")).toBe(false);
    expect(await store.get("s")).toBeUndefined();
    // A deleted session starts again at version 1.
    expect(await store.put("s", 1, { expectedVersion: 0 })).toBe(1);
  });

  it("rejects data that is not JSON-serialisable, naming the session", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    await expect(store.put("s", cyclic)).rejects.toThrow(/Session 's'.*not JSON-serialisable/);
    await expect(store.put("s", undefined)).rejects.toThrow(/must be a JSON value/);
    await expect(store.put("", 1)).rejects.toThrow(/non-empty string/);
    expect(await store.get("s")).toBeUndefined();
  });

  it("refuses every call after close, with a clear error", async () => {
    await store.close();
    await store.close();
    await expect(store.get("s")).rejects.toThrow(/closed/);
    await expect(store.put("s", 1)).rejects.toThrow(/closed/);
  });

  it("locks a session: a second locker waits until the first releases", async () => {
    const first = await store.lockSession("s", { namespace: "agent" });
    const order: string[] = [];
    const second = store.lockSession("s", { namespace: "agent", timeoutMs: 10_000 }).then((lock) => {
      order.push("second acquired");
      return lock;
    });
    // Other sessions and namespaces are not blocked meanwhile.
    const other = await store.lockSession("t", { namespace: "agent", timeoutMs: 1000 });
    const otherNs = await store.lockSession("s", { namespace: "elsewhere", timeoutMs: 1000 });
    await new Promise((resolve) => setTimeout(resolve, 150));
    order.push("first releasing");
    await first.release();
    await (await second).release();
    expect(order).toEqual(["first releasing", "second acquired"]);
    await other.release();
    await otherNs.release();
    await first.release(); // idempotent
  });

  it("gives up after timeoutMs with a SessionBusyError that says what to do", async () => {
    const held = await store.lockSession("s");
    const started = Date.now();
    const error = await store.lockSession("s", { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(SessionBusyError.isInstance(error)).toBe(true);
    expect(SkillrtError.isInstance(error) && error.code).toBe("store-error");
    expect((error as Error).message).toMatch(
      /Session 's' \(namespace 'default'\) is in use by .*Nothing was saved/,
    );
    await held.release();
    await (await store.lockSession("s", { timeoutMs: 1000 })).release();
  });

  it("stops waiting for a lock when aborted", async () => {
    const held = await store.lockSession("s");
    const controller = new AbortController();
    const waiting = store.lockSession("s", { timeoutMs: 10_000, abortSignal: controller.signal });
    setTimeout(() => controller.abort(new Error("user cancelled")), 50);
    await expect(waiting).rejects.toThrow(/user cancelled/);
    await held.release();
    await (await store.lockSession("s", { timeoutMs: 1000 })).release();
  });
});
