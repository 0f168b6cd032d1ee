/**
 * Every operation of a session, as a function of its {@link SessionCore}. `createSkillSession` binds each
 * to the session's core, and {@link SessionOperations} (the operations part of `SkillSession`) is derived
 * from this table: a new operation is one file exporting `(core, …args) => result` plus one line here.
 */
import { initSession } from "./init-session.js";
import { loadSkill } from "./load-skill.js";
import { readFile } from "./read-file.js";
import { selectDocs } from "./select-docs.js";
import { notFoundFailure, type SessionCore } from "./session-core.js";
import { sessionLedger } from "./session-ledger.js";
import {
  findSkill,
  listDocs,
  listFiles,
  loadedSkill,
  loadedSkills,
  searchSkills,
  userInvocableSkills,
  visibleList,
  visibleSkills,
} from "./session-queries.js";
import { snapshotState } from "./session-state.js";
import { unloadSkill } from "./unload-skill.js";

/** The operations, by the name a session offers them under. */
export const sessionOperations = {
  /** Loads skills marked `active: true` and those in `activeSkills`; idempotent (see `initSession`). */
  init: initSession,
  /** Skills the model may see, sorted by name. */
  visibleSkills,
  /** The visible skills as one read-only array per catalog revision (no copy; cache by identity). */
  visibleList,
  /** Skills offered as slash commands (`user-invocable` and allowed by the filters), sorted by name. */
  userInvocableSkills,
  /** One skill with who may use it (model, user), by lookup; undefined when neither may. */
  findSkill,
  /** Loaded skill names, oldest load first. */
  loadedSkills,
  /** A loaded skill as the session sees it, or undefined. */
  loadedSkill,
  /** Loads a skill (see `LoadOptions`). */
  load: loadSkill,
  /** Adds, replaces or clears the doc selection of a loaded skill. */
  selectDocs,
  /** Doc paths of a visible skill, sorted. */
  listDocs,
  /** The file index of a visible skill, SKILL.md first. */
  listFiles,
  /** Reads one file of a visible skill (see `ReadOptions`). */
  readFile,
  /** Unloads a skill; `by` (default `model`) is reported in the `skill-unload` event. */
  unload: unloadSkill,
  /** Lexical search over visible skills. Default limit 10. */
  search: searchSkills,
  /** A failure for an unknown (or hidden) name, with the closest visible names. */
  notFound: notFoundFailure,
  /** Tokens per item in context, against the budgets. */
  ledger: sessionLedger,
  /** The serialisable state (see `restoreSkillSession`). */
  snapshot: (core: SessionCore) => snapshotState(core.state),
} satisfies Record<string, (core: SessionCore, ...args: never[]) => unknown>;

type Bound<F> = F extends (core: SessionCore, ...args: infer A) => infer R ? (...args: A) => R : never;

/** The operations of a session, bound to its state. */
export type SessionOperations = {
  [K in keyof typeof sessionOperations]: Bound<(typeof sessionOperations)[K]>;
};

/** Binds every operation to `core`. */
export function bindOperations(core: SessionCore): SessionOperations {
  const bound: Record<string, unknown> = {};
  for (const [name, operation] of Object.entries(sessionOperations)) {
    bound[name] = (...args: never[]) =>
      (operation as (core: SessionCore, ...rest: never[]) => unknown)(core, ...args);
  }
  return bound as SessionOperations;
}
