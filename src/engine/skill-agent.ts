/**
 * The `SkillAgent`: one object that owns a conversation with skills — catalog, skill session, tools,
 * workspace, executor, store and model — and runs its turns. `chat`, `ask`, the MCP server and the
 * inspector are clients of it; a library user gets the same behaviour from code.
 */
import type { Context, Tracer, TracerProvider } from "@opentelemetry/api";
import type { LanguageModel, ModelMessage, ToolSet } from "ai";
import type { Catalog } from "../catalog/types.js";
import type { AgentDefinition, AgentSpec } from "../config/agent-definition.js";
import type { ModelConfig } from "../config/model-config.js";
import type { UserLoadOutcome } from "../context/load-for-user.js";
import type { SkillSession } from "../context/skill-session.js";
import type { Workspace } from "../exec/workspace.js";
import type { WorkspaceFileLimits } from "../exec/workspace-files.js";
import type { SessionStore } from "../store/session-store.js";
import type { SkillTools } from "../tools/create-skill-tools.js";
import type { AgentTurn } from "./agent-turn.js";
import type { CallOptions } from "./call-options.js";
import type { DelegateOptions, DelegationOptions, DelegationResult } from "./delegate-to-agent.js";
import type { EngineEvent, EngineEventListener, EngineUsage } from "./engine-event.js";
import type { SkillLayerOptions } from "./open-skills.js";
import type { ToolSources } from "./open-tool-sources.js";
import type { ToolApprovalResponse } from "./pending-approvals.js";
import type { AutoSelectMode } from "./select-skills.js";
import type { TurnLimit } from "./turn-limit-error.js";

/**
 * Options of `createSkillAgent`. Only `model` and `catalog` are required; nothing else is looked up: no
 * config file, environment variable, default folder or database is read or created unless passed here
 * (`fromEnvironment()` gathers those for a Node process).
 */
