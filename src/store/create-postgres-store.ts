import os from "node:os";
import type pg from "pg";
import { SkillrtError } from "../errors/skillrt-error.js";
import { type CheckedBlobs, checkDigest, checkPutBlobs, missingBlobError } from "./check-put-blobs.js";
import { migratePostgresSchema, quoteSchema } from "./postgres-schema.js";
import { type PostgresTarget, postgresConnectError, postgresTarget } from "./postgres-target.js";
import { withoutStoreSecrets } from "./redact-store-url.js";
import { SessionBusyError } from "./session-busy-error.js";
import type {
  ListOptions,
  LockSessionOptions,
  PutOptions,
  SessionLock,
  SessionStore,
  StoredSession,
  StoredSessionInfo,
} from "./session-store.js";
import { DEFAULT_LOCK_TIMEOUT_MS, DEFAULT_NAMESPACE } from "./session-store.js";
import { checkKey, parseSnapshot, prepareWrite } from "./snapshot-json.js";
import { storeClosedError } from "./store-closed.js";
import { StoreConflictError } from "./store-conflict-error.js";

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /** `postgres://USER:PASSWORD@HOST:PORT/DATABASE` (libpq parameters such as `sslmode` may follow). */
  url: string;
  /** Schema holding skillrt's tables; created on first use. Default `skillrt`. */
  schema?: string;
  /** Most pooled connections (session locks use their own, one per held lock). Default 10. */
  maxConnections?: number;
  /** How long connecting may take before it fails, in ms. Default 10,000. */
  connectTimeoutMs?: number;
  /** Clock for `createdAt`/`updatedAt`. Default `() => new Date()`. */
  now?: () => Date;
}

interface MetaRow {
  id: string;
  namespace: string;
  version: number;
  created_at: Date;
  updated_at: Date;
}

/**
 * A store in PostgreSQL through the `pg` client, for many engine instances (processes, replicas behind a
 * load balancer) sharing sessions. Connects lazily: the first call opens the pool and applies the schema's
 * migrations. Every write is one atomic statement; optimistic concurrency is checked by the database
 * (`WHERE version = expected`), so a stale write fails with a `StoreConflictError` on any replica. Session
 * locks are `pg_advisory_lock`s held on a dedicated connection, released when it closes (also when the
 * holding process dies).
 *
 * Connection failures are `store-error`s with one line naming the host, port, database and user, and what to
 * check.
 */
