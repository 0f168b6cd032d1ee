import { SkillrtError } from "./skillrt-error.js";

/** The first Node release with `node:sqlite` (the embedded session store). */
export const NODE_SQLITE_MIN_VERSION = "22.5";

/**
 * Thrown when a SQLite session store is opened on a Node without `node:sqlite` (before 22.5). The message
 * names the Node found and the one needed; everything that does not persist sessions keeps working.
 */
export class SqliteUnavailableError extends SkillrtError {
  /** The running Node's version, e.g. `20.20.2`. */
  readonly nodeVersion: string;

  constructor({ nodeVersion = process.versions.node }: { nodeVersion?: string } = {}) {
    super({
      code: "sqlite-unavailable",
      message: `this needs Node ≥ ${NODE_SQLITE_MIN_VERSION} for its SQLite session store (node:sqlite); found Node ${nodeVersion}. Install a newer Node (skillrt supports ≥ 22.13).`,
    });
    this.name = "SqliteUnavailableError";
    this.nodeVersion = nodeVersion;
  }

  static override isInstance(error: unknown): error is SqliteUnavailableError {
    return SkillrtError.isInstance(error) && error.code === "sqlite-unavailable";
  }
}

/** `node:sqlite`, or a {@link SqliteUnavailableError} when this Node has none. */
export function loadNodeSqlite(): typeof import("node:sqlite") {
  const sqlite = (
    process as { getBuiltinModule?: (id: string) => typeof import("node:sqlite") | undefined }
  ).getBuiltinModule?.("node:sqlite");
  if (sqlite === undefined) throw new SqliteUnavailableError();
  return sqlite;
}