export interface SkillAgentOptions
  extends Omit<SkillLayerOptions, "contextWindow" | "skills" | "catalog" | "cwd" | "env"> {
  /** The model (any AI SDK `LanguageModel`; `resolveModel(await loadModelConfig())` reads the environment). */
  model: LanguageModel;
  /** The skills (`createCatalog`, `createMemoryCatalog`, a parent's `filterCatalog`). */
  catalog: Catalog;
  /**
   * What {@link model} was resolved from, when it was (`loadModelConfig`): names the model in saved
   * conversations and turn records, and gives the context window when it was configured.
   */
  modelConfig?: ModelConfig;
  /**
   * The model's context window in tokens, when known (catalog budget, eviction). Default: the configured
   * window of {@link modelConfig}; unknown otherwise (compaction then counts 128,000).
   */
  contextWindow?: number;
  /** Directory `skill_run` may stage `host://` inputs from (unless `run.hostDirs` says). Default: none. */
  cwd?: string;
  /** Conversation id: an id saved in the store is resumed (history and loaded skills). Default: a new UUID. */
  sessionId?: string;
  /**
   * Where conversations are saved: a store, or the URL of one as the CLI's `--store` takes it —
   * `sqlite:PATH` (relative to {@link cwd}, which must then be given), `sqlite:///absolute/path`,
   * `sqlite::memory:`, `postgres://USER@HOST:PORT/DATABASE`. A store opened from a URL is the agent's: it
   * is closed with it. Default: none (the conversation is not persisted).
   */
  store?: SessionStore | string;
  /** Close {@link store} with the agent (`close()`, or a failed creation). Default false: the caller owns it. */
  closeStore?: boolean;
  /**
   * Tool sources opened by the caller (`openToolSources`), e.g. shared with other agents; then
   * `toolRegistry`, `mcpServers`, `toolGating` and `approval` must not be given. They are started (once)
   * when the agent is created. Default: sources opened from those options and closed with the agent.
   */
  toolSources?: ToolSources;
  /** Close {@link toolSources} (stop its MCP servers) with the agent. Default false: the caller owns them. */
  closeToolSources?: boolean;
  /**
   * The process environment, when the host wants it used: `${env:NAME}` in {@link mcpServers} entries read
   * it, and skills' declared requirements (variables, programs on its `PATH`, `~/` paths under its `HOME`)
   * are checked against it. Default: none (requirements are then not checked). (Turn records for
   * `skillrt inspect` are `recordTurns`', which takes its own `env`.)
   */
  env?: Record<string, string | undefined>;
  /**
   * How long a turn waits for another engine (process, replica) in the middle of a turn on the same session,
   * in ms, before failing with a `SessionBusyError`. Default 30,000.
   */
  lockTimeoutMs?: number;
  /**
   * How long a turn's save that fails (the store unreachable, a SQLite file locked or unwritable) is retried
   * with backoff, in ms, before the turn fails with an `UnsavedTurnError` holding what was not saved. A
   * conflict or a busy session is not retried. Default 30,000; `0` tries once.
   */
  saveRetryMs?: number;
  /**
   * What a conversation keeps of its workspace with the `store`: the regular files a turn leaves in
   * `work/` (with the staged `work/inputs/`) and `out/`, saved at the end of each turn (and by `save()`) as
   * content-addressed blobs, and written back into the workspace when the conversation is opened again, in
   * any process sharing the store. The caps: `maxFileBytes` (default 16 MiB a file), `maxTotalBytes`
   * (64 MiB a conversation) and `maxFiles` (1,000); a file past one is not kept (the turn is not affected),
   * a `files-not-kept` event says which and why, and the model is told with its next message. `false`
   * keeps no files (the workspace lasts as long as the agent). Needs a store with blobs (the shipped ones).
   */
  workspaceFiles?: Partial<WorkspaceFileLimits> | false;
  /** The selection pre-pass loading fitting skills before each turn. Default off. */
  select?: { mode: AutoSelectMode; maxActive?: number };
  /** Most model calls per turn. Default 20. Reaching it emits `step-limit`. */
  maxSteps?: number;
  /**
   * Most output tokens of one model call. Default {@link ModelConfig.maxOutputTokens} of `modelConfig`;
   * given, it is asked of the provider (`max_tokens`). Either way a call streaming past it (counted as 8
   * characters a token, since an endpoint may ignore `max_tokens`; 32,000 tokens when unset) is stopped
   * and the turn ends with `limitReached` and a `turn-limit` event, what it streamed saved.
   */
  maxOutputTokens?: number;
  /**
   * Most ms one turn may take (model calls, tools, subagents). Default {@link ModelConfig.turnTimeoutMs}
   * of `modelConfig`, else 1,800,000 (30 minutes). Past it the turn is stopped, as for `maxOutputTokens`.
   */
  turnTimeoutMs?: number;
  /** Host instructions before the skill context. Default: a short skillrt assistant preamble. */
  instructions?: string;
  /** Extra tools of the host, always offered next to the skill tools (no gating, no approvals). */
  tools?: ToolSet;
  /** Receives every event of every turn (same as {@link SkillAgent.subscribe}). */
  onEvent?: EngineEventListener;
  /**
   * Subagents it may delegate to, by name (specs as in the config's `agents` section, or definitions from
   * `discoverAgents`). With at least one, the model is offered the delegation tool (`agent_run`; `Task`
   * under the claude profile) and {@link SkillAgent.delegate} works. Default: none.
   */
  agents?: Readonly<Record<string, AgentSpec | AgentDefinition>>;
  /**
   * Limits of delegation — depth (default 2), subagents started per turn across all nesting (default 16),
   * subagents of one agent at once (default 4) — and the models of agents that name one. A child gets its
   * parent's `trust`, approval mode and callback, executor and `shellPreRender`; its definition may only
   * make them stricter.
   */
  delegation?: DelegationOptions;
  /**
   * AI SDK call options of every model call (`temperature`, `providerOptions`, `headers`, `seed`,
   * `experimental_telemetry`, …), passed through as given; a turn's `send(input, { callOptions })` are merged
   * over them. With `history` placement and an Anthropic model, the system prompt (catalog) and the history
   * (loaded skills) are marked for prompt caching unless `providerOptions.anthropic.cacheControl` is given or
   * {@link promptCache} is false. Default: none.
   */
  callOptions?: CallOptions;
  /**
   * Mark the prompt for the provider's cache (Anthropic's `cacheControl`) in `history` placement. Default
   * true (for Anthropic models; other providers cache prefixes on their own).
   */
  promptCache?: boolean;
  /**
   * The tracer of this agent's spans (`invoke_agent` per turn, `chat` per model call, `execute_tool`, skill,
   * run, pre-render and MCP spans; docs/telemetry.md). Default: {@link tracerProvider}'s, else the global
   * provider's; with none registered, no span records and nothing is done.
   */
  tracer?: Tracer;
  /** A tracer provider to take {@link tracer} from instead of the global one. */
  tracerProvider?: TracerProvider;
  /** The agent's name in its spans (`gen_ai.agent.name`). Default `skillrt` (a subagent: its definition's name). */
  name?: string;
}

