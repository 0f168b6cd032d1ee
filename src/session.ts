/**
 * `skillrt/session`: the parts the agent is built from — disclosure sessions (load, select, read, unload,
 * budgets, the ledger, rendering, snapshots), the skill tools and their profiles, host tools, MCP servers
 * as a tool source, gating and approvals, and the turn-level pieces (one step's settings, the selection
 * pre-pass, compaction, saved conversations).
 */
export {
  McpHttpServerConfig,
  McpServerConfig,
  McpServersConfig,
  McpStdioServerConfig,
} from "./config/mcp-servers-config.js";
export { SessionConfigFile, SkillConfigEntry } from "./config/skillrt-config.js";
export { ToolsConfig } from "./config/tools-config.js";
export { createSkillSession, startSkillSession } from "./context/create-skill-session.js";
export { listSkills, type SkillListing } from "./context/list-skills.js";
export { loadForUser, type UserLoadOutcome } from "./context/load-for-user.js";
export { PROFILE_NAMES, type ProfileName } from "./context/profile-name.js";
export type {
  CatalogStats,
  ContextBlock,
  Ledger,
  LedgerEntry,
  RenderedContext,
} from "./context/rendered-context.js";
export { type RestoreOptions, restoreSkillSession } from "./context/restore-skill-session.js";
export { loadSession, saveSession } from "./context/save-session.js";
export type { SessionEvent, SessionEventType } from "./context/session-event.js";
export type {
  CatalogFormat,
  Placement,
  SkillSessionOptions,
  SystemLayout,
} from "./context/session-options.js";
export { type SessionProfile, sessionProfile } from "./context/session-profile.js";
export type { SessionRenderer } from "./context/session-renderer.js";
export type {
  LoadResult,
  ReadResult,
  SelectDocsResult,
  SessionErrorCode,
  SessionFailure,
  SessionSearchHit,
  UnloadResult,
} from "./context/session-results.js";
export { SessionSnapshot } from "./context/session-snapshot.js";
export type { LoadedSkillInfo, LoadOptions, ReadOptions, SkillSession } from "./context/skill-session.js";
export { approximateTokenCounter, createTokenCounter, type TokenCounter } from "./context/token-counter.js";
export type { LoadInputShape, SkillToolNames, ToolCallShape } from "./context/tool-call-shape.js";
export { userFirstHistory } from "./context/user-first-history.js";
export {
  type CompactHistoryOptions,
  type CompactHistoryResult,
  compactHistory,
} from "./engine/compact-history.js";
export { CONVERSATION_NAMESPACE } from "./engine/create-skill-agent.js";
export {
  type PendingApproval,
  pendingApprovals,
  type ToolApprovalResponse,
} from "./engine/pending-approvals.js";
export {
  ChatRequest,
  type ChatTurnRequest,
  CONVERSATION_ID,
  readChatRequest,
} from "./engine/read-chat-request.js";
export { loadConversation, SavedConversation, saveConversation } from "./engine/saved-conversation.js";
export {
  type AutoSelectMode,
  type SelectSkillsOptions,
  type SelectSkillsResult,
  selectSkills,
} from "./engine/select-skills.js";
export { createSkillStep, type SkillStep, type SkillStepView } from "./engine/skill-step.js";
export {
  streamUITurn,
  type UITurnMetadata,
  type UITurnOptions,
  uiTurnResponse,
} from "./engine/stream-ui-turn.js";
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
