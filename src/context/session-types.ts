/**
 * Public shapes of a {@link SkillSession}: options, operation results, events, rendered context and the
 * token ledger. State lives in the session; these are the values it hands out.
 */
import type { Catalog, SkillFile, SkillRecord } from "../catalog/types.js";
import type { ProfileName } from "./session-profile.js";
import type { TokenCounter } from "./token-counter.js";

/** Where loaded content is rendered. `history` (default): in tool results. `system`: in the system prompt every step. */
export type Placement = "history" | "system";

/** L1 catalog formats. `list` (default) is `- name: description`. */
export type CatalogFormat = "list" | "markdown" | "xml" | "agentskills" | "aworld" | "skillbox";

/**
 * How `system` placement lays out loaded content. `omni` (default, OmniEmployee): "## Loaded Skill
 * Instructions" with `### Skill: <name>` sections, then "## Loaded Skill References". `trpc` (trpc-agent-go):
 * per skill, alphabetically, `[Loaded] <name>` and the body, a `Docs loaded: …` line, then `[Doc] <path>`
 * blocks.
 */
export type SystemLayout = "omni" | "trpc";

/** A tool call as the model would make it: the tool's name and its input. */
export interface ToolCallShape {
  toolName: string;
  input: Record<string, unknown>;
}

/** Builds the input of the profile's load tool for `name` (and arguments, where the tool takes them). */
export type LoadInputShape = (name: string, args?: string) => Record<string, unknown>;

/** Names of the skill tools the model sees, used by the preamble and by messages written for the model. */
export interface SkillToolNames {
  /** Default `skill_load`. */
  load: string;
  /** Reads a skill file. Omitted when the profile has no such tool. */
  read?: string;
  unload?: string;
  selectDocs?: string;
  /** Always `skill_search` in every profile. */
  search?: string;
  run?: string;
}

/** Events a session emits (listeners via `on(type, fn)` or the `onEvent` option). */
export type SessionEvent =
  /** A skill entered the context: loaded by the model, the user, `init()` or the selection pre-pass. */
  | { type: "skill-load"; name: string; tokens: number; by: "model" | "user" | "init" | "select" }
  /** A skill left the context: unloaded (by the model or the user), evicted, or gone from the catalog. */
  | {
      type: "skill-unload";
      name: string;
      reason: "unload" | "evict" | "missing";
      /** Who unloaded it (`reason: "unload"` only). */
      by?: "model" | "user";
    }
  | { type: "docs-select"; name: string; docs: string[] }
  | { type: "file-read"; name: string; path: string; tokens: number }
  /** Items dropped (least recently used first) to bring the context back under the threshold. */
  | { type: "budget-evict"; evicted: string[]; tokensBefore: number; tokensAfter: number; threshold: number };

/** Names of all {@link SessionEvent} types. */
export type SessionEventType = SessionEvent["type"];

/** Options of {@link createSkillSession}. Every field is optional except `catalog`. */
export interface SkillSessionOptions {
  catalog: Catalog;
  /** Conversation id (also `${SESSION_ID}` in bodies). Default: a random UUID. */
  id?: string;
  /** Agent namespace; sessions in different namespaces share nothing. Default `default`. */
  namespace?: string;
  /** Default: o200k_base via `createTokenCounter()`. */
  tokenCounter?: TokenCounter;
  /** Default `history`. */
  placement?: Placement;
  /**
   * The tool profile the model sees: the preamble and the messages written for the model name its tools,
   * and it picks the catalog format, `system` layout, doc rule and load-call shape (`createSkillTools` builds
   * this profile's tools). Default `skillrt`.
   */
  profile?: ProfileName;
  /** `false` when no `skill_run` is offered (no executor): the preamble and messages do not name it. Default true. */
  runTool?: boolean;
  /** Default: the profile's (`list`; `markdown` for omni, `xml` for agentscope). */
  catalogFormat?: CatalogFormat;
  /**
   * Model context window in tokens. Default 128,000, treated as unknown: leave it out when neither the user
   * nor the configuration gave one (it changes the catalog budget default; see `ledger().contextWindowKnown`).
   */
  contextWindow?: number;
  /** Fraction of the window above which least-recently-used content is evicted. Default 0.9. */
  contextThreshold?: number;
  /** Largest rendered skill body (and single doc) in tokens; larger ones are refused. Default 8,000. */
  skillBudget?: number;
  /** Tokens for preamble + catalog. Default 1% of `contextWindow` when it is given, else (window unknown) 2,000. */
  catalogBudget?: number;
  /** Layout of loaded content in `system` placement. Default: the profile's (`omni`; `trpc` for trpc). */
  systemLayout?: SystemLayout;
  /** Name globs (picomatch); when given, only matching skills are visible to the model. */
  allow?: string[];
  /** Name globs hidden from the model (wins over `allow`). */
  deny?: string[];
  /** Skills loaded by `init()` besides those with `active: true`. */
  activeSkills?: string[];
  /** `skill_search` is always offered above this many visible skills (and whenever the catalog left something out). Default 100. */
  searchThreshold?: number;
  /**
   * Most skills loaded at once (`SKILLS_MAX_ACTIVE`). A model's load beyond it fails with
   * `too-many-active`, asking it to unload one first; user loads and `init()` are not capped. Default: no cap.
   */
  maxActive?: number;
  /** Most files listed in a loaded skill's `<skill_resources>`. Default 50. */
  maxResources?: number;
  /** Receives every event. */
  onEvent?: (event: SessionEvent) => void;
  /** Custom preamble (replaces the default text); `""` renders the catalog without one. */
  preamble?: string;
}

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

/** A piece of context the session renders, measured as one ledger entry. */
export interface ContextBlock {
  /** Stable key, e.g. `catalog`, `skill:pdf`, `doc:pdf/references/a.md`, `read:pdf/SKILL.md#1-40`. */
  key: string;
  kind: "catalog" | "frame" | "skill" | "doc" | "read";
  /** Owning skill (skill, doc, read). */
  skill?: string;
  /** `system`: part of the system prompt; `history`: a tool result in the conversation. */
  placement: Placement;
  text: string;
}

/** Everything the session renders now. `system` is exactly the `system`-placed blocks concatenated. */
export interface RenderedContext {
  system: string;
  blocks: ContextBlock[];
}

/** One line of the token ledger. */
export interface LedgerEntry {
  key: string;
  kind: ContextBlock["kind"] | "history";
  skill?: string;
  placement: Placement;
  tokens: number;
}

/** Tokens per item in context; `total` equals the tokens of what is rendered plus reported history. */
export interface Ledger {
  /** Token counter name, e.g. `o200k_base`. */
  counter: string;
  entries: LedgerEntry[];
  total: number;
  contextWindow: number;
  /** False when the session was created without `contextWindow` (the window above is the 128,000 default). */
  contextWindowKnown: boolean;
  /** Tokens above which content is evicted. */
  threshold: number;
  catalogBudget: number;
  /** Catalog figures: skills listed with full, shortened or no description, and not listed. */
  catalog: CatalogStats;
}

/** How the catalog fared against its budget. */
export interface CatalogStats {
  visible: number;
  listed: number;
  shortened: number;
  bare: number;
  omitted: number;
  tokens: number;
  /** True when `skill_search` should be offered. */
  searchOffered: boolean;
}
