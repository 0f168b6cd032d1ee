/**
 * The catalog as `/skills` and the selection pre-pass see it: every skill with its load marker and cost.
 * One skill's listing ({@link skillListing}) is a lookup, so a turn's `$name` mentions and a user's load
 * cost the same at 10 or 10,000 skills; a catalog line's tokens are counted once per record and counter.
 */
import type { SkillRecord } from "../catalog/types.js";
import type { SkillSession } from "./skill-session.js";
import type { TokenCounter } from "./token-counter.js";

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

// A record is immutable (a re-scan replaces it), so its line's count holds as long as the record lives.
const lineTokens = new WeakMap<TokenCounter, WeakMap<SkillRecord, number>>();

function catalogLineTokens(counter: TokenCounter, record: SkillRecord): number {
  let counts = lineTokens.get(counter);
  if (counts === undefined) {
    counts = new WeakMap();
    lineTokens.set(counter, counts);
  }
  let n = counts.get(record);
  if (n === undefined) {
    n = counter.count(`- ${record.name}: ${record.description}`);
    counts.set(record, n);
  }
  return n;
}

function listing(session: SkillSession, record: SkillRecord, userInvocable: boolean): SkillListing {
  const loaded = session.loadedSkill(record.name);
  return {
    name: record.name,
    description: record.description,
    loaded: loaded !== undefined,
    tokens: loaded?.tokens ?? catalogLineTokens(session.counter, record),
    userInvocable,
  };
}

/** Skills visible to the model or invocable by the user, sorted by name. */
export function listSkills(session: SkillSession): SkillListing[] {
  const byName = new Map<string, SkillListing>();
  const invocable = new Set(session.userInvocableSkills().map((r) => r.name));
  for (const record of [...session.visibleSkills(), ...session.userInvocableSkills()]) {
    if (byName.has(record.name)) continue;
    byName.set(record.name, listing(session, record, invocable.has(record.name)));
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The listing of `name` as {@link listSkills} gives it, found by name; undefined when it leaves it out. */
export function skillListing(session: SkillSession, name: string): SkillListing | undefined {
  const found = session.findSkill(name);
  return found === undefined ? undefined : listing(session, found.record, found.userInvocable);
}
