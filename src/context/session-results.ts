/**
 * What the operations of a {@link SkillSession} return: `{ ok: true, … }` or a {@link SessionFailure} with a
 * code and a message written for the model. Nothing throws for an expected failure.
 */
import type { SkillFile, SkillRecord } from "../catalog/types.js";

/** Why an operation failed, for code that branches on it. */
export type SessionErrorCode =
  | "unknown-skill"
  | "not-user-invocable"
  | "not-loaded"
  | "over-budget"
  | "file-not-found"
  | "path-refused"
  | "context-full"
  | "too-many-active"
  | "read-failed"
  | "invalid-argument";

/**
 * A failed operation: `message` says what went wrong and what to do next, written for the model (for
 * `not-user-invocable`, which only a user load gets, for the person who asked).
 */
export interface SessionFailure {
  ok: false;
  code: SessionErrorCode;
  message: string;
  /** Closest visible names (unknown skill). */
  closest?: string[];
  /** Available paths (missing file), SKILL.md first. */
  available?: string[];
}

/** Common fields of successful operations. */
export interface SessionSuccessBase {
  ok: true;
  /** Names of what was evicted to make room (LRU), e.g. `skill:pdf`, `doc:pdf/references/a.md`. */
  evicted: string[];
  /** Sentences for the model about evictions or budget, or `""`. */
  notice: string;
}

/** Result of {@link SkillSession.load}. */
export type LoadResult =
  | (SessionSuccessBase & {
      name: string;
      /** True when the skill was already loaded (nothing re-rendered). */
      alreadyLoaded: boolean;
      /** What to return to the model: the `<skill_content>` block (history), or a pointer to the system prompt (system). */
      content: string;
      /** Body after argument substitution. */
      body: string;
      dir: string;
      /** Tokens of the rendered body block. */
      tokens: number;
      /** Selected docs after this call, in repository order. */
      docs: string[];
      /** Requested docs that do not exist (not selected). */
      unknownDocs: string[];
      /** Content of docs newly selected by this call (history placement), `""` otherwise. */
      docsContent: string;
      files: SkillFile[];
      record: SkillRecord;
    })
  | SessionFailure;

/** Result of {@link SkillSession.selectDocs}. */
export type SelectDocsResult =
  | (SessionSuccessBase & {
      name: string;
      mode: "add" | "replace" | "clear";
      /** Complete selection after the update, in repository order. */
      docs: string[];
      includeAllDocs: boolean;
      unknownDocs: string[];
      /** Blocks of newly selected docs (history placement), `""` otherwise. */
      content: string;
    })
  | SessionFailure;

/** Result of {@link SkillSession.readFile}. */
export type ReadResult =
  | (SessionSuccessBase & {
      name: string;
      path: string;
      kind: "text" | "binary";
      /** What to return to the model. */
      content: string;
      tokens: number;
      /** Set when the text was cut to fit the budget; the next line to read. */
      nextLine?: number;
    })
  | SessionFailure;

/** Result of {@link SkillSession.unload}. */
export type UnloadResult = { ok: true; name: string; loaded: string[] } | SessionFailure;

/** One search hit (hidden skills never appear). */
export interface SessionSearchHit {
  name: string;
  description: string;
  score: number;
  loaded: boolean;
}
