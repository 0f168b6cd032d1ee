/**
 * Session locks across processes: a turn in one process holds the session; another process waits or gets a
 * clear `SessionBusyError`; a holder killed with SIGKILL does not block the session.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killHard, spawnLockHolder } from "./__fixtures__/spawn-lock-holder.js";
import { testPostgres } from "./__fixtures__/test-postgres.js";
import { createPostgresStore } from "./create-postgres-store.js";
import { createSqliteStore } from "./create-sqlite-store.js";
import { SessionBusyError } from "./session-busy-error.js";
import type { SessionStore } from "./session-store.js";

let dir: string;
let pgUrl: string | undefined;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-lock-"));
  const server = await testPostgres();
  if ("url" in server) pgUrl = server.url;
  else console.log(`skipping Postgres lock tests: ${server.skip}`);
}, 180_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Case {
  label: string;
  available: () => boolean;
  /** Arguments of lock-holder.mjs before the session id, and a store over the same database. */
  setup: (name: string) => { args: string[]; open: () => SessionStore };
}

const cases: Case[] = [
  {
    label: "sqlite",
    available: () => true,
    setup: (name) => {
      const file = path.join(dir, `${name}.db`);
      return { args: ["sqlite", file], open: () => createSqliteStore({ path: file }) };
    },
  },
  {
    label: "postgres",
    available: () => pgUrl !== undefined,
    setup: (name) => ({
      args: ["postgres", pgUrl ?? "", `lock_${name}`],
      open: () => createPostgresStore({ url: pgUrl ?? "", schema: `lock_${name}` }),
    }),
  },
];

describe.each(cases)("session locks across processes: $label", ({ label, available, setup }) => {
  it("makes another process wait, then fail clearly, naming the holder", async (context) => {
    if (!available()) return context.skip();
    const { args, open } = setup(`busy_${label}`);
    const store = open();
    await store.put("s", { turns: 0 }); // creates the schema before the child races for it
    const holder = await spawnLockHolder([...args, "s"]);
    try {
      const error = await store.lockSession("s", { timeoutMs: 300 }).catch((e: unknown) => e);
      expect(SessionBusyError.isInstance(error)).toBe(true);
      expect((error as SessionBusyError).holder).toBe(`pid ${holder.pid} on ${os.hostname()}`);
      expect((error as Error).message).toContain(`in use by pid ${holder.pid}`);
      // Another session of the same store is free.
      await (await store.lockSession("other", { timeoutMs: 1000 })).release();
    } finally {
      await killHard(holder);
      await store.close();
    }
  }, 60_000);

  it("takes over promptly from a holder killed with SIGKILL", async (context) => {
    if (!available()) return context.skip();
    const { args, open } = setup(`kill_${label}`);
    const store = open();
    await store.put("s", { turns: 0 });
    const holder = await spawnLockHolder([...args, "s"]);
    const waiting = store.lockSession("s", { timeoutMs: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const killedAt = Date.now();
    await killHard(holder);
    const lock = await waiting;
    // Far less than the 30 s lease: the dead holder is noticed, not waited out.
    expect(Date.now() - killedAt).toBeLessThan(5000);
    await lock.release();
    expect((await store.get("s"))?.data).toEqual({ turns: 0 });
    await store.close();
  }, 60_000);

  it("close() releases the locks a store holds", async (context) => {
    if (!available()) return context.skip();
    const { open } = setup(`close_${label}`);
    const a = open();
    const b = open();
    await a.put("s", 1);
    await a.lockSession("s");
    await expect(b.lockSession("s", { timeoutMs: 100 })).rejects.toThrow(/in use/);
    await a.close();
    await (await b.lockSession("s", { timeoutMs: 5000 })).release();
    await b.close();
  }, 60_000);
});
