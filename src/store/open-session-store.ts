/** Opens the session store a URL names: Postgres, a SQLite file, or the project's default SQLite file. */
import path from "node:path";
import { SkillrtError } from "../errors/skillrt-error.js";
import { createPostgresStore } from "./create-postgres-store.js";
import { createSqliteStore } from "./create-sqlite-store.js";
import { defaultStorePath } from "./default-store-path.js";
import { redactUrl } from "./postgres-target.js";
import type { SessionStore } from "./session-store.js";

/** Options of {@link openSessionStore}. */
export interface OpenSessionStoreOptions {
  /**
   * `postgres://USER:PASSWORD@HOST:PORT/DATABASE` (or `postgresql://`), `sqlite:PATH` (relative to `cwd`;
   * `sqlite::memory:` for a private in-memory database), or unset/empty for `<cwd>/.skillrt/sessions.db`.
   */
  url?: string | undefined;
  /** Directory relative SQLite paths and the default database are resolved from. */
  cwd: string;
  /** Postgres schema. Default `skillrt`. */
  schema?: string | undefined;
}

/**
 * The store `url` names. Throws `invalid-argument` for a URL of another kind. A Postgres store connects on
 * first use, so an unreachable server is reported by the first read or write (one line naming the host).
 */
export function openSessionStore(options: OpenSessionStoreOptions): SessionStore {
  const url = options.url?.trim() ?? "";
  if (url === "") return createSqliteStore({ path: defaultStorePath(options.cwd) });
  if (/^postgres(ql)?:\/\//i.test(url)) {
    return createPostgresStore({ url, ...(options.schema === undefined ? {} : { schema: options.schema }) });
  }
  if (url.startsWith("sqlite:")) {
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
      `Store URL '${redactUrl(url)}' is not supported: use postgres://USER@HOST:PORT/DATABASE, ` +
      "sqlite:PATH, or leave it unset for .skillrt/sessions.db.",
  });
}
