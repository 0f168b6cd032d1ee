import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillrtError } from "../errors/skillrt-error.js";
import { testPostgres } from "./__fixtures__/test-postgres.js";
import { createMemoryStore } from "./create-memory-store.js";
import { createPostgresStore } from "./create-postgres-store.js";
import { createSqliteStore } from "./create-sqlite-store.js";
import type { SessionBlob, SessionStore } from "./session-store.js";
import { StoreConflictError } from "./store-conflict-error.js";

type Factory = (dir: string) => Promise<SessionStore | { skip: string }>;

let schemaCount = 0;
const implementations: Array<[string, Factory]> = [
  ["memory", async () => createMemoryStore()],
  ["sqlite", async (dir) => createSqliteStore({ path: path.join(dir, "s.db") })],
  [
    "postgres",
    async () => {
      const server = await testPostgres();
      if ("skip" in server) return server;
      schemaCount += 1;
      return createPostgresStore({ url: server.url, schema: `blobs_${process.pid}_${schemaCount}` });
    },
  ],
];

function blob(text: string): SessionBlob {
  const bytes = new TextEncoder().encode(text);
  return { digest: createHash("sha256").update(bytes).digest("hex"), bytes };
}
const text = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);

describe.each(implementations)("session blobs: %s", (label, factory) => {
  let dir: string;
  let store: SessionStore;

  beforeEach(async (context) => {
    dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-blobs-"));
    const made = await factory(dir);
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

  it("keeps a write's blobs, sends each content once, and gives the bytes back", async () => {
    const a = blob("alpha");
    const b = blob("beta");
    expect(await store.missingBlobs?.([a.digest, b.digest, a.digest])).toEqual([a.digest, b.digest]);
    await store.put("s1", { files: 2 }, { blobs: { refs: [a.digest, b.digest], add: [a, b] } });
    expect(await store.missingBlobs?.([a.digest, b.digest])).toEqual([]);
    expect(text(await store.getBlob?.(a.digest))).toBe("alpha");
    // A second session with the same content refers to it without sending it again.
    await store.put("s2", { files: 1 }, { blobs: { refs: [a.digest] } });
    expect(text(await store.getBlob?.(a.digest))).toBe("alpha");
    if (label === "sqlite") {
      await store.close();
      const db = new DatabaseSync(path.join(dir, "s.db"));
      expect(db.prepare("SELECT count(*) AS n FROM blobs").get()?.["n"]).toBe(2);
      expect(db.prepare("SELECT count(*) AS n FROM session_blobs").get()?.["n"]).toBe(3);
      db.close();
    }
  });

  it("a newer write's refs replace the older ones; a blob no session refers to is deleted", async () => {
    const a = blob("old content");
    const b = blob("new content");
    const shared = blob("shared");
    await store.put("s1", {}, { blobs: { refs: [a.digest, shared.digest], add: [a, shared] } });
    await store.put("s2", {}, { blobs: { refs: [shared.digest] } });
    await store.put("s1", {}, { blobs: { refs: [b.digest, shared.digest], add: [b] } });
    expect(await store.getBlob?.(a.digest)).toBeUndefined();
    expect(text(await store.getBlob?.(b.digest))).toBe("new content");
    // A write without blobs leaves the references as they were.
    await store.put("s1", { again: true });
    expect(text(await store.getBlob?.(b.digest))).toBe("new content");
    // Deleting a session deletes the blobs only it referred to.
    expect(await store.delete("s1")).toBe(true);
    expect(await store.getBlob?.(b.digest)).toBeUndefined();
    expect(text(await store.getBlob?.(shared.digest))).toBe("shared");
    expect(await store.delete("s2")).toBe(true);
    expect(await store.missingBlobs?.([shared.digest])).toEqual([shared.digest]);
  });

  it("refuses a write that refers to a blob it does not hold, and writes nothing", async () => {
    const a = blob("never sent");
    const error = await store.put("s1", { v: 1 }, { blobs: { refs: [a.digest] } }).catch((e: unknown) => e);
    expect(SkillrtError.isInstance(error) && error.code).toBe("store-error");
    expect((error as Error).message).toContain(`refers to blob ${a.digest}`);
    expect(await store.get("s1")).toBeUndefined();
  });

  it("refuses bytes that do not hash to their digest", async () => {
    const a = blob("real");
    const forged = { digest: a.digest, bytes: new TextEncoder().encode("forged") };
    const error = await store.put("s1", {}, { blobs: { refs: [a.digest], add: [forged] } }).catch((e) => e);
    expect(SkillrtError.isInstance(error) && error.code).toBe("invalid-argument");
    expect((error as Error).message).toContain("not to its digest");
    expect(await store.missingBlobs?.([a.digest])).toEqual([a.digest]);
    await expect(store.getBlob?.("not-a-digest")).rejects.toThrow(/64 lower-case hex/);
  });

  it("a conflicting write adds none of its blobs", async () => {
    await store.put("s1", {}, { expectedVersion: 0 });
    const a = blob("lost write");
    const error = await store
      .put("s1", {}, { expectedVersion: 0, blobs: { refs: [a.digest], add: [a] } })
      .catch((e: unknown) => e);
    expect(StoreConflictError.isInstance(error)).toBe(true);
    expect(await store.missingBlobs?.([a.digest])).toEqual([a.digest]);
  });
});

describe("session blobs under concurrency (postgres)", () => {
  it("saves and deletes racing on shared content leave no reference to a missing blob", async (context) => {
    const server = await testPostgres();
    if ("skip" in server) return context.skip();
    schemaCount += 1;
    const store = createPostgresStore({
      url: server.url,
      schema: `blobs_race_${process.pid}_${schemaCount}`,
    });
    try {
      const shared = blob("shared by everyone");
      /** A save as the engine makes it: ask what is missing, send that, retry when a blob vanished meanwhile. */
      const save = async (id: string, own: SessionBlob): Promise<void> => {
        for (let attempt = 0; ; attempt++) {
          const refs = [shared.digest, own.digest];
          const missing = new Set(await store.missingBlobs?.(refs));
          const add = [shared, own].filter((b) => missing.has(b.digest));
          try {
            await store.put(id, { id }, { blobs: { refs, add } });
            return;
          } catch (error) {
            if (attempt > 20 || !(error as Error).message.includes("refers to blob")) throw error;
          }
        }
      };
      for (let round = 0; round < 5; round++) {
        await Promise.all(
          Array.from({ length: 12 }, (_v, i) =>
            i % 3 === 0 ? store.delete(`s${i - 1}`) : save(`s${i}`, blob(`own ${i} ${round}`)),
          ),
        );
      }
      const sessions = await store.list();
      expect(sessions.length).toBeGreaterThan(0);
      for (const session of sessions) {
        const id = session.id;
        const i = Number(id.slice(1));
        expect(text(await store.getBlob?.(shared.digest))).toBe("shared by everyone");
        expect(text(await store.getBlob?.(blob(`own ${i} 4`).digest))).toBe(`own ${i} 4`);
      }
      for (const session of sessions) await store.delete(session.id);
      expect(await store.missingBlobs?.([shared.digest])).toEqual([shared.digest]);
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe("a SQLite file from before blobs (schema version 2)", () => {
  it("is migrated on open: its sessions stay, and their files can be kept", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-blobs-migrate-"));
    try {
      const file = path.join(dir, "s.db");
      const before = createSqliteStore({ path: file });
      await before.put("old", { kept: true });
      await before.close();
      // Back to version 2: what a file written by the previous release looks like.
      const db = new DatabaseSync(file);
      db.exec("DROP TABLE session_blobs; DROP TABLE blobs; DELETE FROM skillrt_schema WHERE version = 3");
      db.close();
      const store = createSqliteStore({ path: file });
      try {
        expect((await store.get("old"))?.data).toEqual({ kept: true });
        const a = blob("after the upgrade");
        await store.put("old", { kept: true }, { blobs: { refs: [a.digest], add: [a] } });
        expect(text(await store.getBlob?.(a.digest))).toBe("after the upgrade");
      } finally {
        await store.close();
      }
      const check = new DatabaseSync(file);
      expect(check.prepare("SELECT MAX(version) AS v FROM skillrt_schema").get()).toEqual({ v: 3 });
      check.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
