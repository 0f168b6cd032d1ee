/**
 * What session operations share: the state, the catalog, the counter, the profile, resolved limits,
 * visibility, the renderer, the event emitter and the ledger total. Internal to `context/`.
 */
import type { Catalog, SkillFile, SkillRecord } from "../catalog/types.js";
import { ambiguousSkillMessage, offersQualifiedNames } from "../errors/skill-not-found-error.js";
import { isDefaultDoc } from "./doc-rules.js";
import type { MeasuredBlock } from "./render-session-context.js";
import type { SessionEvent } from "./session-event.js";
import type { SessionProfile } from "./session-profile.js";
import type { SessionRenderer } from "./session-renderer.js";
import type { SessionFailure } from "./session-results.js";
import type { SessionState, SkillEntry } from "./session-state.js";
import type { SkillVisibility } from "./skill-visibility.js";
import type { TokenCounter } from "./token-counter.js";

/** Shared context of session operations: what each `(core, …args)` operation reads and changes. */
export interface SessionCore {
  state: SessionState;
  catalog: Catalog;
  counter: TokenCounter;
  /** Tool names for messages, doc rule, `system` layout (fixed at creation). */
  profile: SessionProfile;
  visibility: SkillVisibility;
  /** Skills the model may see, in catalog order (memoised). */
  visible(): readonly SkillRecord[];
  renderer: SessionRenderer;
  /** Every rendered block with its tokens. */
  measured(): MeasuredBlock[];
  skillBudget: number;
  contextWindow: number;
  /** False when no context window was given (`contextWindow` is the default). */
  contextWindowKnown: boolean;
  catalogBudget: number;
  threshold: number;
  maxResources: number;
  /** Most skills a model's load may bring the session to (see `SkillSessionOptions.maxActive`). */
  maxActive?: number;
  /** See `SkillSessionOptions.skillEnv`. */
  skillEnv?: Record<string, Record<string, string>>;
  /** See `SkillSessionOptions.requirementsEnv`. */
  requirementsEnv?: Record<string, string | undefined> | false;
  /** See `SkillSessionOptions.preRender`. */
  preRender?: (record: SkillRecord, body: string) => Promise<string>;
  /** See `SkillSessionOptions.skillRunDir`. */
  skillRunDir?: (name: string) => string;
  /** Skills `init()` loads besides `active: true` ones. */
  activeSkills: readonly string[];
  /** Set once `init()` ran (or the session was restored). */
  initialized: boolean;
  emit(event: SessionEvent): void;
  /** Current ledger total (rendered blocks + history). */
  total(): number;
}

/** True for a failed operation's result. */
export const isFailure = (value: object): value is SessionFailure => "ok" in value && value.ok === false;

/** Notices joined into one paragraph, empty ones left out. */
export function joinNotices(...notices: string[]): string {
  return notices.filter((n) => n !== "").join(" ");
}

/** The selected doc paths of a loaded skill, sorted. */
export function sortedDocs(entry: SkillEntry): string[] {
  return [...entry.docs.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The record of `name` when visible to this caller (the selection pre-pass, `select`, sees what the model
 * sees), else a "not found" failure with the closest visible names.
 */
export function resolveSkill(
  core: SessionCore,
  name: string,
  by: "model" | "user" | "init" | "select" = "model",
): SkillRecord | SessionFailure {
  const record = core.catalog.get(name);
  if (
    record !== undefined &&
    (by === "model" || by === "select" ? core.visibility.forModel(record) : core.visibility.forUser(record))
  )
    return record;
  return notFoundFailure(core, name);
}

/**
 * The refusal of a user load (`by: "user"`) of a skill with `user-invocable: false`, written for people:
 * whether the model may still load it, or only `active: true` / `activeSkills` can.
 */
export function notUserInvocableFailure(core: SessionCore, record: SkillRecord): SessionFailure {
  const who = core.visibility.forModel(record)
    ? "The model can still load it when a task needs it."
    : "It also sets 'disable-model-invocation: true', so only 'active: true' or the session's activeSkills can load it.";
  return {
    ok: false,
    code: "not-user-invocable",
    message: `Skill '${record.name}' cannot be loaded on a user's request: it sets 'user-invocable: false'. ${who}`,
  };
}

/** "Skill 'x' not found" with the closest visible names and what to do next. */
export function notFoundFailure(core: SessionCore, name: string): SessionFailure {
  const closest = core.catalog
    .closest(name, 20)
    .filter((n) => {
      const r = core.catalog.get(n);
      return r !== undefined && core.visibility.forModel(r);
    })
    .slice(0, 3);
  const names = core.profile.toolNames;
  // A short name that skills of several plugins share: the catalog offers their qualified names.
  if (offersQualifiedNames(name, closest))
    return { ok: false, code: "unknown-skill", message: ambiguousSkillMessage(name, closest), closest };
  const hint = closest.length > 0 ? ` Closest names: ${closest.join(", ")}.` : "";
  const search =
    core.renderer.searchOffered() && names.search !== undefined
      ? `, or call ${names.search} to find a skill by what it does`
      : "";
  return {
    ok: false,
    code: "unknown-skill",
    message: `Skill '${name}' not found.${hint} Use a name exactly as the skills catalog lists it${search}.`,
    closest,
  };
}

/** Doc paths of a skill, sorted. */
export function docPaths(
  files: readonly SkillFile[],
  isDoc: (path: string) => boolean = isDefaultDoc,
): string[] {
  return files
    .map((f) => f.path)
    .filter((p) => p !== "SKILL.md" && isDoc(p))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The file index of a skill, or `[]` when it cannot be read. */
export async function safeFiles(core: SessionCore, name: string): Promise<SkillFile[]> {
  try {
    return await core.catalog.files(name);
  } catch {
    return [];
  }
}

/** Message text of an unexpected error. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
