/**
 * `skillrt/store`: where sessions persist — the `SessionStore` interface with its memory, SQLite
 * (`node:sqlite`, loaded when a store opens) and Postgres (`pg`, likewise) implementations, opening one by
 * URL or path, and the errors they throw.
 */
export { NODE_SQLITE_MIN_VERSION, SqliteUnavailableError } from "./errors/sqlite-unavailable-error.js";
export { createMemoryStore } from "./store/create-memory-store.js";
export { createPostgresStore, type PostgresStoreOptions } from "./store/create-postgres-store.js";
export { createSqliteStore, type SqliteStoreOptions } from "./store/create-sqlite-store.js";
export { type OpenSessionStoreOptions, openSessionStore } from "./store/open-session-store.js";
export { SessionBusyError } from "./store/session-busy-error.js";
export type {
  ListOptions,
  LockSessionOptions,
  PutBlobs,
  PutOptions,
  SessionBlob,
  SessionLock,
  SessionStore,
  StoredSession,
  StoredSessionInfo,
} from "./store/session-store.js";
export { StoreConflictError } from "./store/store-conflict-error.js";
