/** Opens the session store a URL names: Postgres, a SQLite file, or the project's default SQLite file. */
import path from "node:path";
import { SkillrtError } from "../errors/skillrt-error.js";
import { createPostgresStore } from "./create-postgres-store.js";
import { createSqliteStore } from "./create-sqlite-store.js";
import { defaultStorePath } from "./default-store-path.js";
import { redactStoreUrl } from "./redact-store-url.js";
import type { SessionStore } from "./session-store.js";

/** Options of {@link openSessionStore}. */
export interface OpenSessionStoreOptions {
  /**
   * `postgres://USER:PASSWORD@HOST:PORT/DATABASE` (or `postgresql://`), `sqlite:PATH` (relative to `cwd`;
   * `sqlite::memory:` for a private in-memory database) or `sqlite:///absolute/path`, or unset/empty for
   * `<cwd>/.skillrt/sessions.db`. A `sqlite://` URL with a host or credentials is refused.
   */
  url?: string | undefined;
  /** Directory relative SQLite paths and the default database are resolved from. */
  cwd: string;
  /** Postgres schema. Default `skillrt`. */
  schema?: string | undefined;
}

/**
 * The store `url` names. Throws `invalid-argument` for a URL of another kind (its password never in the
 * message: see `redactStoreUrl`). A Postgres store connects on
 * first use, so an unreachable server is reported by the first read or write (one line naming the host).
 */
export function openSessionStore(options: OpenSessionStoreOptions): SessionStore {
  const url = options.url?.trim() ?? "";
  if (url === "") return createSqliteStore({ path: defaultStorePath(options.cwd) });
  if (/^postgres(ql)?:\/\//i.test(url)) {
    return createPostgresStore({ url, ...(options.schema === undefined ? {} : { schema: options.schema }) });
  }
  if (url.startsWith("sqlite:")) {
    // `sqlite://HOST/…` has an authority: a SQLite store is a file, so a user, password or host there is
    // a mistake (it would otherwise name a directory after the credentials at the filesystem root).
    if (/^sqlite:\/\/(?!\/)/.test(url)) throw sqliteAuthority(url);
    const file = url.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "");
    if (file === "") throw unsupported(url);
    return createSqliteStore({ path: file === ":memory:" ? file : path.resolve(options.cwd, file) });
  }
  throw unsupported(url);
}

function unsupported(url: string): SkillrtError {
  return new SkillrtError({
    code: "invalid-argument",
    message:
      `Store URL '${redactStoreUrl(url)}' is not supported: use postgres://USER@HOST:PORT/DATABASE, ` +
      "sqlite:PATH, or leave it unset for .skillrt/sessions.db.",
  });
}

function sqliteAuthority(url: string): SkillrtError {
  return new SkillrtError({
    code: "invalid-argument",
    message:
      `Store URL '${redactStoreUrl(url)}' names a host, but a SQLite store is a file: ` +
      "use sqlite:PATH (relative to the working directory) or sqlite:///absolute/path.",
  });
}
