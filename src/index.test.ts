/**
 * The package's public surface, pinned: every name `src/index.ts` exports (values and types). A change
 * here is a change of the public API; make it deliberately (no defaults, retry or history plumbing).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as skillrt from "./index.js";

const VALUES = [
  "McpHttpServerConfig",
  "McpServerConfig",
  "McpServersConfig",
  "McpStdioServerConfig",
  "ToolsConfig",
  "createMcpToolSource",
  "isToolRefusal",
  "BeneathError",
  "CONVERSATION_NAMESPACE",
  "ExecConfigFile",
  "ModelConfigFile",
  "NODE_SQLITE_MIN_VERSION",
  "PROFILE_NAMES",
  "ProviderError",
  "ProviderName",
  "SavedConversation",
  "SearchIndex",
  "SessionBusyError",
  "SessionConfigFile",
  "SessionSnapshot",
  "SkillConfigEntry",
  "SkillNotFoundError",
  "SkillRunInput",
  "SkillRunOutput",
  "SkillRunOutputFile",
  "SkillrtConfigFile",
  "SkillrtError",
  "SqliteUnavailableError",
  "StoreConflictError",
  "WorkspaceError",
  "approximateTokenCounter",
  "compactHistory",
  "computeActiveTools",
  "createBubblewrapSandboxSession",
  "createCatalog",
  "createExecutor",
  "createFsArtifactStore",
  "createMemoryStore",
  "createPostgresStore",
  "createSandboxSessionExecutor",
  "createSkillAgent",
  "filterCatalog",
  "skillKey",
  "openToolSources",
  "createSkillSession",
  "createSkillStep",
  "createSkillToolkit",
  "createSkillTools",
  "createSqliteStore",
  "createTokenCounter",
  "createToolRegistry",
  "createWorkspace",
  "defaultStorePath",
  "defineSkill",
  "describeDiagnosticCodes",
  "describeModel",
  "discoverSkills",
  "isSkillToolResult",
  "isValidSkillName",
  "listScriptTools",
  "listSkills",
  "loadConversation",
  "loadForUser",
  "loadModelConfig",
  "loadSearchIndex",
  "loadSession",
  "loadSkillEnvConfig",
  "loadSkillrtConfig",
  "openSessionStore",
  "parseSkillMd",
  "resolveModel",
  "resolveSkillEnv",
  "restoreSkillSession",
  "runAgent",
  "runScriptTool",
  "runSkillCommand",
  "saveConversation",
  "saveSession",
  "selectSkills",
  "serializeSearchIndex",
  "sessionProfile",
  "startSkillSession",
  "toPrompt",
  "userFirstHistory",
  "validateSkillDir",
  "validateSkillName",
];

const TYPES = [
  "ActiveTools",
  "ApprovalMode",
  "McpAttachment",
  "McpLimits",
  "McpServerStatus",
  "McpSourceEvent",
  "McpToolResult",
  "McpToolSource",
  "McpToolSourceOptions",
  "OnToolApproval",
  "RegisteredTool",
  "ToolApprovalAnswer",
  "ToolApprovalOptions",
  "ToolApprovalRequest",
  "ToolGating",
  "ToolGroup",
  "ToolRefusal",
  "ToolSourceError",
  "ToolSourceOptions",
  "ToolSources",
  "SkillOrigin",
  "AgentTurn",
  "AllowedToolsPolicy",
  "ArtifactStore",
  "AutoSelectMode",
  "BeneathReason",
  "BubblewrapSandboxSession",
  "BubblewrapSandboxSessionOptions",
  "Catalog",
  "CatalogChangeEvent",
  "CatalogFormat",
  "CatalogOptions",
  "CatalogStats",
  "CommandPolicy",
  "CompactHistoryOptions",
  "CompactHistoryResult",
  "ConfigSource",
  "ContextBlock",
  "CreateExecutorOptions",
  "Diagnostic",
  "DiagnosticCode",
  "DiscoveredSkill",
  "DiscoveryResult",
  "EngineEvent",
  "EngineEventListener",
  "EngineEventType",
  "EngineUsage",
  "ExecRequest",
  "ExecResult",
  "Executor",
  "ExecutorChoice",
  "ExecutorKind",
  "HistoryShaper",
  "Ledger",
  "LedgerEntry",
  "LineRange",
  "ListOptions",
  "LoadInputShape",
  "LoadModelConfigOptions",
  "LoadOptions",
  "LoadResult",
  "LoadSkillEnvConfigOptions",
  "LoadSkillrtConfigOptions",
  "LoadedSkill",
  "LoadedSkillInfo",
  "LockSessionOptions",
  "MemorySkill",
  "ModelConfig",
  "ModelFlags",
  "OpenSessionStoreOptions",
  "ParseMode",
  "ParseSkillOptions",
  "ParseSkillResult",
  "ParsedSkill",
  "Placement",
  "PostgresStoreOptions",
  "ProfileName",
  "PromptEntry",
  "PutOptions",
  "ReadFileResult",
  "ReadOptions",
  "ReadResult",
  "RenderedContext",
  "ResolveModelOptions",
  "RestoreOptions",
  "RetryNotice",
  "RunAgentOptions",
  "RunAgentResult",
  "SandboxSessionExecutorOptions",
  "ScriptTool",
  "SearchHit",
  "SearchIndexData",
  "SearchWeights",
  "SelectDocsResult",
  "SelectSkillsOptions",
  "SelectSkillsResult",
  "SendOptions",
  "SessionErrorCode",
  "SessionEvent",
  "SessionEventType",
  "SessionFailure",
  "SessionLock",
  "SessionOperations",
  "SessionProfile",
  "SessionRenderer",
  "SessionSearchHit",
  "SessionStore",
  "Severity",
  "SkillAgent",
  "SkillAgentOptions",
  "SkillDirValidation",
  "SkillEnvConfig",
  "SkillFile",
  "SkillFileKind",
  "SkillLayerOptions",
  "SkillListing",
  "SkillRecord",
  "SkillRoot",
  "SkillRunContext",
  "SkillRunRequest",
  "SkillRunResult",
  "SkillRunSettings",
  "SkillRunSetup",
  "SkillScope",
  "SkillSession",
  "SkillSessionOptions",
  "SkillStep",
  "SkillStepSettings",
  "SkillStepView",
  "SkillToolNames",
  "SkillToolResult",
  "SkillToolkit",
  "SkillToolkitOptions",
  "SkillTools",
  "SkillToolsOptions",
  "SkillrtConfig",
  "SkillrtErrorCode",
  "SqliteStoreOptions",
  "StoredSession",
  "StoredSessionInfo",
  "SystemLayout",
  "TokenCounter",
  "ToolCallShape",
  "ToolEffects",
  "ToolRegistry",
  "TurnResult",
  "TurnToolCall",
  "UnloadResult",
  "UserLoadOutcome",
  "Workspace",
];

/** Names exported by `export { … }` / `export type { … }` statements of a module (values, types). */
function exportedNames(file: string): { values: string[]; types: string[] } {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const values: string[] = [];
  const types: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const clause = statement.exportClause;
    // `export *` would export whatever a module adds: not allowed in the public entry.
    if (clause === undefined || !ts.isNamedExports(clause))
      throw new Error(`${file}: export * is not curated`);
    for (const element of clause.elements) {
      (statement.isTypeOnly || element.isTypeOnly ? types : values).push(element.name.text);
    }
  }
  return { values: values.sort(), types: types.sort() };
}

