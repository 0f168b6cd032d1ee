/**
 * Schema of the SQLite session store and its migrations. Each migration runs once, in order, inside one
 * write transaction together with the row recording it in `skillrt_schema`, so a crash mid-migration
 * leaves the previous schema intact.
 */
import type { DatabaseSync } from "node:sqlite";
import { SkillrtError } from "../errors/skillrt-error.js";

interface Migration {
  version: number;
  sql: string;
}

// Append only: never edit a released migration; add a new one with the next version.
const migrations: Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE sessions (
        namespace  TEXT    NOT NULL,
        id         TEXT    NOT NULL,
        version    INTEGER NOT NULL,
        data       TEXT    NOT NULL,
        created_at TEXT    NOT NULL,
        updated_at TEXT    NOT NULL,
        seq        INTEGER NOT NULL,
        PRIMARY KEY (namespace, id)
      ) STRICT;
      CREATE INDEX sessions_namespace_seq ON sessions (namespace, seq);
      CREATE INDEX sessions_seq ON sessions (seq);
    `,
  },
  {
    // Session locks (leases): one row per session some engine is in the middle of a turn on.
    version: 2,
    sql: `
      CREATE TABLE session_locks (
        namespace  TEXT    NOT NULL,
        id         TEXT    NOT NULL,
        owner      TEXT    NOT NULL,
        host       TEXT    NOT NULL,
        pid        INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (namespace, id)
      ) STRICT;
    `,
  },
  {
    // Content-addressed files of sessions (a conversation's workspace): each distinct content once, and
    // which session refers to which blob (a blob no session refers to is deleted).
    version: 3,
    sql: `
      CREATE TABLE blobs (
        digest TEXT    NOT NULL PRIMARY KEY,
        size   INTEGER NOT NULL,
        data   BLOB    NOT NULL
      ) STRICT;
      CREATE TABLE session_blobs (
        namespace TEXT NOT NULL,
        id        TEXT NOT NULL,
        digest    TEXT NOT NULL,
        PRIMARY KEY (namespace, id, digest)
      ) STRICT;
      CREATE INDEX session_blobs_digest ON session_blobs (digest);
    `,
  },
];

/** The schema version this build of skillrt writes. */
export const SQLITE_SCHEMA_VERSION = migrations.length;

/**
 * Brings the database to {@link SQLITE_SCHEMA_VERSION}. Throws `store-error` when the file was written by a
 * newer skillrt (a higher schema version), rather than guessing at a schema it does not know.
 */
export function migrateSqliteSchema(db: DatabaseSync, where: string): number {
  db.exec("BEGIN IMMEDIATE");
  try {
    db.exec(
      "CREATE TABLE IF NOT EXISTS skillrt_schema (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL) STRICT",
    );
    const row = db.prepare("SELECT COALESCE(MAX(version), 0) AS version FROM skillrt_schema").get();
    const current = typeof row?.["version"] === "number" ? row["version"] : 0;
    if (current > SQLITE_SCHEMA_VERSION) {
      throw new SkillrtError({
        code: "store-error",
        message:
          `Session database ${where} has schema version ${current}, newer than this skillrt supports ` +
          `(${SQLITE_SCHEMA_VERSION}). Upgrade skillrt or point it at another database file.`,
      });
    }
    const record = db.prepare("INSERT INTO skillrt_schema (version, applied_at) VALUES (?, ?)");
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      record.run(migration.version, new Date().toISOString());
    }
    db.exec("COMMIT");
    return SQLITE_SCHEMA_VERSION;
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}
