/**
 * Schema of the Postgres session store and its migrations, versioned in code. Migrations run on a store's
 * first use, in one transaction holding an advisory lock, so replicas starting together apply each one
 * exactly once and a failure leaves the previous schema intact.
 */
import type { PoolClient } from "pg";
import { SkillrtError } from "../errors/skillrt-error.js";

interface Migration {
  version: number;
  /** SQL with `$schema` standing for the quoted schema name. */
  sql: string;
}

// Append only: never edit a released migration; add a new one with the next version.
const migrations: Migration[] = [
  {
    version: 1,
    // `data` is `json` (not `jsonb`): it keeps the text as written, including `\u0000` escapes jsonb refuses.
    sql: `
      CREATE SEQUENCE $schema.sessions_seq;
      CREATE TABLE $schema.sessions (
        namespace  text        NOT NULL,
        id         text        NOT NULL,
        version    integer     NOT NULL,
        data       json        NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        seq        bigint      NOT NULL,
        PRIMARY KEY (namespace, id)
      );
      CREATE INDEX sessions_by_namespace_seq ON $schema.sessions (namespace, seq);
      CREATE INDEX sessions_by_seq ON $schema.sessions (seq);
    `,
  },
  {
    version: 2,
    // Content-addressed files of sessions (a conversation's workspace): each distinct content once. The
    // foreign key makes a write that refers to a blob a concurrent delete just removed fail (and be retried)
    // instead of committing a reference to nothing.
    sql: `
      CREATE TABLE $schema.blobs (
        digest text   PRIMARY KEY,
        size   bigint NOT NULL,
        data   bytea  NOT NULL
      );
      CREATE TABLE $schema.session_blobs (
        namespace text NOT NULL,
        id        text NOT NULL,
        digest    text NOT NULL REFERENCES $schema.blobs (digest),
        PRIMARY KEY (namespace, id, digest)
      );
      CREATE INDEX session_blobs_by_digest ON $schema.session_blobs (digest);
    `,
  },
];

/** The schema version this build of skillrt writes. */
export const POSTGRES_SCHEMA_VERSION = migrations.length;

/** A schema name skillrt accepts: a plain lower-case SQL identifier (no quoting surprises). */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Checks a schema name and returns it double-quoted for SQL. Throws `invalid-argument` otherwise. */
export function quoteSchema(name: string): string {
  if (!SCHEMA_NAME.test(name)) {
    throw new SkillrtError({
      code: "invalid-argument",
      message: `Postgres schema name '${name}' is not allowed: use lower-case letters, digits and _ (at most 63, not starting with a digit).`,
    });
  }
  return `"${name}"`;
}

/**
 * Brings `schema` to {@link POSTGRES_SCHEMA_VERSION}, creating it when missing. Throws `store-error` when
 * the schema was written by a newer skillrt.
 */
export async function migratePostgresSchema(
  client: PoolClient,
  schema: string,
  where: string,
): Promise<void> {
  const quoted = quoteSchema(schema);
  await client.query("BEGIN");
  try {
    // One migrator per schema at a time, across every process sharing the database.
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
      `skillrt-migrate:${schema}`,
    ]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${quoted}.skillrt_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL)`,
    );
    const result = await client.query<{ version: number }>(
      `SELECT COALESCE(MAX(version), 0)::int AS version FROM ${quoted}.skillrt_schema`,
    );
    const current = result.rows[0]?.version ?? 0;
    if (current > POSTGRES_SCHEMA_VERSION) {
      throw new SkillrtError({
        code: "store-error",
        message:
          `Session schema '${schema}' in ${where} has version ${current}, newer than this skillrt supports ` +
          `(${POSTGRES_SCHEMA_VERSION}). Upgrade skillrt or use another schema.`,
      });
    }
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      await client.query(migration.sql.replaceAll("$schema", quoted));
      await client.query(`INSERT INTO ${quoted}.skillrt_schema (version, applied_at) VALUES ($1, now())`, [
        migration.version,
      ]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
