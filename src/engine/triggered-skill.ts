/**
 * `triggerPattern` (peterbot's activation): a skill whose frontmatter regex matches the user's message is
 * activated for the turn, before the selection pre-pass. The pattern is case-insensitive; the first skill
 * in catalog order whose pattern matches wins; an invalid pattern is skipped. A pattern comes from a file
 * anyone may have written, so it is guarded: at most {@link MAX_PATTERN_LENGTH} characters, matched
 * against the first {@link MAX_MESSAGE_LENGTH} characters of the message, and each match is stopped after
 * {@link MATCH_TIMEOUT_MS} (catastrophic backtracking such as `(a+)+$` then counts as no match).
 */
import type vm from "node:vm";
import type { Catalog, SkillRecord } from "../catalog/types.js";
import type { SkillSession } from "../context/skill-session.js";

/** Longest pattern considered; longer ones are skipped. */
export const MAX_PATTERN_LENGTH = 500;
/** Characters of the message a pattern is matched against. */
export const MAX_MESSAGE_LENGTH = 10_000;
/** Most ms one pattern may run on one message. */
export const MATCH_TIMEOUT_MS = 50;

/** The frontmatter keys read (peterbot's spelling first). */
const KEYS = ["triggerPattern", "trigger-pattern", "trigger_pattern"] as const;

/** A skill's trigger pattern as written, when it has one. */
export function triggerPatternOf(record: SkillRecord): string | undefined {
  for (const key of KEYS) {
    const value = record.extras[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}

// One context and script for every match: a fresh context per match costs ~6 ms, a reused one ~0.3 ms.
let sandbox: { context: vm.Context; script: vm.Script } | undefined;

/** True when `pattern` (case-insensitive) matches `text` in time; false when invalid, too long or too slow. */
export function matchesTrigger(pattern: string, text: string): boolean {
  if (pattern.length > MAX_PATTERN_LENGTH) return false;
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, "i");
  } catch {
    return false;
  }
  // node:vm is loaded here, the first time a skill's trigger pattern is tried, not with the agent.
  const { createContext, Script } = process.getBuiltinModule("node:vm");
  if (sandbox === undefined) {
    sandbox = { context: createContext({ re: /$^/, s: "" }), script: new Script("re.test(s)") };
    // The first run in a context compiles and links the script: done once here on the empty pattern, so
    // a busy machine's first match is not cut off by the timeout meant for runaway patterns.
    sandbox.script.runInContext(sandbox.context);
  }
  const { context, script } = sandbox;
  context["re"] = regex;
  context["s"] = text.slice(0, MAX_MESSAGE_LENGTH);
  try {
    return script.runInContext(context, { timeout: MATCH_TIMEOUT_MS }) === true;
  } catch {
    return false;
  } finally {
    context["re"] = /$^/;
    context["s"] = "";
  }
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