export function createPostgresStore(options: PostgresStoreOptions): SessionStore {
  const target = postgresTarget(options.url);
  const schemaName = options.schema ?? "skillrt";
  const s = quoteSchema(schemaName);
  const where = `PostgreSQL ${target.host}:${target.port}/${target.database} (schema ${schemaName})`;
  const now = options.now ?? (() => new Date());
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const appName = `skillrt pid ${process.pid} on ${os.hostname()}`;
  // `pg` is loaded on first use, so a CLI run on SQLite never pays for it.
  let driver: typeof pg | undefined;
  let pool: pg.Pool | undefined;
  const lockClients = new Set<pg.Client>();
  let ready: Promise<void> | undefined;
  let closed = false;

  const sql = {
    get: `SELECT id, namespace, version, created_at, updated_at, data::text AS data FROM ${s}.sessions WHERE namespace = $1 AND id = $2`,
    version: `SELECT version FROM ${s}.sessions WHERE namespace = $1 AND id = $2`,
    upsert: `INSERT INTO ${s}.sessions (namespace, id, version, data, created_at, updated_at, seq)
             VALUES ($1, $2, 1, $3, $4, $4, nextval('${s}.sessions_seq'))
             ON CONFLICT (namespace, id) DO UPDATE SET version = ${s}.sessions.version + 1, data = excluded.data,
               updated_at = excluded.updated_at, seq = excluded.seq
             RETURNING version`,
    create: `INSERT INTO ${s}.sessions (namespace, id, version, data, created_at, updated_at, seq)
             VALUES ($1, $2, 1, $3, $4, $4, nextval('${s}.sessions_seq'))
             ON CONFLICT (namespace, id) DO NOTHING RETURNING version`,
    update: `UPDATE ${s}.sessions SET version = version + 1, data = $3, updated_at = $4,
               seq = nextval('${s}.sessions_seq')
             WHERE namespace = $1 AND id = $2 AND version = $5 RETURNING version`,
    list: `SELECT id, namespace, version, created_at, updated_at FROM ${s}.sessions WHERE namespace = $1 ORDER BY seq DESC LIMIT $2`,
    listAll: `SELECT id, namespace, version, created_at, updated_at FROM ${s}.sessions ORDER BY seq DESC LIMIT $1`,
    delete: `DELETE FROM ${s}.sessions WHERE namespace = $1 AND id = $2`,
    addBlob: `INSERT INTO ${s}.blobs (digest, size, data) VALUES ($1, $2, $3) ON CONFLICT (digest) DO NOTHING`,
    // Locks the held blobs a write refers to, so no concurrent delete removes one before the write commits.
    // Row locks are taken in digest order here and in `collect`, so a save and a delete never deadlock.
    heldBlobs: `SELECT digest FROM ${s}.blobs WHERE digest = ANY($1::text[]) ORDER BY digest FOR KEY SHARE`,
    dropRefs: `DELETE FROM ${s}.session_blobs WHERE namespace = $1 AND id = $2 RETURNING digest`,
    addRefs: `INSERT INTO ${s}.session_blobs (namespace, id, digest) SELECT $1, $2, unnest($3::text[])`,
    collect: `DELETE FROM ${s}.blobs WHERE digest IN (
                SELECT b.digest FROM ${s}.blobs b WHERE b.digest = ANY($1::text[])
                  AND NOT EXISTS (SELECT 1 FROM ${s}.session_blobs r WHERE r.digest = b.digest)
                ORDER BY b.digest FOR UPDATE)`,
    missing: `SELECT d AS digest FROM unnest($1::text[]) AS d
              WHERE NOT EXISTS (SELECT 1 FROM ${s}.blobs b WHERE b.digest = d)`,
    getBlob: `SELECT data FROM ${s}.blobs WHERE digest = $1`,
  };

  async function prepare(): Promise<void> {
    if (closed) throw storeClosedError(where);
    ready ??= (async () => {
      driver ??= (await import("pg")).default;
      pool ??= new driver.Pool({
        connectionString: options.url,
        max: options.maxConnections ?? 10,
        connectionTimeoutMillis: connectTimeoutMs,
        application_name: appName,
      });
      // An idle connection that dies emits here; the next query reports the problem instead.
      pool.on("error", () => {});
      const client = await pool.connect();
      try {
        await migratePostgresSchema(client, schemaName, where);
      } finally {
        client.release();
      }
    })().catch((error: unknown) => {
      ready = undefined; // a later call tries again (the server may be back)
      throw failure(error, target, where, options.url);
    });
    await ready;
  }

  async function query<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<R>> {
    await prepare();
    if (pool === undefined) throw storeClosedError(where);
    try {
      return await pool.query<R>(text, values);
    } catch (error) {
      if (closed) throw storeClosedError(where);
      throw failure(error, target, where, options.url);
    }
  }

  /** Runs `work` in one transaction on a pooled connection (rolled back when it throws). */
  async function transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    await prepare();
    if (pool === undefined) throw storeClosedError(where);
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      if (closed) throw storeClosedError(where);
      throw failure(error, target, where, options.url);
    }
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      if (closed) throw storeClosedError(where);
      throw failure(error, target, where, options.url);
    } finally {
      client.release();
    }
  }

  /**
   * Deletes those of `digests` no session refers to. A write that took a reference to one meanwhile makes
   * the delete fail on the foreign key: that blob is kept (it is referred to again), the others are still
   * tried one by one.
   */
  async function collect(client: pg.PoolClient, digests: string[]): Promise<void> {
    if (digests.length === 0) return;
    const attempt = async (batch: string[]): Promise<boolean> => {
      await client.query("SAVEPOINT collect");
      try {
        await client.query(sql.collect, [batch]);
        await client.query("RELEASE SAVEPOINT collect");
        return true;
      } catch (error) {
        if ((error as { code?: string }).code !== "23503") throw error;
        await client.query("ROLLBACK TO SAVEPOINT collect");
        return false;
      }
    };
    if (await attempt(digests)) return;
    for (const digest of digests) await attempt([digest]);
  }

  /** Replaces the session's references inside the caller's transaction; its old blobs left unreferred go. */
  async function setRefs(client: pg.PoolClient, namespace: string, id: string, blobs: CheckedBlobs) {
    for (const [digest, bytes] of blobs.add) {
      await client.query(sql.addBlob, [
        digest,
        bytes.byteLength,
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      ]);
    }
    const held = new Set(
      (await client.query<{ digest: string }>(sql.heldBlobs, [blobs.refs])).rows.map((r) => r.digest),
    );
    const missing = blobs.refs.find((digest) => !held.has(digest));
    if (missing !== undefined) throw missingBlobError(id, namespace, missing, where);
    const before = (await client.query<{ digest: string }>(sql.dropRefs, [namespace, id])).rows;
    await client.query(sql.addRefs, [namespace, id, blobs.refs]);
    const kept = new Set(blobs.refs);
    await collect(
      client,
      before.map((r) => r.digest).filter((d) => !kept.has(d)),
    );
  }

  /** A write with blobs: the blobs, the snapshot and the references in one transaction. */
  async function putWithBlobs(
    id: string,
    namespace: string,
    json: string,
    at: string,
    expected: number | undefined,
    blobs: CheckedBlobs,
  ): Promise<number> {
    return transaction(async (client) => {
      const result =
        expected === undefined
          ? await client.query<{ version: number }>(sql.upsert, [namespace, id, json, at])
          : expected === 0
            ? await client.query<{ version: number }>(sql.create, [namespace, id, json, at])
            : await client.query<{ version: number }>(sql.update, [namespace, id, json, at, expected]);
      const version = result.rows[0]?.version;
      if (version === undefined) {
        const current = await client.query<{ version: number }>(sql.version, [namespace, id]);
        throw new StoreConflictError({
          id,
          namespace,
          expectedVersion: expected ?? 0,
          actualVersion: current.rows[0]?.version ?? 0,
        });
      }
      await setRefs(client, namespace, id, blobs);
      return version;
    });
  }

  return {
    async get(id: string, namespace = DEFAULT_NAMESPACE): Promise<StoredSession | undefined> {
      const ns = checkKey("namespace", namespace);
      const result = await query<MetaRow & { data: string }>(sql.get, [ns, checkKey("id", id)]);
      const row = result.rows[0];
      if (row === undefined) return undefined;
      return { ...toInfo(row), data: parseSnapshot(row.id, row.namespace, row.data, where) };
    },

    async put(id: string, data: unknown, putOptions: PutOptions = {}): Promise<number> {
      const { namespace, json } = prepareWrite(id, data, putOptions.namespace);
      const at = now().toISOString();
      const expected = putOptions.expectedVersion;
      if (putOptions.blobs !== undefined)
        return putWithBlobs(id, namespace, json, at, expected, checkPutBlobs(id, putOptions.blobs));
      const result =
        expected === undefined
          ? await query<{ version: number }>(sql.upsert, [namespace, id, json, at])
          : expected === 0
            ? await query<{ version: number }>(sql.create, [namespace, id, json, at])
            : await query<{ version: number }>(sql.update, [namespace, id, json, at, expected]);
      const version = result.rows[0]?.version;
      if (version !== undefined) return version;
      const current = await query<{ version: number }>(sql.version, [namespace, id]);
      throw new StoreConflictError({
        id,
        namespace,
        expectedVersion: expected ?? 0,
        actualVersion: current.rows[0]?.version ?? 0,
      });
    },

    async list(listOptions: ListOptions = {}): Promise<StoredSessionInfo[]> {
      const limit = listOptions.limit === undefined ? null : Math.max(0, Math.floor(listOptions.limit));
      const result =
        listOptions.allNamespaces === true
          ? await query<MetaRow>(sql.listAll, [limit])
          : await query<MetaRow>(sql.list, [
              checkKey("namespace", listOptions.namespace ?? DEFAULT_NAMESPACE),
              limit,
            ]);
      return result.rows.map(toInfo);
    },

    async delete(id: string, namespace = DEFAULT_NAMESPACE): Promise<boolean> {
      const ns = checkKey("namespace", namespace);
      checkKey("id", id);
      // The session, its references and the blobs only it referred to go in one transaction.
      return transaction(async (client) => {
        const result = await client.query(sql.delete, [ns, id]);
        const before = await client.query<{ digest: string }>(sql.dropRefs, [ns, id]);
        await collect(
          client,
          before.rows.map((r) => r.digest),
        );
        return (result.rowCount ?? 0) > 0;
      });
    },

    async missingBlobs(digests: readonly string[]): Promise<string[]> {
      const unique = [...new Set(digests.map(checkDigest))];
      if (unique.length === 0) return [];
      const missing = new Set(
        (await query<{ digest: string }>(sql.missing, [unique])).rows.map((r) => r.digest),
      );
      return unique.filter((digest) => missing.has(digest));
    },

    async getBlob(digest: string): Promise<Uint8Array | undefined> {
      const result = await query<{ data: Buffer }>(sql.getBlob, [checkDigest(digest)]);
      const data = result.rows[0]?.data;
      return data === undefined ? undefined : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    },

    async lockSession(id: string, lockOptions: LockSessionOptions = {}): Promise<SessionLock> {
      const namespace = checkKey("namespace", lockOptions.namespace ?? DEFAULT_NAMESPACE);
      checkKey("id", id);
      await prepare();
      const timeoutMs = Math.max(0, Math.floor(lockOptions.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS));
      const key = JSON.stringify([schemaName, namespace, id]);
      if (driver === undefined || pool === undefined) throw storeClosedError(where);
      const lockPool = pool;
      const client = new driver.Client({
        connectionString: options.url,
        connectionTimeoutMillis: connectTimeoutMs,
        application_name: appName,
      });
      client.on("error", () => {}); // a dropped lock connection releases the lock; versions still guard writes
      const started = Date.now();
      const signal = lockOptions.abortSignal;
      const onAbort = (): void => void client.end().catch(() => {});
      signal?.throwIfAborted();
      signal?.addEventListener("abort", onAbort, { once: true });
      lockClients.add(client);
      try {
        await client.connect();
        let got = true;
        if (timeoutMs === 0) {
          const r = await client.query<{ ok: boolean }>(
            "SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok",
            [key],
          );
          got = r.rows[0]?.ok === true;
        } else {
          await client.query(`SET lock_timeout = ${timeoutMs}`);
          await client
            .query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [key])
            .catch((error: unknown) => {
              if ((error as { code?: string }).code !== "55P03") throw error;
              got = false;
            });
        }
        if (!got) {
          const holder = await lockHolder(lockPool, key).catch(() => undefined);
          throw new SessionBusyError({ id, namespace, waitedMs: Date.now() - started, holder });
        }
      } catch (error) {
        lockClients.delete(client);
        await client.end().catch(() => {});
        signal?.throwIfAborted();
        if (closed) throw storeClosedError(where);
        throw failure(error, target, where, options.url);
      } finally {
        signal?.removeEventListener("abort", onAbort);
      }
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          lockClients.delete(client);
          // Closing the connection ends its session, which releases the advisory lock.
          await client.end().catch(() => {});
        },
      };
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await Promise.all([...lockClients].map((c) => c.end().catch(() => {})));
      lockClients.clear();
      await pool?.end().catch(() => {});
    },
  };
}

