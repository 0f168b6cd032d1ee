/**
 * The `SkillSession` interface: disclosure state for one conversation in one namespace. Operations return
 * typed results (`{ ok: true, … } | { ok: false, code, message }`) and never throw for expected failures.
 */
import type { ModelMessage } from "ai";
import type { Catalog, SkillFile, SkillRecord } from "../catalog/types.js";
import type { SessionProfile } from "./session-profile.js";
import type { SessionSnapshot } from "./session-snapshot.js";
import type {
  CatalogStats,
  Ledger,
  LoadResult,
  Placement,
  ReadResult,
  RenderedContext,
  SelectDocsResult,
  SessionEvent,
  SessionEventType,
  SessionFailure,
  SessionSearchHit,
  SkillSessionOptions,
  SkillToolNames,
  ToolCallShape,
  UnloadResult,
} from "./session-types.js";
import type { TokenCounter } from "./token-counter.js";

/** Options of {@link SkillSession.load}. */
export interface LoadOptions {
  /** Docs to select (replaces the selection). Unknown ones are reported, not selected. */
  docs?: string[];
  /** Select every doc (`*`); stays until a `clear`. */
  includeAllDocs?: boolean;
  /** Argument string for `$ARGUMENTS` / `$N`. A different value reloads a loaded skill. */
  args?: string;
  /**
   * Who asks. `model` (default): only skills visible to the model. `user` (a slash command, `$name`, an MCP
   * prompt): skills hidden by `disable-model-invocation` too, but never one with `user-invocable: false`
   * (refused with `not-user-invocable`). `init` loads every skill the filters allow (`active: true`, `activeSkills`).
   * `select` (the selection pre-pass) loads as the model does, reported as `select`.
   */
  by?: "model" | "user" | "init" | "select";
  /** Tool call carrying the result (for history rewriting). */
  toolCallId?: string;
}

/** Options of {@link SkillSession.readFile}. */
export interface ReadOptions {
  startLine?: number;
  endLine?: number;
  /** Refuse unless the skill is loaded (OmniEmployee's references). Default false. */
  requireLoaded?: boolean;
  toolCallId?: string;
}

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

/** Disclosure state of one conversation × namespace. */
export interface SkillSession {
  readonly id: string;
  readonly namespace: string;
  readonly placement: Placement;
  /** The tool profile the model sees (fixed at creation, see {@link SkillSessionOptions.profile}). */
  readonly profile: SessionProfile;
  readonly catalog: Catalog;
  readonly counter: TokenCounter;
  /**
   * Loads skills marked `active: true` and those in `activeSkills`; idempotent (a restored session counts as
   * initialised already). Each load is recorded under the tool call id `init-load-<name>`, so in `history`
   * placement {@link openingMessages} can show it to the model.
   */
  init(): Promise<LoadResult[]>;
  /** Skills the model may see, sorted by name. */
  visibleSkills(): SkillRecord[];
  /** Skills offered as slash commands (`user-invocable` and allowed by the filters), sorted by name. */
  userInvocableSkills(): SkillRecord[];
  /** Loaded skill names, oldest load first. */
  loadedSkills(): string[];
  loadedSkill(name: string): LoadedSkillInfo | undefined;
  load(name: string, options?: LoadOptions): Promise<LoadResult>;
  selectDocs(
    name: string,
    docs: string[],
    mode: "add" | "replace" | "clear",
    options?: { includeAllDocs?: boolean; toolCallId?: string },
  ): Promise<SelectDocsResult>;
  /** Doc paths (`.md` / `.txt` files other than SKILL.md), sorted. */
  listDocs(name: string): Promise<{ ok: true; name: string; docs: string[] } | SessionFailure>;
  /** The file index of a visible skill, SKILL.md first. */
  listFiles(name: string): Promise<{ ok: true; name: string; files: SkillFile[] } | SessionFailure>;
  readFile(name: string, path: string, options?: ReadOptions): Promise<ReadResult>;
  /** Unloads a skill; `by` (default `model`) is reported in the `skill-unload` event. */
  unload(name: string, options?: { by?: "model" | "user" }): UnloadResult;
  /** Lexical search over visible skills. Default limit 10. */
  search(query: string, limit?: number): SessionSearchHit[];
  /** A failure for an unknown (or hidden) name, with the closest visible names. */
  notFound(name: string): SessionFailure;
  /** Everything rendered now; pure and deterministic. */
  render(): RenderedContext;
  /** The system-prompt part of {@link render}: `""` when there are no visible skills and nothing in it. */
  renderSystemPrompt(): string;
  ledger(): Ledger;
  catalogStats(): CatalogStats;
  /** True when `skill_search` should be offered (something left out of the catalog, or many skills). */
  searchOffered(): boolean;
  /** Tool names of the profile (`profile.toolNames`). */
  toolNames(): SkillToolNames;
  /** The load call the model would make for `name` under the session's profile (for synthetic calls). */
  loadCall(name: string, args?: string): ToolCallShape;
  /**
   * History placement: the loads `init()` made (`active` skills), as one assistant message with a load call
   * per skill and one tool message with their results (`<skill_content>`, or a stub once unloaded). `[]` in
   * system placement or when `init()` loaded nothing. Hosts that own the message list put these after the
   * first user message; the engine (`createSkillStep`, used by `runAgent`) does it.
   */
  openingMessages(): ModelMessage[];
  /**
   * History placement freezes the catalog so the system prompt stays byte-identical while skills load;
   * this re-renders it from the current state (call after compaction or at a turn boundary).
   */
  refreshCatalog(): void;
  /** Replaces tool results whose content has left the context with short stubs (never mutates input). */
  rewriteHistory(messages: readonly ModelMessage[]): ModelMessage[];
  /** Counts the conversation (minus tool results the session already counts) into the ledger's `history`. */
  measureHistory(messages: readonly ModelMessage[]): number;
  /** Sets the `history` ledger entry directly. */
  setHistoryTokens(tokens: number): void;
  /** Content to re-inject after history compaction for skills still loaded (history placement), else `""`. */
  rematerialize(): string;
  snapshot(): SessionSnapshot;
  /** Subscribes to one event type; returns the unsubscribe function. */
  on<T extends SessionEventType>(
    type: T,
    listener: (event: Extract<SessionEvent, { type: T }>) => void,
  ): () => void;
}
