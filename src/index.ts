/**
 * skillrt public API. Explicit named exports only, grouped by module; internals (defaults, retry and
 * history plumbing) are not exported. `src/index.test.ts` pins this list: change it deliberately.
 */

// errors: every class a public function throws

export { BeneathError, type BeneathReason } from "./errors/beneath-error.js";
export { SkillNotFoundError } from "./errors/skill-not-found-error.js";
export { SkillrtError, type SkillrtErrorCode } from "./errors/skillrt-error.js";
export { NODE_SQLITE_MIN_VERSION, SqliteUnavailableError } from "./errors/sqlite-unavailable-error.js";
export { WorkspaceError } from "./errors/workspace-error.js";

// spec: SKILL.md text to data

export { describeDiagnosticCodes } from "./spec/describe-diagnostic-codes.js";
export { parseSkillMd } from "./spec/parse-skill-md.js";
export { type PromptEntry, toPrompt } from "./spec/to-prompt.js";
export type {
  Diagnostic,
  DiagnosticCode,
  ParsedSkill,
  ParseMode,
  ParseSkillOptions,
  ParseSkillResult,
  Severity,
} from "./spec/types.js";
export { isValidSkillName, validateSkillName } from "./spec/validate-skill-name.js";

// config: skillrt.config.json, model settings, per-skill environments

export { type LoadModelConfigOptions, loadModelConfig, type ModelFlags } from "./config/load-model-config.js";
export {
  type LoadSkillEnvConfigOptions,
  loadSkillEnvConfig,
  resolveSkillEnv,
  type SkillEnvConfig,
} from "./config/load-skill-env-config.js";
export {
  type ConfigSource,
  type LoadSkillrtConfigOptions,
  loadSkillrtConfig,
  type SkillrtConfig,
} from "./config/load-skillrt-config.js";
export {
  McpHttpServerConfig,
  McpServerConfig,
  McpServersConfig,
  McpStdioServerConfig,
} from "./config/mcp-servers-config.js";
export { describeModel, type ModelConfig } from "./config/model-config.js";
export {
  ExecConfigFile,
  ModelConfigFile,
  ProviderName,
  SessionConfigFile,
  SkillConfigEntry,
  SkillrtConfigFile,
} from "./config/skillrt-config.js";
export { ToolsConfig } from "./config/tools-config.js";

// catalog: where skills come from

export { createCatalog } from "./catalog/create-catalog.js";
export { discoverSkills } from "./catalog/discover-skills.js";
export { filterCatalog } from "./catalog/filter-catalog.js";
export { defineSkill } from "./catalog/memory-source.js";
export {
  SearchIndex,
  type SearchIndexData,
  type SearchWeights,
} from "./catalog/search-index.js";
export { loadSearchIndex, serializeSearchIndex } from "./catalog/search-index-data.js";
export { skillKey } from "./catalog/skill-origin.js";
export type {
  Catalog,
  CatalogChangeEvent,
  CatalogOptions,
  DiscoveredSkill,
  DiscoveryResult,
  LineRange,
  LoadedSkill,
  MemorySkill,
  ReadFileResult,
  SearchHit,
  SkillFile,
  SkillFileKind,
  SkillOrigin,
  SkillRecord,
  SkillRoot,
  SkillScope,
} from "./catalog/types.js";
export { type SkillDirValidation, validateSkillDir } from "./catalog/validate-skill-dir.js";

// context: skill sessions (progressive disclosure, budgets, placement, snapshots)

export type { HistoryShaper } from "./context/create-history-shaper.js";
export type { SessionRenderer } from "./context/create-session-renderer.js";
export { createSkillSession, startSkillSession } from "./context/create-skill-session.js";
export { listSkills, type SkillListing } from "./context/list-skills.js";
export { loadForUser, type UserLoadOutcome } from "./context/load-for-user.js";
export { type RestoreOptions, restoreSkillSession } from "./context/restore-skill-session.js";
export { loadSession, saveSession } from "./context/save-session.js";
export type { SessionOperations } from "./context/session-operations.js";
export {
  PROFILE_NAMES,
  type ProfileName,
  type SessionProfile,
  sessionProfile,
} from "./context/session-profile.js";
export { SessionSnapshot } from "./context/session-snapshot.js";
export type {
  CatalogFormat,
  CatalogStats,
  ContextBlock,
  Ledger,
  LedgerEntry,
  LoadInputShape,
  LoadResult,
  Placement,
  ReadResult,
  RenderedContext,
  SelectDocsResult,
  SessionErrorCode,
  SessionEvent,
  SessionEventType,
  SessionFailure,
  SessionSearchHit,
  SkillSessionOptions,
  SkillToolNames,
  SystemLayout,
  ToolCallShape,
  UnloadResult,
} from "./context/session-types.js";
export type { LoadedSkillInfo, LoadOptions, ReadOptions, SkillSession } from "./context/skill-session.js";
export { approximateTokenCounter, createTokenCounter, type TokenCounter } from "./context/token-counter.js";

// tools: the skill tools, profiles and gating

