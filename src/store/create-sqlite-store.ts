import { mkdirSync } from "node:fs";
import path from "node:path";
import type { DatabaseSync, SQLOutputValue } from "node:sqlite";
import { SkillrtError } from "../errors/skillrt-error.js";
import { loadNodeSqlite } from "../errors/sqlite-unavailable-error.js";
import { type CheckedBlobs, checkDigest, checkPutBlobs, missingBlobError } from "./check-put-blobs.js";
import { nextVersion } from "./next-version.js";
import type {
  ListOptions,
  LockSessionOptions,
  PutOptions,
  SessionLock,
  SessionStore,
  StoredSession,
  StoredSessionInfo,
} from "./session-store.js";
import { DEFAULT_NAMESPACE } from "./session-store.js";
import { checkKey, parseSnapshot, prepareWrite } from "./snapshot-json.js";
import { migrateSqliteSchema } from "./sqlite-schema.js";
import { createSqliteSessionLocks } from "./sqlite-session-locks.js";
import { storeClosedError } from "./store-closed.js";

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions {
  /** Database file (its directory is created), or `:memory:` for a private in-memory database. */
  path: string;
  /**
   * `full` (default): every commit is fsynced to the WAL, so a committed snapshot survives a power loss too.
   * `normal`: commits survive a crash or `kill -9` of the process but the last ones may be lost on power
   * loss or an OS crash; the database is never corrupted either way. One fsync per write is negligible next
   * to a model call, hence the default.
   */
  synchronous?: "full" | "normal";
  /** How long a write waits for another process holding the lock, in ms. Default 5,000. */
  busyTimeoutMs?: number;
  /** Clock for `createdAt`/`updatedAt`. Default `() => new Date()`. */
  now?: () => Date;
  /**
   * Lease of a session lock (`lockSession`) in ms: the holder renews it every third of this; a holder that
   * stopped renewing (hung, or on another machine sharing the file) loses it after this long. Default 30,000.
   */
  lockLeaseMs?: number;
}

const META = "id, namespace, version, created_at, updated_at";

/**
 * A store in one SQLite file through Node's built-in `node:sqlite` (no native dependency). Uses WAL
 * journaling, so readers never block the writer and a write is atomic: a process killed mid-write leaves
 * the previous snapshot intact. Safe to share between processes on one machine.
 */
