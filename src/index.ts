/**
 * skillrt public API: the agent, the AI SDK toolkit, the catalog, the session, executors, stores, errors
 * and the model helpers. Power-user pieces live on curated subpaths: `skillrt/catalog` (discovery, SKILL.md
 * parsing and validation), `skillrt/session` (disclosure state, skill tools, profiles, gating, snapshots,
 * conversations), `skillrt/exec` (workspaces, sandboxes, runs), `skillrt/store` (session stores),
 * `skillrt/mcp` (the MCP server) and `skillrt/test` (fakes). Internals (defaults, the search index's
 * format, retry and history plumbing, CLI defaults) are not exported. This entry loads no `node:sqlite`,
 * `pg` or MCP SDK module until a function that needs one runs. `src/index.test.ts` pins this list: change
 * it deliberately.
 */

// errors: every class a public function throws

export { ProviderError } from "./engine/provider-error.js";
export { BeneathError, type BeneathReason } from "./errors/beneath-error.js";
export { DelegationLimitError } from "./errors/delegation-limit-error.js";
export { SkillNotFoundError } from "./errors/skill-not-found-error.js";
export { SkillrtError, type SkillrtErrorCode } from "./errors/skillrt-error.js";
export { SqliteUnavailableError } from "./errors/sqlite-unavailable-error.js";
export { UnsavedTurnError } from "./errors/unsaved-turn-error.js";
export { WorkspaceError } from "./errors/workspace-error.js";
export { SessionBusyError } from "./store/session-busy-error.js";
export { StoreConflictError } from "./store/store-conflict-error.js";

// config and model helpers: skillrt.config.json, providers

export { type LoadModelConfigOptions, loadModelConfig, type ModelFlags } from "./config/load-model-config.js";
export {
  type ConfigSource,
  type LoadSkillrtConfigOptions,
  loadSkillrtConfig,
  type SkillrtConfig,
} from "./config/load-skillrt-config.js";
export { describeModel, type ModelConfig } from "./config/model-config.js";
export { SkillrtConfigFile } from "./config/skillrt-config.js";
export { type ResolveModelOptions, resolveModel } from "./engine/resolve-model.js";

// catalog: where skills come from (more at `skillrt/catalog`)

export { createCatalog } from "./catalog/create-catalog.js";
export { filterCatalog } from "./catalog/filter-catalog.js";
export { defineSkill } from "./catalog/memory-source.js";
export { skillKey } from "./catalog/skill-origin.js";
export type {
  Catalog,
  CatalogChangeEvent,
  CatalogOptions,
  MemorySkill,
  SearchHit,
  SkillOrigin,
  SkillRecord,
  SkillRoot,
  SkillScope,
} from "./catalog/types.js";

// session: progressive disclosure and the skill tools (more at `skillrt/session`)

export { createSkillSession } from "./context/create-skill-session.js";
export type { ProfileName } from "./context/profile-name.js";
export type { SessionEvent } from "./context/session-event.js";
export type { Placement, SkillSessionOptions } from "./context/session-options.js";
export type { SkillSession } from "./context/skill-session.js";
export { createSkillTools, type SkillTools, type SkillToolsOptions } from "./tools/create-skill-tools.js";
export type {
  ApprovalMode,
  OnToolApproval,
  ToolApprovalAnswer,
  ToolApprovalOptions,
  ToolApprovalRequest,
} from "./tools/tool-approval.js";
export {
  createToolRegistry,
  type RegisteredTool,
  type ToolGroup,
  type ToolRegistry,
} from "./tools/tool-registry.js";

// exec: where `skill_run` runs (more at `skillrt/exec`)

export { type CreateExecutorOptions, createExecutor, type ExecutorChoice } from "./exec/create-executor.js";
export type { ExecRequest, ExecResult, Executor, ExecutorKind } from "./exec/executor.js";

// store: where conversations persist (more at `skillrt/store`)

export { createMemoryStore } from "./store/create-memory-store.js";
export { createPostgresStore, type PostgresStoreOptions } from "./store/create-postgres-store.js";
export { createSqliteStore, type SqliteStoreOptions } from "./store/create-sqlite-store.js";
export type { SessionStore, StoredSession, StoredSessionInfo } from "./store/session-store.js";

// agent and toolkit: the SkillAgent, the agent loop, the AI SDK toolkit, events

export type { AgentDefinition, AgentSpec } from "./config/agent-definition.js";
export type { AgentTurn } from "./engine/agent-turn.js";
export type { CallOptions } from "./engine/call-options.js";
export { createSkillAgent } from "./engine/create-skill-agent.js";
export {
  createSkillToolkit,
  type SkillStepSettings,
  type SkillToolkit,
  type SkillToolkitOptions,
} from "./engine/create-skill-toolkit.js";
export type { DelegateOptions, DelegationOptions, DelegationResult } from "./engine/delegate-to-agent.js";
export type {
  EngineEvent,
  EngineEventListener,
  EngineEventType,
  EngineUsage,
} from "./engine/engine-event.js";
export type { SkillLayerOptions, SkillRunSettings } from "./engine/open-skills.js";
export type { ToolSourceError, ToolSourceOptions } from "./engine/open-tool-sources.js";
export { openToolSources, type ToolSources } from "./engine/open-tool-sources.js";
export type { RetryNotice } from "./engine/retry-fetch.js";
export { type RunAgentOptions, type RunAgentResult, runAgent } from "./engine/run-agent.js";
export type { AutoSelectMode } from "./engine/select-skills.js";
export type {
  SendOptions,
  SkillAgent,
  SkillAgentOptions,
  TurnResult,
  TurnToolCall,
} from "./engine/skill-agent.js";
