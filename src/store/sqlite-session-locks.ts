/**
 * Session locks of the SQLite store: a lease row per locked session, taken inside a write transaction
 * (`BEGIN IMMEDIATE`, so two processes never both take it), kept alive by a heartbeat while held, and taken
 * over when it expired or its holder (a process on this machine) is gone — a `kill -9` mid-turn blocks
 * nobody for longer than it takes to notice. A lease is written without waiting for the disk (WAL,
 * `synchronous = NORMAL` for that one transaction): one lost to a power failure held nothing, as every
 * holder died with it; the fsync it saved is on the way to every turn's first model request.
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { DatabaseSync } from "node:sqlite";
import { pollLock } from "./poll-lock.js";
import { SessionBusyError } from "./session-busy-error.js";
import type { LockSessionOptions, SessionLock } from "./session-store.js";
import { DEFAULT_LOCK_TIMEOUT_MS, DEFAULT_NAMESPACE } from "./session-store.js";
import { checkKey } from "./snapshot-json.js";

/** Lease of a held lock, renewed every third of it by the holder. Default 30 s. */
export const SQLITE_LOCK_LEASE_MS = 30_000;

/** The lock side of a SQLite store. */
export interface SqliteSessionLocks {
  lock(id: string, options: LockSessionOptions): Promise<SessionLock>;
  /** Releases every lock this store holds (on close). */
  releaseAll(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by someone else
  }
}

/** Lock operations over `db` (whose schema has the `session_locks` table). */
export function createSqliteSessionLocks(
  db: DatabaseSync,
  leaseMs = SQLITE_LOCK_LEASE_MS,
): SqliteSessionLocks {
  const host = os.hostname();
  const stmt = {
    holder: db.prepare(
      "SELECT owner, host, pid, expires_at FROM session_locks WHERE namespace = ? AND id = ?",
    ),
    take: db.prepare(
      `INSERT INTO session_locks (namespace, id, owner, host, pid, expires_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (namespace, id) DO UPDATE SET
         owner = excluded.owner, host = excluded.host, pid = excluded.pid, expires_at = excluded.expires_at`,
    ),
    renew: db.prepare("UPDATE session_locks SET expires_at = ? WHERE namespace = ? AND id = ? AND owner = ?"),
    drop: db.prepare("DELETE FROM session_locks WHERE namespace = ? AND id = ? AND owner = ?"),
  };
  const held = new Set<() => void>();
  const level = db.prepare("PRAGMA synchronous").get()?.["synchronous"];
  const synced = typeof level === "number" && level > 1;
  /** Runs a lease write (outside any transaction) without the fsync of the store's `synchronous` level. */
  const unsynced = <T>(write: () => T): T => {
    if (!synced || db.isTransaction) return write();
    db.exec("PRAGMA synchronous = NORMAL");
    try {
      return write();
    } finally {
      db.exec(`PRAGMA synchronous = ${level}`);
    }
  };

  function describeHolder(namespace: string, id: string): string | undefined {
    const row = stmt.holder.get(namespace, id);
    if (row === undefined) return undefined;
    return `pid ${String(row["pid"])} on ${String(row["host"])}`;
  }

  /** One try: takes the lease when free, expired or left by a dead process here. */
  function tryTake(namespace: string, id: string, owner: string): boolean {
    return unsynced(() => takeIn(namespace, id, owner));
  }

  function takeIn(namespace: string, id: string, owner: string): boolean {
    db.exec("BEGIN IMMEDIATE");
    try {
      const row = stmt.holder.get(namespace, id);
      const now = Date.now();
      const free =
        row === undefined ||
        (typeof row["expires_at"] === "number" && row["expires_at"] < now) ||
        (row["host"] === host && typeof row["pid"] === "number" && !alive(row["pid"]));
      if (free) stmt.take.run(namespace, id, owner, host, process.pid, now + leaseMs);
      db.exec("COMMIT");
      return free;
    } catch (error) {
      if (db.isTransaction) db.exec("ROLLBACK");
      throw error;
    }
  }

  return {
    async lock(id, options) {
      const namespace = checkKey("namespace", options.namespace ?? DEFAULT_NAMESPACE);
      checkKey("id", id);
      const owner = randomUUID();
      return pollLock(
        () => {
          if (!tryTake(namespace, id, owner)) return undefined;
          const heartbeat = setInterval(
            () => {
              try {
                unsynced(() => stmt.renew.run(Date.now() + leaseMs, namespace, id, owner));
              } catch {
                // the database is busy or closed: the next beat (or release) tries again
              }
            },
            Math.max(10, Math.floor(leaseMs / 3)),
          );
          heartbeat.unref();
          let released = false;
          const release = (): void => {
            if (released) return;
            released = true;
            clearInterval(heartbeat);
            held.delete(release);
            try {
              unsynced(() => stmt.drop.run(namespace, id, owner));
            } catch {
              // closed database: the lease expires on its own
            }
          };
          held.add(release);
          const lock: SessionLock = { release: async () => release() };
          return lock;
        },
        {
          timeoutMs: options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
          abortSignal: options.abortSignal,
          busy: (waitedMs) =>
            new SessionBusyError({ id, namespace, waitedMs, holder: describeHolder(namespace, id) }),
        },
      );
    },
    releaseAll() {
      for (const release of [...held]) release();
    },
  };
}