/** `pid N on HOST` of the connection holding the advisory lock `key`, from its `application_name`. */
async function lockHolder(pool: pg.Pool, key: string): Promise<string | undefined> {
  const result = await pool.query<{ name: string }>(
    `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
       AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended($1, 0)`,
    [key],
  );
  const name = result.rows[0]?.name;
  return name?.startsWith("skillrt ") === true ? name.slice("skillrt ".length) : name;
}

function toInfo(row: MetaRow): StoredSessionInfo {
  return {
    id: row.id,
    namespace: row.namespace,
    version: row.version,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * A failed query: connection problems get the one-line connect message, the rest a store error. Whatever
 * the driver or server said, the URL's password never reaches the message (`withoutStoreSecrets`).
 */
function failure(error: unknown, target: PostgresTarget, where: string, url: string): unknown {
  if (SkillrtError.isInstance(error)) return error;
  const code = (error as { code?: string }).code ?? "";
  // SQLSTATE classes 08 (connection), 28 (auth), 3D (database), 57 (shutdown), and Node's socket errors.
  if (/^(08|28|3D|57)/.test(code) || /^E[A-Z]+$/.test(code) || !/^[0-9A-Z]{5}$/.test(code)) {
    const connect = postgresConnectError(error, target);
    connect.message = withoutStoreSecrets(connect.message, url);
    return connect;
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new SkillrtError({
    code: "store-error",
    message: withoutStoreSecrets(`Session store ${where}: ${reason}`, url),
    cause: error,
  });
}
