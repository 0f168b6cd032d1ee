import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillrtError } from "../errors/skillrt-error.js";
import { testPostgres } from "./__fixtures__/test-postgres.js";
import { createPostgresStore } from "./create-postgres-store.js";
import { POSTGRES_SCHEMA_VERSION } from "./postgres-schema.js";
import { StoreConflictError } from "./store-conflict-error.js";

let url: string | undefined;
let admin: pg.Client | undefined;
beforeAll(async () => {
  const server = await testPostgres();
  if ("skip" in server) {
    console.log(`skipping Postgres store tests: ${server.skip}`);
    return;
  }
  url = server.url;
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
}, 180_000);
afterAll(async () => {
  await admin?.end();
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("createPostgresStore connection failures (one clear line)", () => {
  it("names host and port and what to check when nothing listens", async () => {
    const port = await closedPort();
    const store = createPostgresStore({ url: `postgres://skillrt:s3cret@127.0.0.1:${port}/app` });
    const error = await store.get("s").catch((e: unknown) => e);
    expect(SkillrtError.isInstance(error) && error.code).toBe("store-error");
    const message = (error as Error).message;
    expect(message).toBe(
      `Cannot use the session store at PostgreSQL 127.0.0.1:${port} (database 'app', user 'skillrt'): ` +
        "connection refused. Check that the server is running and that the host and port in the store URL are right.",
    );
    expect(message).not.toContain("s3cret");
    await store.close();
  });

  it("says the host name does not resolve", async () => {
    const store = createPostgresStore({
      url: "postgres://u@no-such-host.invalid:5432/db",
      connectTimeoutMs: 5000,
    });
    await expect(store.list()).rejects.toThrow(
      /no-such-host\.invalid:5432.*could not be resolved.*Check the host/,
    );
    await store.close();
  });

  it("refuses a URL that is not postgres:// and a bad schema name, before connecting", () => {
    expect(() => createPostgresStore({ url: "mysql://x@y/z" })).toThrow(/not a postgres:\/\/ URL/);
    expect(() => createPostgresStore({ url: "not a url:s3cret@" })).toThrow(/not a URL/);
    expect(() => createPostgresStore({ url: "postgres://h/d", schema: 'x"; drop' })).toThrow(
      /schema name .* is not allowed/,
    );
  });
});

describe("createPostgresStore on a real server", () => {
  it("says which database does not exist", async (context) => {
    if (url === undefined) return context.skip();
    const store = createPostgresStore({ url: url.replace(/\/postgres$/, "/nodb") });
    await expect(store.get("s")).rejects.toThrow(/database 'nodb' does not exist\. Create it/);
    await store.close();
  });

  it("shares sessions between replicas and refuses a stale write from either", async (context) => {
    if (url === undefined) return context.skip();
    const a = createPostgresStore({ url, schema: "replicas" });
    const b = createPostgresStore({ url, schema: "replicas" });
    const v1 = await a.put("s", { by: "a" }, { expectedVersion: 0 });
    expect((await b.get("s"))?.data).toEqual({ by: "a" });
    expect(await b.put("s", { by: "b" }, { expectedVersion: v1 })).toBe(2);
    const error = await a.put("s", { by: "a, stale" }, { expectedVersion: v1 }).catch((e: unknown) => e);
    expect(StoreConflictError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ expectedVersion: 1, actualVersion: 2 });
    expect((await a.get("s"))?.data).toEqual({ by: "b" });
    await a.close();
    await b.close();
  });

  it("applies migrations once even when many replicas start together", async (context) => {
    if (url === undefined || admin === undefined) return context.skip();
    const stores = Array.from({ length: 6 }, () =>
      createPostgresStore({ url: url ?? "", schema: "together" }),
    );
    const versions = await Promise.all(stores.map((s, i) => s.put(`s${i}`, { i })));
    expect(versions).toEqual([1, 1, 1, 1, 1, 1]);
    const rows = await admin.query("SELECT version FROM together.skillrt_schema ORDER BY version");
    expect(rows.rows.map((r) => r.version)).toEqual(
      Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_v, i) => i + 1),
    );
    await Promise.all(stores.map((s) => s.close()));
  });

  it("keeps every write of concurrent writers with expectedVersion: each either lands or conflicts", async (context) => {
    if (url === undefined) return context.skip();
    const stores = Array.from({ length: 4 }, () => createPostgresStore({ url: url ?? "", schema: "race" }));
    await stores[0]?.put("counter", { n: 0 });
    let landed = 0;
    await Promise.all(
      stores.map(async (store) => {
        for (let i = 0; i < 15; i++) {
          for (;;) {
            const current = await store.get("counter");
            const n = (current?.data as { n: number } | undefined)?.n ?? 0;
            try {
              await store.put("counter", { n: n + 1 }, { expectedVersion: current?.version ?? 0 });
              landed++;
              break;
            } catch (error) {
              if (!StoreConflictError.isInstance(error)) throw error;
            }
          }
        }
      }),
    );
    const final = await stores[0]?.get("counter");
    expect(landed).toBe(60);
    expect(final?.data).toEqual({ n: 60 });
    expect(final?.version).toBe(61);
    await Promise.all(stores.map((s) => s.close()));
  });

  it("refuses a schema written by a newer skillrt", async (context) => {
    if (url === undefined || admin === undefined) return context.skip();
    const store = createPostgresStore({ url, schema: "future" });
    await store.put("s", 1);
    await store.close();
    await admin.query("INSERT INTO future.skillrt_schema (version, applied_at) VALUES (99, now())");
    const again = createPostgresStore({ url, schema: "future" });
    await expect(again.get("s")).rejects.toThrow(
      /version 99, newer than this skillrt supports.*Upgrade skillrt/,
    );
    await again.close();
  });

  it("refuses every call after close", async (context) => {
    if (url === undefined) return context.skip();
    const store = createPostgresStore({ url, schema: "closing" });
    await store.put("s", 1);
    await store.close();
    await store.close();
    await expect(store.get("s")).rejects.toThrow(/closed/);
    await expect(store.lockSession("s")).rejects.toThrow(/closed/);
  });
});