/** Options of one {@link SkillAgent.send}. */
export interface SendOptions {
  /** Cancels the turn: it resolves with `aborted: true` and what completed is kept. */
  abortSignal?: AbortSignal;
  /** Receives this turn's events (besides the agent's subscribers). */
  onEvent?: EngineEventListener;
  /**
   * Files the user attaches to this turn: host paths (relative to `cwd`) or named contents. They are
   * staged into the workspace's `work/inputs/` before the turn (see `stageUserFiles`), and the user's
   * message names where. Needs an executor (a workspace).
   */
  files?: ReadonlyArray<string | { name: string; content: string | Uint8Array }>;
  /**
   * The client's answers to the calls the previous turn left waiting for approval (deferred approvals,
   * `approval.defer`; the `tool-approval-request` events had their `approvalId`s). The turn runs the
   * approved calls, refuses the others and goes on; `input` must then be empty. A turn sent with a message
   * instead refuses the calls still waiting.
   */
  approvals?: readonly ToolApprovalResponse[];
  /** AI SDK call options of this turn's model calls, merged over the agent's `callOptions`. */
  callOptions?: CallOptions;
  /**
   * The OpenTelemetry context whose span the turn's `invoke_agent` span is a child of. Default: the active
   * context (with a context manager registered, the span the caller runs in).
   */
  traceContext?: Context;
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
  /**
   * Set when a limit stopped the turn: a model call's output passed {@link SkillAgentOptions.maxOutputTokens}
   * (`output`), or the turn ran past {@link SkillAgentOptions.turnTimeoutMs} (`deadline`). `text` is then
   * what the stopped step streamed, and it is in the saved history. A `turn-limit` event said the same.
   */
  limitReached?: TurnLimit;
  /** Messages the turn added to the history (user message, loads, assistant and tool messages). */
  messages: ModelMessage[];
}

/**
 * A live conversation with skills: what a turn needs. The parts it was made from (catalog, model, store,
 * tool sources) stay with whoever composed it: session listing is the store's (`store.list`), MCP server
 * states the tool sources' (`toolSources.servers()`), the skill listing and ledger the session's.
 */
export interface SkillAgent {
  /** Id under which the conversation is saved (changes on {@link reset}). */
  readonly sessionId: string;
  /** The skill session of the current conversation (replaced on {@link reset}). */
  readonly session: SkillSession;
  /** The skill tools of the current conversation (their gating decision: what `/context` shows). */
  readonly skillTools: SkillTools;
  /**
   * Runs one user turn: `$name` mentions load those skills, the selection pre-pass runs (when
   * configured), long history is compacted, then the model loop runs with the skill context re-rendered
   * every step. The history is saved after the turn, also when the provider fails (the turn then rejects
   * with a `ProviderError`). Only one turn runs at a time.
   */
  send(input: string, options?: SendOptions): AgentTurn<TurnResult>;
  /**
   * Loads a skill on the user's behalf (`/skill NAME args`): refused for `user-invocable: false` skills;
   * in history placement the load is added to the history as the profile's load call. Saved. A skill that
   * runs in its own context (`context: fork`) runs now in a child agent, as when the model loads it: the
   * child's events (`agent-start`, `agent-event`, `agent-end`) reach `options.onEvent` and, outside a turn,
   * this agent's subscribers (a turn recorder records the subagent); the outcome names the agent.
   */
  loadSkill(
    name: string,
    options?: { args?: string; onEvent?: (event: EngineEvent) => void },
  ): Promise<UserLoadOutcome>;
  /**
   * Runs `task` in a child of agent `name` (one of {@link SkillAgentOptions.agents}) to completion and
   * returns its answer and what it took; its events reach this agent's subscribers and `options.onEvent`,
   * tagged. Throws `SkillrtError` (`invalid-argument`) for an unknown agent or past the depth limit, and
   * `DelegationLimitError` past the limit of subagents per turn (outside a turn, counted per call).
   */
  delegate(name: string, task: string, options?: DelegateOptions): Promise<DelegationResult>;
  /**
   * The tools offered in every step beside the skill tools: {@link SkillAgentOptions.tools} and, with
   * agents, the delegation tool (`agent_run`; `Task` under the claude profile). What `/context` counts.
   */
  readonly hostTools: Readonly<ToolSet>;
  /** The workspace of the current conversation; undefined without an executor. */
  readonly workspace: Workspace | undefined;
  /** Unloads a skill on the user's behalf. Saved. */
  unloadSkill(name: string): Promise<{ ok: boolean; message: string }>;
  /** The conversation so far. */
  history(): readonly ModelMessage[];
  /** Starts a new conversation (new id, empty history, fresh skill session, new workspace). */
  reset(): Promise<void>;
  /** Saves the conversation now (a no-op without a store). */
  save(): Promise<void>;
  /** Subscribes to the events of every turn; returns the unsubscribe function. */
  subscribe(listener: (event: EngineEvent) => void): () => void;
  /**
   * Deletes the workspace, and closes the store and tool sources when the agent owns them (`closeStore`,
   * `closeToolSources`, or sources it opened from `mcpServers`/`toolRegistry`).
   */
  close(): Promise<void>;
}
