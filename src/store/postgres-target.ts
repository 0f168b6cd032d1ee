/**
 * Where a Postgres store URL points, for messages: host, port, database and user — never the password —
 * and the one-line explanation of a failure to reach it.
 */
import { SkillrtError } from "../errors/skillrt-error.js";
import { redactStoreUrl } from "./redact-store-url.js";

/** The parts of a `postgres://` URL that messages name. */
export interface PostgresTarget {
  host: string;
  port: number;
  database: string;
  user: string;
}

/** Reads `url` (`postgres://user:password@host:port/database?…`); throws `invalid-argument` when it is not one. */
export function postgresTarget(url: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SkillrtError({
      code: "invalid-argument",
      message:
        `Store URL '${redactStoreUrl(url)}' is not a URL; expected postgres://USER:PASSWORD@HOST:PORT/DATABASE ` +
        "(percent-encode / @ : # ? in the password: / as %2F, @ as %40).",
    });
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new SkillrtError({
      code: "invalid-argument",
      message: `Store URL '${redactStoreUrl(url)}' is not a postgres:// URL.`,
    });
  }
  const socket = parsed.searchParams.get("host");
  const host = decoded(parsed.hostname) || socket || "localhost";
  const user = decoded(parsed.username) || process.env["PGUSER"] || "(the OS user)";
  const database = decoded(parsed.pathname.replace(/^\//, "")) || user;
  return { host, port: parsed.port === "" ? 5432 : Number(parsed.port), database, user };
}

/** `text` percent-decoded, or as written when it is not valid percent-encoding. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

interface PgLikeError {
  code?: string;
  message?: string;
}

/**
 * The one-line `store-error` for a failure to connect to (or prepare) the database at `target`: what went
 * wrong, named by host, port, database and user, and what to check.
 */
export function postgresConnectError(error: unknown, target: PostgresTarget): SkillrtError {
  if (SkillrtError.isInstance(error)) return error;
  const e = (typeof error === "object" && error !== null ? error : {}) as PgLikeError;
  const code = e.code ?? "";
  const message = (e.message ?? String(error)).split("\n")[0] ?? "";
  const at = `${target.host}:${target.port}`;
  let why: string;
  let check: string;
  if (code === "ECONNREFUSED") {
    why = "connection refused";
    check = "Check that the server is running and that the host and port in the store URL are right.";
  } else if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    why = `host name '${target.host}' could not be resolved`;
    check = "Check the host in the store URL and the machine's DNS.";
  } else if (code === "ETIMEDOUT" || code === "EHOSTUNREACH" || /timeout/i.test(message)) {
    why = "no answer in time";
    check = "Check the host and port in the store URL, and that no firewall drops the connection.";
  } else if (code === "28P01" || code === "28000") {
    why = `authentication failed for user '${target.user}'`;
    check = "Check the user and password in the store URL (or PGPASSWORD) and the server's pg_hba.conf.";
  } else if (code === "3D000") {
    why = `database '${target.database}' does not exist`;
    check = "Create it (createdb) or fix the database name in the store URL.";
  } else if (code === "42501") {
    why = `user '${target.user}' may not create the session tables (${message})`;
    check = "Grant it CREATE on the database or schema, or create the schema as its owner.";
  } else if (code === "ECONNRESET" || /terminated|closed/i.test(message)) {
    why = `the connection was closed (${message})`;
    check = "Check the server's log, its max_connections, and the sslmode in the store URL.";
  } else {
    why = message || "unknown error";
    check = "Check the store URL and that the server is reachable.";
  }
  return new SkillrtError({
    code: "store-error",
    message: `Cannot use the session store at PostgreSQL ${at} (database '${target.database}', user '${target.user}'): ${why}. ${check}`,
    cause: error,
  });
}
