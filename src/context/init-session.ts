/**
 * `init`: loads the skills marked `active: true` and those in `activeSkills`, once. A restored session
 * counts as initialised already (a resumed conversation must not reload what it has since unloaded).
 */
import { loadSkill } from "./load-skill.js";
import { INIT_LOAD_CALL_PREFIX } from "./opening-messages.js";
import type { SessionCore } from "./session-core.js";
import type { LoadResult } from "./session-results.js";

/**
 * Loads the `active` skills (idempotent). Each load is recorded under the tool call id `init-load-<name>`, so
 * in `history` placement the history shaper's `openingMessages()` can show it to the model.
 */
export async function initSession(core: SessionCore): Promise<LoadResult[]> {
  if (core.initialized) return [];
  core.initialized = true;
  const wanted = new Set<string>();
  for (const r of core.catalog.list()) if (r.active && core.visibility.forUser(r)) wanted.add(r.name);
  for (const name of core.activeSkills) wanted.add(name);
  const results: LoadResult[] = [];
  for (const name of wanted) {
    results.push(await loadSkill(core, name, { by: "init", toolCallId: `${INIT_LOAD_CALL_PREFIX}${name}` }));
  }
  return results;
}
