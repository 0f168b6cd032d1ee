/**
 * The `SkillAgent`: one object that owns a conversation with skills — catalog, skill session, tools,
 * workspace, executor, store and model — and runs its turns. `chat`, `ask`, the MCP server and the
 * inspector are clients of it; a library user gets the same behaviour from code.
 */
import type { LanguageModel, ModelMessage, ToolSet } from "ai";
import type { Catalog } from "../catalog/types.js";
import type { ModelFlags } from "../config/load-model-config.js";
import type { SkillrtConfig } from "../config/load-skillrt-config.js";
import type { ModelConfig } from "../config/model-config.js";
import type { SkillListing } from "../context/list-skills.js";
import type { UserLoadOutcome } from "../context/load-for-user.js";
import type { Ledger } from "../context/rendered-context.js";
import type { SkillSession } from "../context/skill-session.js";
import type { SessionStore, StoredSessionInfo } from "../store/session-store.js";
import type { SkillTools } from "../tools/create-skill-tools.js";
import type { McpServerStatus } from "../tools/mcp-client/create-mcp-tool-source.js";
import type { ToolRegistry } from "../tools/tool-registry.js";
import type { AgentTurn } from "./agent-turn.js";
import type { EngineEvent, EngineEventListener, EngineUsage } from "./engine-event.js";
import type { SkillLayerOptions } from "./open-skills.js";
import type { RetryNotice } from "./retry-fetch.js";
import type { AutoSelectMode } from "./select-skills.js";

/** Options of `createSkillAgent`. Every field is optional; the defaults are the CLI's. */
export interface SkillAgentOptions extends Omit<SkillLayerOptions, "contextWindow"> {
  /**
   * The model. Default: resolved from {@link modelOptions}, the environment (`OPENAI_BASE_URL` +
   * `AGENT_MODEL`, `ANTHROPIC_API_KEY`, …) and the config files, like the CLI (a local Ollama when
   * nothing is configured).
   */
  model?: LanguageModel;
  /** Provider, model id, endpoint, context window (highest precedence when {@link model} is not given). */
  modelOptions?: ModelFlags;
  /** The config files as read (`loadSkillrtConfig`). Default: read from `cwd` and `HOME` when needed. */
  config?: SkillrtConfig;
  /** Conversation id: an id saved in the store is resumed (history and loaded skills). Default: a new UUID. */
  sessionId?: string;
  /** Where conversations are saved. Default SQLite at `<cwd>/.skillrt/sessions.db`; `false`: not saved. */
  store?: SessionStore | false;
  /**
   * How long a turn waits for another engine (process, replica) in the middle of a turn on the same session,
   * in ms, before failing with a `SessionBusyError`. Default 30,000.
   */
  lockTimeoutMs?: number;
  /** The selection pre-pass loading fitting skills before each turn. Default off. */
  select?: { mode: AutoSelectMode; maxActive?: number };
  /** Most model calls per turn. Default 20. Reaching it emits `step-limit`. */
  maxSteps?: number;
  /** Host instructions before the skill context. Default: a short skillrt assistant preamble. */
  instructions?: string;
  /** Extra tools of the host, always offered next to the skill tools (no gating, no approvals). */
  tools?: ToolSet;
  /** Receives every event of every turn (same as {@link SkillAgent.subscribe}). */
  onEvent?: EngineEventListener;
  /** Called before a provider request is retried (only for the default model). */
  onRetry?: (notice: RetryNotice) => void;
}

/** Options of one {@link SkillAgent.send}. */
export interface SendOptions {
  /** Cancels the turn: it resolves with `aborted: true` and what completed is kept. */
  abortSignal?: AbortSignal;
  /** Receives this turn's events (besides the agent's subscribers). */
  onEvent?: EngineEventListener;
}

/** A tool call of a turn, with its outcome. */
export interface TurnToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** What the model saw; undefined when the turn ended before the result. */
  output?: unknown;
  isError: boolean;
}

/** What a turn resolves to. */
export interface TurnResult {
  /** The conversation the turn belongs to (pass as `sessionId` to resume it). */
  sessionId: string;
  /** Text of the final step. */
  text: string;
  toolCalls: TurnToolCall[];
  /** Usage summed over the steps. */
  usage: EngineUsage;
  /** Model calls made. */
  steps: number;
  finishReason: string;
  /** True when the turn was cancelled. */
  aborted: boolean;
  /** True when the turn stopped at the step limit with the model still calling tools. */
  stepLimitReached: boolean;
  /** Messages the turn added to the history (user message, loads, assistant and tool messages). */
  messages: ModelMessage[];
}

/** A live conversation with skills. */
export interface SkillAgent {
  readonly catalog: Catalog;
  readonly model: LanguageModel;
  /** The resolved model configuration; undefined when a `model` was passed in. */
  readonly modelConfig: ModelConfig | undefined;
  /** Id under which the conversation is saved (changes on {@link reset}). */
  readonly sessionId: string;
  /** The skill session of the current conversation (replaced on {@link reset}). */
  readonly session: SkillSession;
  /** The skill tools of the current conversation. */
  readonly skillTools: SkillTools;
  /** Host tools (registered in code, and the MCP servers' tools while their server runs). */
  readonly toolRegistry: ToolRegistry;
  /** The configured MCP servers and their state. */
  mcpServers(): McpServerStatus[];
  /**
   * Runs one user turn: `$name` mentions load those skills, the selection pre-pass runs (when
   * configured), long history is compacted, then the model loop runs with the skill context re-rendered
   * every step. The history is saved after the turn, also when the provider fails (the turn then rejects
   * with a `ProviderError`). Only one turn runs at a time.
   */
  send(input: string, options?: SendOptions): AgentTurn<TurnResult>;
  /**
   * Loads a skill on the user's behalf (`/skill NAME args`): refused for `user-invocable: false` skills;
   * in history placement the load is added to the history as the profile's load call. Saved.
   */
  loadSkill(name: string, options?: { args?: string }): Promise<UserLoadOutcome>;
  /** Unloads a skill on the user's behalf. Saved. */
  unloadSkill(name: string): Promise<{ ok: boolean; message: string }>;
  /** The catalog with load markers and costs, sorted by name. */
  listSkills(): SkillListing[];
  /** Approximate body tokens of skills (measured once per skill record); unreadable skills are left out. */
  skillBodyTokens(names: readonly string[]): Promise<Map<string, number>>;
  /** Token ledger of the context, with the history measured now. */
  ledger(): Ledger;
  /** The conversation so far. */
  history(): readonly ModelMessage[];
  /** Re-scans the skill folders. */
  reload(): Promise<void>;
  /** Starts a new conversation (new id, empty history, fresh skill session, new workspace). */
  reset(): Promise<void>;
  /** Saves the conversation now (a no-op without a store). */
  save(): Promise<void>;
  /** Saved conversations, most recent first (`[]` without a store). */
  listSessions(): Promise<StoredSessionInfo[]>;
  /** Subscribes to the events of every turn; returns the unsubscribe function. */
  subscribe(listener: (event: EngineEvent) => void): () => void;
  /** Stops the MCP servers, deletes the workspace and closes the store (when the agent opened it). */
  close(): Promise<void>;
}