export {
  type ActiveTools,
  type AllowedToolsPolicy,
  computeActiveTools,
  type ToolGating,
} from "./tools/compute-active-tools.js";
export {
  createSkillTools,
  type SkillRunSetup,
  type SkillTools,
  type SkillToolsOptions,
} from "./tools/create-skill-tools.js";
export {
  createMcpToolSource,
  type McpServerStatus,
  type McpSourceEvent,
  type McpToolSource,
  type McpToolSourceOptions,
} from "./tools/mcp-client/create-mcp-tool-source.js";
export type { McpLimits } from "./tools/mcp-client/mcp-limits.js";
export type { McpAttachment, McpToolResult } from "./tools/mcp-client/mcp-tool-result.js";
export { SkillRunInput } from "./tools/skill-run-input.js";
export { SkillRunOutput, SkillRunOutputFile } from "./tools/skill-run-output.js";
export { isSkillToolResult, type SkillToolResult } from "./tools/skill-tool-result.js";
export {
  type ApprovalMode,
  isToolRefusal,
  type OnToolApproval,
  type ToolApprovalAnswer,
  type ToolApprovalOptions,
  type ToolApprovalRequest,
  type ToolRefusal,
} from "./tools/tool-approval.js";
export type { ToolEffects } from "./tools/tool-effects.js";
export {
  createToolRegistry,
  type RegisteredTool,
  type ToolGroup,
  type ToolRegistry,
} from "./tools/tool-registry.js";

// exec: workspaces, executors and skill runs

export { type ArtifactStore, createFsArtifactStore } from "./exec/artifact-store.js";
export type { CommandPolicy } from "./exec/command-policy.js";
export { type CreateExecutorOptions, createExecutor, type ExecutorChoice } from "./exec/create-executor.js";
export { createWorkspace } from "./exec/create-workspace.js";
export type { ExecRequest, ExecResult, Executor, ExecutorKind } from "./exec/executor.js";
export {
  runSkillCommand,
  type SkillRunContext,
  type SkillRunRequest,
  type SkillRunResult,
} from "./exec/run-skill-command.js";
export {
  type BubblewrapSandboxSession,
  type BubblewrapSandboxSessionOptions,
  createBubblewrapSandboxSession,
} from "./exec/sandbox-session-bubblewrap.js";
export {
  createSandboxSessionExecutor,
  type SandboxSessionExecutorOptions,
} from "./exec/sandbox-session-executor.js";
export { listScriptTools, runScriptTool, type ScriptTool } from "./exec/script-tools.js";
export type { Workspace } from "./exec/workspace.js";

// store: session persistence

export { createMemoryStore } from "./store/create-memory-store.js";
export { createPostgresStore, type PostgresStoreOptions } from "./store/create-postgres-store.js";
export { createSqliteStore, type SqliteStoreOptions } from "./store/create-sqlite-store.js";
export { defaultStorePath } from "./store/default-store-path.js";
export { type OpenSessionStoreOptions, openSessionStore } from "./store/open-session-store.js";
export { SessionBusyError } from "./store/session-busy-error.js";
export type {
  ListOptions,
  LockSessionOptions,
  PutOptions,
  SessionLock,
  SessionStore,
  StoredSession,
  StoredSessionInfo,
} from "./store/session-store.js";
export { StoreConflictError } from "./store/store-conflict-error.js";

// engine: the SkillAgent, agent loop, providers, events, persistence of conversations

export type { AgentTurn } from "./engine/agent-turn.js";
export {
  type CompactHistoryOptions,
  type CompactHistoryResult,
  compactHistory,
} from "./engine/compact-history.js";
export { CONVERSATION_NAMESPACE, createSkillAgent } from "./engine/create-skill-agent.js";
export {
  createSkillToolkit,
  type SkillStepSettings,
  type SkillToolkit,
  type SkillToolkitOptions,
} from "./engine/create-skill-toolkit.js";
export type {
  EngineEvent,
  EngineEventListener,
  EngineEventType,
  EngineUsage,
} from "./engine/engine-event.js";
export type { SkillLayerOptions, SkillRunSettings } from "./engine/open-skills.js";
export type { ToolSourceError, ToolSourceOptions } from "./engine/open-tool-sources.js";
export { openToolSources, type ToolSources } from "./engine/open-tool-sources.js";
export { ProviderError } from "./engine/provider-error.js";
export { type ResolveModelOptions, resolveModel } from "./engine/resolve-model.js";
export type { RetryNotice } from "./engine/retry-fetch.js";
export { type RunAgentOptions, type RunAgentResult, runAgent } from "./engine/run-agent.js";
export { loadConversation, SavedConversation, saveConversation } from "./engine/saved-conversation.js";
export {
  type AutoSelectMode,
  type SelectSkillsOptions,
  type SelectSkillsResult,
  selectSkills,
} from "./engine/select-skills.js";
export type {
  SendOptions,
  SkillAgent,
  SkillAgentOptions,
  TurnResult,
  TurnToolCall,
} from "./engine/skill-agent.js";
export { createSkillStep, type SkillStep, type SkillStepView } from "./engine/skill-step.js";
export { userFirstHistory } from "./engine/user-first-history.js";
