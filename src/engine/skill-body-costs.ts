/** What loading a skill would cost, for `/skills`: its body's tokens, measured on first ask and cached. */
import type { SkillRecord } from "../catalog/types.js";
import type { SkillSession } from "../context/skill-session.js";

/** Measures skill bodies lazily; one instance per conversation (it survives `/new` and `/reload`). */
export interface SkillBodyCosts {
  /**
   * Tokens of each named skill's body (SKILL.md without frontmatter, before argument substitution and
   * without the load wrapper, hence approximate). Skills whose body cannot be read are left out. A body is
   * read and counted once per skill record, so a `/reload` that changed the skill measures it again.
   */
  measure(session: SkillSession, names: readonly string[]): Promise<Map<string, number>>;
}

/** Creates an empty cache. */
export function createSkillBodyCosts(): SkillBodyCosts {
  const cache = new WeakMap<SkillRecord, number>();
  return {
    async measure(session, names) {
      const result = new Map<string, number>();
      for (const name of names) {
        const record = session.catalog.get(name);
        if (record === undefined) continue;
        let tokens = cache.get(record);
        if (tokens === undefined) {
          try {
            tokens = session.counter.count((await session.catalog.load(name)).body);
          } catch {
            continue;
          }
          cache.set(record, tokens);
        }
        result.set(name, tokens);
      }
      return result;
    },
  };
}
