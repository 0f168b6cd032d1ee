/**
 * Persisting sessions in a {@link SessionStore}: the snapshot is written under the session's id and
 * namespace, and read back through {@link restoreSkillSession}.
 */
import type { SessionStore } from "../store/session-store.js";
import { type RestoreOptions, restoreSkillSession } from "./restore-skill-session.js";
import type { SkillSession } from "./skill-session.js";

/**
 * Writes `session.snapshot()`; `expectedVersion` gives optimistic concurrency (the store throws on
 * conflict). Returns the new stored version.
 */
export function saveSession(
  store: SessionStore,
  session: SkillSession,
  options: { expectedVersion?: number } = {},
): Promise<number> {
  return store.put(session.id, session.snapshot(), {
    namespace: session.namespace,
    ...(options.expectedVersion !== undefined ? { expectedVersion: options.expectedVersion } : {}),
  });
}

/** Reads and restores a session, or `undefined` when none is stored under `id` in `namespace` (default `default`). */
export async function loadSession(
  store: SessionStore,
  id: string,
  options: RestoreOptions & { namespace?: string },
): Promise<{ session: SkillSession; version: number } | undefined> {
  const { namespace, ...restore } = options;
  const stored = await store.get(id, namespace);
  if (stored === undefined) return undefined;
  return { session: await restoreSkillSession(stored.data, restore), version: stored.version };
}