describe("public exports of 'skillrt'", () => {
  it("are exactly the pinned values and types", () => {
    const names = exportedNames(path.join(import.meta.dirname, "index.ts"));
    expect(names.values).toEqual([...VALUES].sort());
    expect(names.types).toEqual([...TYPES].sort());
    expect(Object.keys(skillrt).sort()).toEqual([...VALUES].sort());
  });

  it("leak no defaults, retry plumbing or internal history helpers", () => {
    const all = [...VALUES, ...TYPES];
    expect(all.filter((n) => n.startsWith("DEFAULT_"))).toEqual([]);
    for (const internal of ["createRetryFetch", "parseRetryAfter", "isRetryableStatus", "historyTokens"])
      expect(all).not.toContain(internal);
  });

  it("include every error class a public function throws, each a SkillrtError", () => {
    const errors = [
      skillrt.BeneathError,
      skillrt.ProviderError,
      skillrt.SessionBusyError,
      skillrt.SkillNotFoundError,
      skillrt.SqliteUnavailableError,
      skillrt.StoreConflictError,
      skillrt.WorkspaceError,
    ];
    for (const ErrorClass of errors) expect(ErrorClass.prototype).toBeInstanceOf(skillrt.SkillrtError);
    const beneath = new skillrt.BeneathError("outside", "../x leaves the workspace");
    expect(skillrt.SkillrtError.isInstance(beneath)).toBe(true);
    expect(skillrt.BeneathError.isInstance(beneath)).toBe(true);
    expect(beneath.code).toBe("path-outside-root");
    expect(skillrt.BeneathError.isInstance(new skillrt.WorkspaceError("x"))).toBe(false);
  });
});
