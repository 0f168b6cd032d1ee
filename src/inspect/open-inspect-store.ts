/**
 * Opens the store `skillrt inspect` reads from, named by a URL: `postgres://…` (the Postgres store) or a
 * SQLite file (`sqlite:PATH`, `file:PATH` or a plain path); by default the project's `.skillrt/sessions.db` (created when missing).
 * Expected failures come back as a one-line message, not an exception.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createSqliteStore } from "../store/create-sqlite-store.js";
import { defaultStorePath } from "../store/default-store-path.js";
import { redactStoreUrl, withoutStoreSecrets } from "../store/redact-store-url.js";
import type { SessionStore } from "../store/session-store.js";

/** A store opened for reading, or why it could not be. */
export type OpenedInspectStore =
  | { ok: true; store: SessionStore; where: string }
  | { ok: false; message: string };

/** Other store kinds, registered by the modules that implement them (e.g. Postgres). */
export type StoreOpener = (url: string) => Promise<SessionStore>;

/** Options of {@link openInspectStore}. */
export interface OpenInspectStoreOptions {
  /** The `--store` value; undefined: `<cwd>/.skillrt/sessions.db`, created when missing. */
  url: string | undefined;
  cwd: string;
  /** Openers by URL scheme (without `:`), replacing or adding to the built-in `postgres`/`postgresql` one. */
  openers?: Record<string, StoreOpener>;
  /** Schema of the built-in Postgres opener (the config's `store.schema`, as `ask` uses). Default `public`. */
  schema?: string;
}

function sqlitePath(url: string, cwd: string): string {
  if (url.startsWith("file:")) return url.startsWith("file://") ? fileURLToPath(url) : url.slice(5);
  if (url.startsWith("sqlite:")) return url.slice(7).replace(/^\/\/(?=\/)/, "");
  return path.resolve(cwd, url);
}

/**
 * Opens the store. A SQLite file named by `url` must exist already (inspecting a path that has none is a
 * typo, not a new database). Unknown schemes and unreadable files give a message saying what to pass instead.
 */
export async function openInspectStore(options: OpenInspectStoreOptions): Promise<OpenedInspectStore> {
  const url = options.url ?? path.join(options.cwd, ".skillrt", "sessions.db");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  const isDrive = scheme !== undefined && scheme.length === 1; // C:\… on Windows
  if (scheme !== undefined && !isDrive && scheme !== "sqlite" && scheme !== "file") {
    const postgres: StoreOpener = (postgresUrl) => openPostgres(postgresUrl, options.schema);
    const openers: Record<string, StoreOpener> = {
      postgres,
      postgresql: postgres,
      ...options.openers,
    };
    const opener = openers[scheme];
    if (opener === undefined)
      return {
        ok: false,
        message: `unsupported store URL '${redactStoreUrl(url)}': give a SQLite file (PATH or sqlite:PATH) or a postgres:// URL`,
      };
    const shown = redactStoreUrl(url);
    try {
      return { ok: true, store: await opener(url), where: shown };
    } catch (error) {
      return {
        ok: false,
        message: `cannot open store '${shown}': ${withoutStoreSecrets(firstLine(error), url)}`,
      };
    }
  }
  if (/^sqlite:\/\/(?!\/)/i.test(url))
    return {
      ok: false,
      message: `store URL '${redactStoreUrl(url)}' names a host, but a SQLite store is a file: give sqlite:PATH or sqlite:///absolute/path`,
    };
  // The project's default database is created as `chat` would (the page then says there are no sessions yet).
  const file = options.url === undefined ? defaultStorePath(options.cwd) : sqlitePath(url, options.cwd);
  if (options.url !== undefined && !existsSync(file))
    return { ok: false, message: `no session database at ${file} (check --store)` };
  if (existsSync(file) && !statSync(file).isFile())
    return { ok: false, message: `${file} is not a SQLite database file (check --store)` };
  try {
    const store = createSqliteStore({ path: file });
    await store.list({ limit: 1 });
    return { ok: true, store, where: file };
  } catch (error) {
    return { ok: false, message: `cannot read ${file} as a skillrt session database: ${firstLine(error)}` };
  }
}

/** A Postgres store (loaded only when asked for), checked by one listing so a bad URL fails here. */
async function openPostgres(url: string, schema: string | undefined): Promise<SessionStore> {
  const { createPostgresStore } = await import("../store/create-postgres-store.js");
  const store = createPostgresStore({ url, ...(schema === undefined ? {} : { schema }) });
  try {
    await store.list({ limit: 1 });
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
  return store;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0] ?? text;
}
