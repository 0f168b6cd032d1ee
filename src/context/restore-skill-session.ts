/**
 * Rebuilds a session from a {@link SessionSnapshot}: the same loaded skills (in order), docs, reads,
 * arguments, LRU clock and tool-call map, with bodies and files read again from the catalog. Skills that
 * no longer exist (or are now hidden) are dropped with a `skill-unload` event of reason `missing`.
 */
import { SkillrtError } from "../errors/skillrt-error.js";
import { buildDocItem, buildReadItem, buildSkillEntry } from "./build-items.js";
import { openSkillSession } from "./create-skill-session.js";
import type { SkillSessionOptions } from "./session-options.js";
import { createSessionState, readKey } from "./session-state.js";
import type { SkillSession } from "./skill-session.js";

/** Session options for a restore: identity and placement come from the snapshot. */
export type RestoreOptions = Omit<SkillSessionOptions, "id" | "namespace" | "placement">;

/**
 * Validates `snapshot` (zod; throws a `SkillrtError` with code `invalid-argument` saying what is wrong) and
 * returns a session whose `render()` equals the original's when the skills have not changed.
 */
export async function restoreSkillSession(snapshot: unknown, options: RestoreOptions): Promise<SkillSession> {
  // Loaded here, on a restore: a new session never builds the snapshot's schema (zod work at start-up).
  const { SessionSnapshot } = await import("./session-snapshot.js");
  const parsed = SessionSnapshot.safeParse(snapshot);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SkillrtError({
      code: "invalid-argument",
      message: `Invalid session snapshot at ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "unknown problem"}. Expected a version 1 snapshot written by session.snapshot().`,
    });
  }
  const snap = parsed.data;
  const state = createSessionState(snap.id, snap.namespace, snap.placement);
  state.clock = snap.clock;
  state.nextId = snap.nextId;
  state.historyTokens = snap.historyTokens;
  state.usage = new Map(Object.entries(snap.usage));
  state.calls = new Map(Object.entries(snap.calls));
  const { session, core } = openSkillSession(
    { ...options, id: snap.id, namespace: snap.namespace, placement: snap.placement },
    state,
    { initialized: true },
  );

  for (const saved of snap.loaded) {
    const record = core.catalog.get(saved.name);
    if (record === undefined || !core.visibility.forUser(record)) {
      core.emit({ type: "skill-unload", name: saved.name, reason: "missing" });
      continue;
    }
    let entry: Awaited<ReturnType<typeof buildSkillEntry>>;
    try {
      entry = await buildSkillEntry(core, record, saved.args, saved.id);
    } catch {
      core.emit({ type: "skill-unload", name: saved.name, reason: "missing" });
      continue;
    }
    entry.item.lastUsed = saved.lastUsed;
    entry.allDocs = saved.allDocs;
    state.skills.set(record.name, entry);
    state.live.set(entry.item.id, entry.item);
    for (const doc of saved.docs) {
      const item = await buildDocItem(core, record.name, doc.path, doc.id);
      if (item === undefined) continue;
      item.lastUsed = doc.lastUsed;
      entry.docs.set(doc.path, item);
      state.live.set(item.id, item);
    }
  }
  for (const saved of snap.reads) {
    const range = {
      ...(saved.startLine !== undefined ? { startLine: saved.startLine } : {}),
      ...(saved.endLine !== undefined ? { endLine: saved.endLine } : {}),
    };
    const result = await core.catalog.readFile(saved.skill, saved.path, range).catch(() => undefined);
    if (result === undefined || (result.kind !== "text" && result.kind !== "binary")) continue;
    const { item } = await buildReadItem(core, saved.skill, result, range, saved.id);
    item.lastUsed = saved.lastUsed;
    state.reads.set(readKey(saved.skill, result.path, saved.startLine, saved.endLine), item);
    state.live.set(item.id, item);
  }
  state.version += 1;
  return session;
}
