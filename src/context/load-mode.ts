/**
 * How long a loaded skill stays (trpc-agent-go's `WithSkillLoadMode`, `internal/flow/processor/skills.go`):
 * `session` keeps it until it is unloaded (skillrt's behaviour); `turn` (the `trpc` profile's default)
 * unloads what was loaded once at the start of each turn; `once` unloads it after the one model request
 * it was shown in. Skills `init()` loads (`active: true`, `activeSkills`) are the conversation's own and
 * stay in every mode, as trpc re-applies declared loads after its turn reset.
 */
import type { SkillSession } from "./skill-session.js";

export { type LoadMode, normalizeLoadMode } from "./load-mode-name.js";

interface Tracker {
  /** Skills loaded by `init()`. */
  init: Set<string>;
  /** Skills shown in the last request (`once`). */
  shown: string[];
}

const trackers = new WeakMap<SkillSession, Tracker>();

function trackerOf(session: SkillSession): Tracker {
  let tracker = trackers.get(session);
  if (tracker === undefined) {
    const created: Tracker = { init: new Set(), shown: [] };
    session.on("skill-load", (event) => {
      if (event.by === "init") created.init.add(event.name);
      else created.init.delete(event.name);
    });
    trackers.set(session, created);
    tracker = created;
  }
  return tracker;
}

/** Starts tracking `session` (call before `init()`, so its loads are known as the conversation's own). */
export function trackLoadMode(session: SkillSession): void {
  if (session.profile.loadMode !== "session") trackerOf(session);
}

function unloadAll(session: SkillSession, names: readonly string[]): void {
  const tracker = trackerOf(session);
  for (const name of names) {
    if (!tracker.init.has(name) && session.loadedSkill(name) !== undefined) session.unload(name);
  }
}

/** `turn` mode: unloads what earlier turns loaded. Call at the start of every user turn. */
export function beginTurn(session: SkillSession): void {
  if (session.profile.loadMode !== "turn") return;
  unloadAll(session, session.loadedSkills());
}

/**
 * `once` mode: call when a model request is rendered — unloads what the previous request showed, and
 * notes what this one shows.
 */
export function beginRequest(session: SkillSession): void {
  if (session.profile.loadMode !== "once") return;
  const tracker = trackerOf(session);
  unloadAll(session, tracker.shown);
  tracker.shown = session.loadedSkills();
}
