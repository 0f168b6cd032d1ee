/** skillrt public API. Explicit named exports only; internals are not exported. */
// spec: SKILL.md text to data

export { createCatalog } from "./catalog/create-catalog.js";
export { discoverSkills } from "./catalog/discover-skills.js";
export { defineSkill } from "./catalog/memory-source.js";
// catalog: where skills come from
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
  SkillRecord,
  SkillRoot,
  SkillScope,
} from "./catalog/types.js";
export { type SkillDirValidation, validateSkillDir } from "./catalog/validate-skill-dir.js";
// context: skill sessions (progressive disclosure, budgets, placement, snapshots)
export { createSkillSession, startSkillSession } from "./context/create-skill-session.js";
export { restoreSkillSession } from "./context/restore-skill-session.js";
export { loadSession, saveSession } from "./context/save-session.js";
export { SessionSnapshot } from "./context/session-snapshot.js";
export type {
  CatalogFormat,
  Ledger,
  LedgerEntry,
  LoadResult,
  Placement,
  ReadResult,
  SessionEvent,
  SkillSessionOptions,
  UnloadResult,
} from "./context/session-types.js";
export type { LoadedSkillInfo, LoadOptions, ReadOptions, SkillSession } from "./context/skill-session.js";
export { approximateTokenCounter, createTokenCounter, type TokenCounter } from "./context/token-counter.js";
export {
  type CompactHistoryOptions,
  type CompactHistoryResult,
  compactHistory,
} from "./engine/compact-history.js";
export type {
  EngineEvent,
  EngineEventListener,
  EngineEventType,
  EngineUsage,
} from "./engine/engine-event.js";
export type {
  ContextLedger,
  ContextLedgerEntry,
  EngineSkillContext,
  SkillContextEvent,
  SkillListing,
  UserLoadOutcome,
} from "./engine/engine-skill-context.js";
export {
  type FromSkillSessionOptions,
  fromSkillSession,
  type SkillToolsView,
} from "./engine/from-skill-session.js";
export { type LoadModelConfigOptions, loadModelConfig, type ModelFlags } from "./engine/load-model-config.js";
export { describeModel, type ModelConfig, ModelConfigFile, ProviderName } from "./engine/model-config.js";
export { ProviderError } from "./engine/provider-error.js";
export { type ResolveModelOptions, resolveModel } from "./engine/resolve-model.js";
export {
  createRetryFetch,
  parseRetryAfter,
  type RetryFetchOptions,
  type RetryNotice,
} from "./engine/retry-fetch.js";
// engine (agent loop, providers, events, persistence of conversations)
export { type RunAgentOptions, type RunAgentResult, runAgent } from "./engine/run-agent.js";
export { loadConversation, SavedConversation, saveConversation } from "./engine/saved-conversation.js";
export {
  type AutoSelectMode,
  type SelectSkillsOptions,
  type SelectSkillsResult,
  selectSkills,
} from "./engine/select-skills.js";
export { type ArtifactStore, createFsArtifactStore } from "./exec/artifact-store.js";
// exec: workspaces and executors
export { type CreateExecutorOptions, createExecutor, type ExecutorChoice } from "./exec/create-executor.js";
export type { ExecRequest, ExecResult, Executor, ExecutorKind } from "./exec/executor.js";
export { formatRunResultForModel } from "./exec/format-run-result.js";
export { loadSkillEnvConfig } from "./exec/load-skill-env-config.js";
export { runSkillCommand, SkillRunInput, type SkillRunResult } from "./exec/run-skill-command.js";
export { listScriptTools, runScriptTool, type ScriptTool } from "./exec/script-tools.js";
export { createWorkspace, type Workspace } from "./exec/workspace.js";
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
export { createMemoryStore } from "./store/create-memory-store.js";
export { createSqliteStore } from "./store/create-sqlite-store.js";
export { defaultStorePath } from "./store/default-store-path.js";
// store: session persistence
export type { SessionStore, StoredSession } from "./store/session-store.js";
export { type AllowedToolsPolicy, computeActiveTools } from "./tools/compute-active-tools.js";
// tools: the skill tools, profiles and gating
export { createSkillTools, type SkillTools, type SkillToolsOptions } from "./tools/create-skill-tools.js";
export type { ProfileName } from "./tools/profile-types.js";
export { createToolRegistry, type ToolRegistry } from "./tools/tool-registry.js";
