/**
 * The `SessionStore` interface: where session snapshots (versioned JSON) are kept between steps, turns and
 * processes. Implementations: {@link createMemoryStore} (tests, one process), {@link createSqliteStore}
 * (embedded default, one machine) and {@link createPostgresStore} (many engines behind a load balancer).
 */

/** Namespace used when a call gives none. */
export const DEFAULT_NAMESPACE = "default";

/** One stored session snapshot. */
export interface StoredSession {
  id: string;
  /** Isolates sessions of different agents or tenants; ids are unique per namespace. Default `default`. */
  namespace: string;
  /** 1 after the first write, +1 on every write. */
  version: number;
  /** The snapshot as written (a JSON value; the session defines and versions its own shape). */
  data: unknown;
  /** ISO 8601 time of the first write. */
  createdAt: string;
  /** ISO 8601 time of the latest write. */
  updatedAt: string;
}

/** A listing entry: everything but the data. */
export type StoredSessionInfo = Omit<StoredSession, "data"> & {
  /** Set when the stored data is not valid JSON: `get` on this session will throw. Says what is wrong. */
  corrupt?: string;
};

/** The bytes of one file in a store's content-addressed blob table, named by their digest. */
export interface SessionBlob {
  /** sha256 of `bytes`, 64 lower-case hex digits. */
  digest: string;
  bytes: Uint8Array;
}

/**
 * The content-addressed files a write's snapshot refers to (a conversation's workspace files). Stored in the
 * same transaction as the snapshot: a snapshot is never saved without its blobs, and a failed write adds none.
 */
export interface PutBlobs {
  /**
   * Digests of every blob the snapshot refers to. They replace the ones the session's previous write
   * referred to; a blob no session refers to any more is deleted.
   */
  refs: string[];
  /**
   * Bytes of the referred blobs the store does not hold yet (ask {@link SessionStore.missingBlobs}); each is
   * checked against its digest. A referred blob the store lacks and `add` does not bring fails the write
   * (`store-error`, nothing written): ask again and retry.
   */
  add?: SessionBlob[];
}

/** Options of {@link SessionStore.put}. */
export interface PutOptions {
  /** Default `default`. */
  namespace?: string;
  /**
   * Optimistic concurrency: the version the caller last read (0 = "must not exist yet"). On mismatch the
   * write is refused with a {@link StoreConflictError}. Omitted: the write always succeeds (last writer wins).
   */
  expectedVersion?: number;
  /**
   * The files the snapshot refers to, on a store with blobs ({@link SessionStore.missingBlobs}). Omitted:
   * the session's references stay as the previous write left them.
   */
  blobs?: PutBlobs;
}

/** Options of {@link SessionStore.list}. */
export interface ListOptions {
  /** Default `default`. Ignored when `allNamespaces` is true. */
  namespace?: string;
  /** List every namespace. Default false. */
  allNamespaces?: boolean;
  /** Most entries returned. Default: all. */
  limit?: number;
}

/** Options of {@link SessionStore.lockSession}. */
export interface LockSessionOptions {
  /** Default `default`. */
  namespace?: string;
  /**
   * How long to wait for another holder to release the session, in ms. Default
   * {@link DEFAULT_LOCK_TIMEOUT_MS}. When it passes, `lockSession` rejects with a `SessionBusyError`.
   */
  timeoutMs?: number;
  /** Stops waiting (rejects with the signal's reason). */
  abortSignal?: AbortSignal;
}

/** Default wait of {@link SessionStore.lockSession}: 30 s. */
export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;

/** A held session lock. */
export interface SessionLock {
  /** Releases the lock. Idempotent; never rejects (a lock whose connection died is already released). */
  release(): Promise<void>;
}

/** Keeps session snapshots. Every method rejects with a `SkillrtError` (code `store-error`) after `close()`. */
export interface SessionStore {
  /** The session, or undefined when none is stored under this id. Throws `store-error` on corrupt data. */
  get(id: string, namespace?: string): Promise<StoredSession | undefined>;
  /**
   * Writes atomically (all or nothing); `expectedVersion` gives optimistic concurrency (throws a
   * `SkillrtError` with code `store-error`, a {@link StoreConflictError}, on conflict). `data` must be
   * JSON-serialisable (code `invalid-argument` otherwise). Returns the new version.
   */
  put(id: string, data: unknown, options?: PutOptions): Promise<number>;
  /** Sessions without their data, most recently written first. Never fails because of one corrupt row. */
  list(options?: ListOptions): Promise<StoredSessionInfo[]>;
  /**
   * True when a session was deleted. Its blob references go with it, and the blobs no other session refers
   * to are deleted.
   */
  delete(id: string, namespace?: string): Promise<boolean>;
  /**
   * Which of `digests` the store holds no blob for (in the order given, without repeats). The three stores
   * skillrt ships have blobs; a store of your own without `missingBlobs` and `getBlob` keeps no files
   * (a conversation's workspace then lasts as long as its process).
   */
  missingBlobs?(digests: readonly string[]): Promise<string[]>;
  /** The bytes of the blob `digest`, or undefined when the store has none. */
  getBlob?(digest: string): Promise<Uint8Array | undefined>;
  /**
   * Takes the session's exclusive lock, for one engine's turn: read, run, write. Waits while another holder
   * (any process or replica sharing the store) has it, up to `timeoutMs`, then rejects with a
   * `SessionBusyError`. The lock is advisory: `get`/`put` do not check it (a `put` with `expectedVersion`
   * still refuses stale writes), and it is released by `release()`, by `close()`, or when the holding
   * process dies.
   */
  lockSession(id: string, options?: LockSessionOptions): Promise<SessionLock>;
  /** Releases the store (closes the database and any held locks). Idempotent. */
  close(): Promise<void>;
}
