/**
 * What the engine needs from the skill layer, as a small interface: the engine re-renders the context
 * and re-gates tools from it on every step. {@link fromSkillSession} adapts a `SkillSession` and its
 * skill tools; tests and other hosts can implement it directly.
 */
import type { ModelMessage, ToolSet } from "ai";

/** Something the skill layer reports while a run goes on (mapped to engine events). */
export type SkillContextEvent =
  | { type: "skill-load"; name: string; tokens: number; by: "model" | "user" | "select" }
  | { type: "skill-unload"; name: string; by: "model" | "user" }
  | { type: "budget-evict"; name: string; reason: string };

/** One skill of the catalog as `/skills` shows it. */
export interface SkillListing {
  name: string;
  description: string;
  loaded: boolean;
  /**
   * Tokens the skill costs in context now, which depends on {@link loaded}. Loaded: its rendered body
   * block (the ledger's `skill:<name>` entry, wrapper included, docs not). Not loaded: its catalog line, measured as
   * `- name: description` (the `list` format, before any budget shortening). What loading it would cost
   * is not here: `fromSkillSession` does not read bodies of skills not loaded (the CLI's `/skills` measures
   * them separately, see `createSkillBodyCosts`).
   */
  tokens: number;
  userInvocable: boolean;
}

/** One line of a {@link ContextLedger}. */
export interface ContextLedgerEntry {
  key: string;
  /** `catalog`, `frame` (preamble/wrappers), `skill` (a body), `doc`, `read` (a file), `history`. */
  kind: string;
  tokens: number;
  skill?: string;
  placement?: string;
}

/** Token ledger of the context, as `/context` shows it: `total` is the sum of the entries' tokens. */
export interface ContextLedger {
  /** Tokenizer name, e.g. `o200k_base`. */
  counter: string;
  entries: ContextLedgerEntry[];
  total: number;
  contextWindow: number;
  /** False when the window is a default, not configured (absent: unknown to the context). */
  contextWindowKnown?: boolean;
}

/** Result of a load asked by the user or the selection pre-pass. */
export type UserLoadOutcome =
  | {
      ok: true;
      name: string;
      /**
       * Messages to append to the history (history placement): the profile's load call and its result;
       * empty with system placement or when the skill was already loaded. Appended before the first user
       * message, they are sent right after it (see `fromSkillSession`).
       */
      messages: ModelMessage[];
      tokens: number;
    }
  | { ok: false; name: string; message: string };

/** The skill layer as the engine sees it. */
export interface EngineSkillContext {
  /** Every tool of the skill layer (may grow between steps, e.g. script tools; gating uses {@link activeToolNames}). */
  tools(): ToolSet;
  /** Called before every step, before rendering (e.g. to discover tools of newly loaded skills). */
  prepare?(): Promise<void>;
  /** Tools the model may call in the next step. */
  activeToolNames(): string[];
  /** System prompt for the next step: preamble + catalog (+ loaded bodies with `system` placement). */
  systemPrompt(): string;
  /** Rewrites the history before each step (e.g. unloaded skills' results become stubs). Default: unchanged. */
  rewriteHistory?(messages: ModelMessage[]): ModelMessage[];
  /** Messages that re-materialise what is still loaded after the history was compacted (history placement). */
  rematerialize?(): ModelMessage[];
  /** Loads a skill on the user's behalf (`/skill NAME args`, `$name`, the selection pre-pass). */
  loadSkill(name: string, options?: { args?: string; by?: "user" | "select" }): Promise<UserLoadOutcome>;
  /** Unloads a skill on the user's behalf. */
  unloadSkill(name: string): Promise<{ ok: boolean; message: string }>;
  /** The catalog with load markers and costs. */
  listSkills(): SkillListing[];
  /** Names of loaded skills. */
  loadedSkills(): string[];
  /** Token ledger of catalog, bodies, docs and (after {@link measureHistory}) history. */
  ledger(): ContextLedger;
  /** Counts the conversation into the ledger's `history` entry (without what the ledger already counts). */
  measureHistory?(messages: readonly ModelMessage[]): number;
  /** A JSON-serialisable snapshot of the session state (restorable by whoever built the context). */
  snapshot(): unknown;
  /** Lexical search over the catalog (for the `lexical` selection pre-pass). */
  search?(query: string, limit: number): Array<{ name: string; score: number }>;
  /** Re-scans the catalog. */
  reload?(): Promise<void>;
  /** Subscribes to skill events; returns the unsubscribe function. */
  subscribe?(listener: (event: SkillContextEvent) => void): () => void;
}
