/**
 * `triggerPattern` (peterbot's activation): a skill whose frontmatter regex matches the user's message is
 * activated for the turn, before the selection pre-pass. The pattern is case-insensitive; the first skill
 * in catalog order whose pattern matches wins. A pattern comes from a file anyone may have written, so it
 * is guarded: at most {@link MAX_PATTERN_LENGTH} characters, matched against the first
 * {@link MAX_MESSAGE_LENGTH} characters of the message, by a matcher whose work is bounded by the input
 * (`compileTriggerPattern`: no backtracking, so `(a+)+$` costs what `a+$` costs and the answer never
 * depends on the machine's load). A pattern that is invalid, too long, or needs backtracking
 * (backreferences, lookaround) never matches; lenient parsing reports it as `trigger-pattern-unsupported`.
 */
import type { Catalog, SkillRecord } from "../catalog/types.js";
import type { SkillSession } from "../context/skill-session.js";
import { type CompiledTriggerPattern, compileTriggerPattern } from "../spec/compile-trigger-pattern.js";
import { MAX_TRIGGER_PATTERN_LENGTH, TRIGGER_PATTERN_KEYS } from "../spec/trigger-pattern-diagnostic.js";

/** Longest pattern considered; longer ones never match. */
export const MAX_PATTERN_LENGTH = MAX_TRIGGER_PATTERN_LENGTH;
/** Characters of the message a pattern is matched against. */
export const MAX_MESSAGE_LENGTH = 10_000;

/** A skill's trigger pattern as written, when it has one. */
export function triggerPatternOf(record: SkillRecord): string | undefined {
  for (const key of TRIGGER_PATTERN_KEYS) {
    const value = record.extras[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}

// Compiled patterns by their text: a catalog has few distinct patterns and a turn tries each of them.
const compiled = new Map<string, CompiledTriggerPattern>();
const MAX_COMPILED = 1_000;

/** True when `pattern` (case-insensitive) matches `text`; false when invalid, too long or unsupported. */
export function matchesTrigger(pattern: string, text: string): boolean {
  if (pattern.length > MAX_PATTERN_LENGTH) return false;
  let matcher = compiled.get(pattern);
  if (matcher === undefined) {
    matcher = compileTriggerPattern(pattern);
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(pattern, matcher);
  }
  return matcher.ok && matcher.matches(text.slice(0, MAX_MESSAGE_LENGTH));
}

/** A skill with a trigger pattern. */
interface Candidate {
  name: string;
  pattern: string;
}

/** The records that have a pattern, in their order. */
function collect(records: readonly SkillRecord[]): Candidate[] {
  const found: Candidate[] = [];
  for (const record of records) {
    const pattern = triggerPatternOf(record);
    if (pattern !== undefined) found.push({ name: record.name, pattern });
  }
  return found;
}

// The records of a list that have a pattern, by the list: a session's visible list is one array per
// catalog revision, so a turn walks only the few skills with patterns, not the whole catalog.
const candidatesOf = new WeakMap<readonly SkillRecord[], Candidate[]>();

function candidates(records: readonly SkillRecord[]): Candidate[] {
  let found = candidatesOf.get(records);
  if (found === undefined) {
    found = collect(records);
    candidatesOf.set(records, found);
  }
  return found;
}

// A catalog's skills with a pattern, per catalog and revision: shared by every session over it, so a new
// conversation does not walk the catalog again (its visible list is a new array; reading the frontmatter
// extras of 50,000 records took ~20 ms of the first turn).
const catalogCandidates = new WeakMap<Catalog, { revision: number; found: Candidate[] }>();

/**
 * Name of the first of `records` whose trigger pattern matches `message`, if any. The patterns of a list
 * are collected once per list (pass the same array again, as a session's `visibleList()`, to reuse them).
 */
export function triggeredSkill(message: string, records: readonly SkillRecord[]): string | undefined {
  for (const { name, pattern } of candidates(records)) {
    if (matchesTrigger(pattern, message)) return name;
  }
  return undefined;
}

/**
 * {@link triggeredSkill} over the skills `session`'s model may see (`session.visibleList()`): the catalog's
 * patterns are collected once per catalog revision and each candidate's visibility is looked up by name.
 * A catalog without `revision()` is walked through the session's visible list instead.
 */
export function sessionTriggeredSkill(message: string, session: SkillSession): string | undefined {
  const { catalog } = session;
  const revision = catalog.revision?.();
  if (revision === undefined) return triggeredSkill(message, session.visibleList());
  let cached = catalogCandidates.get(catalog);
  if (cached?.revision !== revision) {
    cached = { revision, found: collect(catalog.list()) };
    catalogCandidates.set(catalog, cached);
  }
  for (const { name, pattern } of cached.found) {
    if (session.findSkill(name)?.forModel === true && matchesTrigger(pattern, message)) return name;
  }
  return undefined;
}
