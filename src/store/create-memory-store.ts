import { type CheckedBlobs, checkDigest, checkPutBlobs, missingBlobError } from "./check-put-blobs.js";
import { nextVersion } from "./next-version.js";
import { pollLock } from "./poll-lock.js";
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

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Clock for `createdAt`/`updatedAt`. Default `() => new Date()`. */
  now?: () => Date;
}

interface Row {
  id: string;
  namespace: string;
  version: number;
  json: string;
  createdAt: string;
  updatedAt: string;
  seq: number;
}

/**
 * A store in process memory, for tests and short-lived agents. Snapshots are kept as JSON text, exactly like
 * the SQLite store, so what you read back is a copy with the same JSON semantics (dates become strings).
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): SessionStore {
  const now = options.now ?? (() => new Date());
  const rows = new Map<string, Row>();
  /** Content-addressed blobs, and the digests each session (by key) refers to. */
  const blobs = new Map<string, Uint8Array>();
  const refs = new Map<string, Set<string>>();
  /** Held session locks: key → release of the holder. */
  const locks = new Map<string, () => void>();
  let seq = 0;
  let closed = false;
  const key = (namespace: string, id: string) => `${namespace}\u0000${id}`;
  const open = () => {
    if (closed) throw storeClosedError("(memory)");
  };
  /** Deletes those of `digests` no session refers to any more. */
  const collect = (digests: Iterable<string>): void => {
    for (const digest of digests) {
      if (![...refs.values()].some((set) => set.has(digest))) blobs.delete(digest);
    }
  };
  /** Sets the session's references (after checking every one is held or brought). */
  const setRefs = (k: string, id: string, namespace: string, checked: CheckedBlobs): void => {
    for (const digest of checked.refs) {
      if (!blobs.has(digest) && !checked.add.has(digest))
        throw missingBlobError(id, namespace, digest, "the memory store");
    }
    for (const [digest, bytes] of checked.add)
      if (!blobs.has(digest)) blobs.set(digest, Uint8Array.from(bytes));
    const before = refs.get(k) ?? new Set<string>();
    refs.set(k, new Set(checked.refs));
    collect([...before].filter((d) => !checked.refs.includes(d)));
  };

  return {
    async get(id: string, namespace = DEFAULT_NAMESPACE): Promise<StoredSession | undefined> {
      open();
      const row = rows.get(key(checkKey("namespace", namespace), checkKey("id", id)));
      if (row === undefined) return undefined;
      const data = parseSnapshot(row.id, row.namespace, row.json, "the memory store");
      return {
        id: row.id,
        namespace: row.namespace,
        version: row.version,
        data,
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
      };
    },

    async put(id: string, data: unknown, putOptions: PutOptions = {}): Promise<number> {
      open();
      const { namespace, json } = prepareWrite(id, data, putOptions.namespace);
      const existing = rows.get(key(namespace, id));
      const version = nextVersion(id, namespace, existing?.version ?? 0, putOptions.expectedVersion);
      if (putOptions.blobs !== undefined)
        setRefs(key(namespace, id), id, namespace, checkPutBlobs(id, putOptions.blobs));
      const at = now().toISOString();
      seq += 1;
      rows.set(key(namespace, id), {
        id,
        namespace,
        version,
        json,
        createdAt: existing?.createdAt ?? at,
        updatedAt: at,
        seq,
      });
      return version;
    },

    async list(listOptions: ListOptions = {}): Promise<StoredSessionInfo[]> {
      open();
      const namespace = checkKey("namespace", listOptions.namespace ?? DEFAULT_NAMESPACE);
      const selected = [...rows.values()]
        .filter((row) => listOptions.allNamespaces === true || row.namespace === namespace)
        .sort((a, b) => b.seq - a.seq);
      const limited =
        listOptions.limit === undefined ? selected : selected.slice(0, Math.max(0, listOptions.limit));
      return limited.map((row) => ({
        id: row.id,
        namespace: row.namespace,
        version: row.version,
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
      }));
    },

    async delete(id: string, namespace = DEFAULT_NAMESPACE): Promise<boolean> {
      open();
      const k = key(checkKey("namespace", namespace), checkKey("id", id));
      const held = refs.get(k);
      refs.delete(k);
      if (held !== undefined) collect(held);
      return rows.delete(k);
    },

    async missingBlobs(digests: readonly string[]): Promise<string[]> {
      open();
      return [...new Set(digests.map(checkDigest))].filter((digest) => !blobs.has(digest));
    },

    async getBlob(digest: string): Promise<Uint8Array | undefined> {
      open();
      const bytes = blobs.get(checkDigest(digest));
      return bytes === undefined ? undefined : Uint8Array.from(bytes);
    },

    async lockSession(id: string, lockOptions: LockSessionOptions = {}): Promise<SessionLock> {
      open();
      const namespace = checkKey("namespace", lockOptions.namespace ?? DEFAULT_NAMESPACE);
      const k = key(namespace, checkKey("id", id));
      return pollLock(
        () => {
          open();
          if (locks.has(k)) return undefined;
          let held = true;
          const release = (): void => {
            if (held && locks.get(k) === release) locks.delete(k);
            held = false;
          };
          locks.set(k, release);
          return { release: async () => release() };
        },
        {
          timeoutMs: lockOptions.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
          abortSignal: lockOptions.abortSignal,
          busy: (waitedMs) =>
            new SessionBusyError({ id, namespace, waitedMs, holder: "another agent in this process" }),
        },
      );
    },

    async close(): Promise<void> {
      closed = true;
      rows.clear();
      locks.clear();
      blobs.clear();
      refs.clear();
    },
  };
}
