/** The catalog as `/skills` and the selection pre-pass see it: every skill with its load marker and cost. */
import type { SkillSession } from "./skill-session.js";

/** One skill of the catalog as `/skills` shows it. */
export interface SkillListing {
  name: string;
  description: string;
  loaded: boolean;
  /**
   * Tokens the skill costs in context now, which depends on {@link loaded}. Loaded: its rendered body
   * block (the ledger's `skill:<name>` entry, wrapper included, docs not). Not loaded: its catalog line,
   * measured as `- name: description` (the `list` format, before any budget shortening). What loading it
   * would cost is not here: bodies of skills not loaded are not read (the agent's `skillBodyTokens`
   * measures them separately).
   */
  tokens: number;
  userInvocable: boolean;
}

/** Skills visible to the model or invocable by the user, sorted by name. */
export function listSkills(session: SkillSession): SkillListing[] {
  const byName = new Map<string, SkillListing>();
  const invocable = new Set(session.userInvocableSkills().map((r) => r.name));
  for (const record of [...session.visibleSkills(), ...session.userInvocableSkills()]) {
    if (byName.has(record.name)) continue;
    const loaded = session.loadedSkill(record.name);
    byName.set(record.name, {
      name: record.name,
      description: record.description,
      loaded: loaded !== undefined,
      tokens: loaded?.tokens ?? session.counter.count(`- ${record.name}: ${record.description}`),
      userInvocable: invocable.has(record.name),
    });
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}
