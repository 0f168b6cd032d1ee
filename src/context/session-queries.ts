/**
 * The read-only operations of a session: which skills are visible, invocable and loaded, a skill's files
 * and docs, search over visible skills. None changes the session's state.
 */
import type { SkillFile, SkillRecord } from "../catalog/types.js";
import { docPaths, resolveSkill, type SessionCore, safeFiles } from "./session-core.js";
import type { SessionFailure, SessionSearchHit } from "./session-results.js";

/** A loaded skill as the session sees it. */
export interface LoadedSkillInfo {
  name: string;
  record: SkillRecord;
  args?: string;
  docs: string[];
  allDocs: boolean;
  files: SkillFile[];
  /** Tokens of its rendered body block (the ledger's `skill:<name>` entry; selected docs not included). */
  tokens: number;
}

/** Skills the model may see, sorted by name. */
export function visibleSkills(core: SessionCore): SkillRecord[] {
  return [...core.visible()];
}

/**
 * The same skills as {@link visibleSkills} without the copy: one read-only array per catalog revision,
 * so per-turn work over it (the engine's trigger patterns) can be cached by its identity.
 */
export function visibleList(core: SessionCore): readonly SkillRecord[] {
  return core.visible();
}

/** Skills offered as slash commands (`user-invocable` and allowed by the filters), sorted by name. */
export function userInvocableSkills(core: SessionCore): SkillRecord[] {
  return core.catalog.list().filter((r) => r.userInvocable && core.visibility.forUser(r));
}

/** Who may use one skill of a session: found by name (no walk over the catalog). */
export interface SkillAccess {
  record: SkillRecord;
  /** Visible to the model (catalog, tools, search). */
  forModel: boolean;
  /** Offered as a slash command: `user-invocable` and allowed by the filters. */
  userInvocable: boolean;
}

/**
 * The record of `name` with who may use it, by lookup; undefined when it is unknown, or neither visible to
 * the model nor invocable by the user (the skills `listSkills` leaves out).
 */
export function findSkill(core: SessionCore, name: string): SkillAccess | undefined {
  const record = core.catalog.get(name);
  if (record === undefined) return undefined;
  const forModel = core.visibility.forModel(record);
  const userInvocable = record.userInvocable && core.visibility.forUser(record);
  return forModel || userInvocable ? { record, forModel, userInvocable } : undefined;
}

/** Loaded skill names, oldest load first. */
export function loadedSkills(core: SessionCore): string[] {
  return [...core.state.skills.keys()];
}

/** A loaded skill, or undefined. */
export function loadedSkill(core: SessionCore, name: string): LoadedSkillInfo | undefined {
  const entry = core.state.skills.get(name);
  if (entry === undefined) return undefined;
  return {
    name,
    record: entry.record,
    ...(entry.args !== undefined ? { args: entry.args } : {}),
    docs: [...entry.docs.keys()].sort(),
    allDocs: entry.allDocs,
    files: entry.files,
    tokens: entry.item.tokens,
  };
}

/** Doc paths of a visible skill (the profile's doc rule; default `.md` / `.txt` other than SKILL.md), sorted. */
export async function listDocs(
  core: SessionCore,
  name: string,
): Promise<{ ok: true; name: string; docs: string[] } | SessionFailure> {
  const record = resolveSkill(core, name);
  if ("ok" in record) return record;
  const files = core.state.skills.get(record.name)?.files ?? (await safeFiles(core, record.name));
  return { ok: true, name: record.name, docs: docPaths(files, core.profile.isDoc) };
}

/** The file index of a visible skill, SKILL.md first. */
export async function listFiles(
  core: SessionCore,
  name: string,
): Promise<{ ok: true; name: string; files: SkillFile[] } | SessionFailure> {
  const record = resolveSkill(core, name);
  if ("ok" in record) return record;
  return { ok: true, name: record.name, files: await safeFiles(core, record.name) };
}

/** Lexical search over visible skills, best first. Default limit 10. */
export async function searchSkills(
  core: SessionCore,
  query: string,
  limit = 10,
): Promise<SessionSearchHit[]> {
  return (await core.catalog.search(query, limit + 20))
    .filter((hit) => core.visibility.forModel(hit.record))
    .slice(0, limit)
    .map((hit) => ({
      name: hit.record.name,
      description: hit.record.description,
      score: hit.score,
      loaded: core.state.skills.has(hit.record.name),
    }));
}