export function createSqliteStore(options: SqliteStoreOptions): SessionStore {
  const where = options.path;
  const now = options.now ?? (() => new Date());
  const db = openDatabase(options);
  const stmt = {
    get: db.prepare(`SELECT ${META}, data FROM sessions WHERE namespace = ? AND id = ?`),
    version: db.prepare("SELECT version FROM sessions WHERE namespace = ? AND id = ?"),
    upsert: db.prepare(
      `INSERT INTO sessions (namespace, id, version, data, created_at, updated_at, seq)
       VALUES (?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM sessions))
       ON CONFLICT (namespace, id) DO UPDATE SET
         version = excluded.version, data = excluded.data, updated_at = excluded.updated_at, seq = excluded.seq`,
    ),
    list: db.prepare(
      `SELECT ${META}, json_valid(data) AS ok FROM sessions WHERE namespace = ? ORDER BY seq DESC LIMIT ?`,
    ),
    listAll: db.prepare(`SELECT ${META}, json_valid(data) AS ok FROM sessions ORDER BY seq DESC LIMIT ?`),
    delete: db.prepare("DELETE FROM sessions WHERE namespace = ? AND id = ?"),
    refs: db.prepare("SELECT digest FROM session_blobs WHERE namespace = ? AND id = ?"),
    dropRefs: db.prepare("DELETE FROM session_blobs WHERE namespace = ? AND id = ?"),
    addRef: db.prepare("INSERT OR IGNORE INTO session_blobs (namespace, id, digest) VALUES (?, ?, ?)"),
    hasBlob: db.prepare("SELECT 1 AS ok FROM blobs WHERE digest = ?"),
    addBlob: db.prepare("INSERT OR IGNORE INTO blobs (digest, size, data) VALUES (?, ?, ?)"),
    getBlob: db.prepare("SELECT data FROM blobs WHERE digest = ?"),
    collect: db.prepare(
      "DELETE FROM blobs WHERE digest = ? AND NOT EXISTS (SELECT 1 FROM session_blobs WHERE digest = blobs.digest)",
    ),
  };
  /** Digests the session refers to now. */
  const refsOf = (namespace: string, id: string): string[] =>
    stmt.refs.all(namespace, id).map((row) => String(row["digest"]));
  /** Replaces the session's references (inside the caller's write transaction), deleting blobs left unreferred. */
  const setRefs = (namespace: string, id: string, checked: CheckedBlobs): void => {
    for (const [digest, bytes] of checked.add) stmt.addBlob.run(digest, bytes.byteLength, bytes);
    for (const digest of checked.refs) {
      if (stmt.hasBlob.get(digest) === undefined) throw missingBlobError(id, namespace, digest, where);
    }
    const before = refsOf(namespace, id);
    stmt.dropRefs.run(namespace, id);
    for (const digest of checked.refs) stmt.addRef.run(namespace, id, digest);
    for (const digest of before) stmt.collect.run(digest);
  };
  const locks = createSqliteSessionLocks(db, options.lockLeaseMs);
  let closed = false;
  const open = () => {
    if (closed) throw storeClosedError(where);
  };

  return {
    async get(id: string, namespace = DEFAULT_NAMESPACE): Promise<StoredSession | undefined> {
      open();
      const row = stmt.get.get(checkKey("namespace", namespace), checkKey("id", id));
      if (row === undefined) return undefined;
      const info = toInfo(row, where);
      return { ...info, data: parseSnapshot(info.id, info.namespace, row["data"], where) };
    },

    async put(id: string, data: unknown, putOptions: PutOptions = {}): Promise<number> {
      open();
      const { namespace, json } = prepareWrite(id, data, putOptions.namespace);
      const blobs = putOptions.blobs === undefined ? undefined : checkPutBlobs(id, putOptions.blobs);
      const at = now().toISOString();
      // IMMEDIATE takes the write lock up front, so the version check and the write see the same state
      // even with several processes writing the same file.
      db.exec("BEGIN IMMEDIATE");
      try {
        const row = stmt.version.get(namespace, id);
        const current = typeof row?.["version"] === "number" ? row["version"] : 0;
        const version = nextVersion(id, namespace, current, putOptions.expectedVersion);
        stmt.upsert.run(namespace, id, version, json, at, at);
        if (blobs !== undefined) setRefs(namespace, id, blobs);
        db.exec("COMMIT");
        return version;
      } catch (error) {
        if (db.isTransaction) db.exec("ROLLBACK");
        throw wrap(error, `write session '${id}' (namespace '${namespace}') to`, where);
      }
    },

    async list(listOptions: ListOptions = {}): Promise<StoredSessionInfo[]> {
      open();
      const limit = listOptions.limit === undefined ? -1 : Math.max(0, Math.floor(listOptions.limit));
      const rows =
        listOptions.allNamespaces === true
          ? stmt.listAll.all(limit)
          : stmt.list.all(checkKey("namespace", listOptions.namespace ?? DEFAULT_NAMESPACE), limit);
      return rows.map((row) => {
        const info: StoredSessionInfo = toInfo(row, where);
        if (row["ok"] !== 1) info.corrupt = "data is not valid JSON; get() on this session will fail";
        return info;
      });
    },

    async delete(id: string, namespace = DEFAULT_NAMESPACE): Promise<boolean> {
      open();
      const ns = checkKey("namespace", namespace);
      checkKey("id", id);
      // The session, its references and the blobs only it referred to go in one transaction.
      db.exec("BEGIN IMMEDIATE");
      try {
        const result = stmt.delete.run(ns, id);
        const before = refsOf(ns, id);
        stmt.dropRefs.run(ns, id);
        for (const digest of before) stmt.collect.run(digest);
        db.exec("COMMIT");
        return Number(result.changes) > 0;
      } catch (error) {
        if (db.isTransaction) db.exec("ROLLBACK");
        throw wrap(error, `delete session '${id}' (namespace '${ns}') from`, where);
      }
    },

    async missingBlobs(digests: readonly string[]): Promise<string[]> {
      open();
      return [...new Set(digests.map(checkDigest))].filter((d) => stmt.hasBlob.get(d) === undefined);
    },

    async getBlob(digest: string): Promise<Uint8Array | undefined> {
      open();
      const data = stmt.getBlob.get(checkDigest(digest))?.["data"];
      return data instanceof Uint8Array ? data : undefined;
    },

    async lockSession(id: string, lockOptions: LockSessionOptions = {}): Promise<SessionLock> {
      open();
      try {
        return await locks.lock(id, lockOptions);
      } catch (error) {
        if (closed) throw storeClosedError(where);
        if (lockOptions.abortSignal?.aborted === true) throw error;
        throw wrap(error, `lock session '${id}' in`, where);
      }
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      locks.releaseAll();
      db.close();
    },
  };
}

function openDatabase(options: SqliteStoreOptions): DatabaseSync {
  const where = options.path;
  // Loaded on first use, so importing skillrt never loads SQLite for callers who do not persist.
  const sqlite = loadNodeSqlite();
  let db: DatabaseSync | undefined;
  try {
    if (where !== ":memory:") mkdirSync(path.dirname(path.resolve(where)), { recursive: true });
    db = new sqlite.DatabaseSync(where);
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    // Opening waits for no fsync: the switch to WAL and the schema (both redone by the next open if a power
    // failure loses them) are written at NORMAL; sessions are then saved at the configured level.
    db.exec("PRAGMA synchronous = NORMAL");
    const mode = db.prepare("PRAGMA journal_mode = WAL").get()?.["journal_mode"];
    if (mode !== "wal" && where !== ":memory:") {
      throw new Error(`journal_mode is '${String(mode)}', WAL could not be enabled`);
    }
    migrateSqliteSchema(db, where);
    db.exec(`PRAGMA synchronous = ${options.synchronous === "normal" ? "NORMAL" : "FULL"}`);
    return db;
  } catch (error) {
    db?.close();
    throw wrap(error, "open", where);
  }
}

function toInfo(row: Record<string, SQLOutputValue>, where: string): StoredSessionInfo {
  const { id, namespace, version, created_at: createdAt, updated_at: updatedAt } = row;
  if (
    typeof id !== "string" ||
    typeof namespace !== "string" ||
    typeof version !== "number" ||
    typeof createdAt !== "string" ||
    typeof updatedAt !== "string"
  ) {
    throw new SkillrtError({
      code: "store-error",
      message: `Session '${String(id)}' in ${where} has a malformed row; delete it or restore a backup.`,
    });
  }
  return { id, namespace, version, createdAt, updatedAt };
}

function wrap(error: unknown, action: string, where: string): unknown {
  if (SkillrtError.isInstance(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new SkillrtError({
    code: "store-error",
    message: `Could not ${action} session database ${where}: ${reason}. Check the path, its permissions, and that it is a SQLite file.`,
    cause: error,
  });
}
