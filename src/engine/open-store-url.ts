/**
 * The store `createSkillAgent({ store: "…" })` names by URL, opened without falling back to the process's
 * working directory.
 */
import { SkillrtError } from "../errors/skillrt-error.js";
import { openSessionStore } from "../store/open-session-store.js";
import { redactStoreUrl } from "../store/redact-store-url.js";
import type { SessionStore } from "../store/session-store.js";

/**
 * The store a URL names (as `--store` takes it). A relative `sqlite:` path is resolved from `cwd` only when
 * one was passed: the agent never falls back to the process's working directory.
 */
export function openStoreUrl(url: string, cwd: string | undefined): SessionStore {
  const trimmed = url.trim();
  const relativeSqlite =
    trimmed.startsWith("sqlite:") && !trimmed.startsWith("sqlite:/") && trimmed !== "sqlite::memory:";
  if (trimmed === "" || (relativeSqlite && cwd === undefined)) {
    throw new SkillrtError({
      code: "invalid-argument",
      message:
        trimmed === ""
          ? "createSkillAgent: store is an empty URL; give sqlite:PATH, sqlite:///absolute/path or postgres://…, or leave it out for no store."
          : `createSkillAgent: store '${redactStoreUrl(trimmed)}' is a relative path; pass cwd to resolve it from, or use sqlite:///absolute/path.`,
    });
  }
  return openSessionStore({ url: trimmed, cwd: cwd ?? "/" });
}
