/**
 * The package's public surface, pinned: every name `src/index.ts` (`skillrt`) and the curated subpath
 * entries (`skillrt/catalog`, `skillrt/session`, `skillrt/exec`, `skillrt/store`) export, values and types.
 * A change here is a change of the public API; make it deliberately (no defaults, search index format,
 * retry, history plumbing or CLI defaults). The root entry stays small: at most 30 values.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as catalogEntry from "./catalog.js";
import * as execEntry from "./exec.js";
import * as skillrt from "./index.js";
import * as sessionEntry from "./session.js";
import * as storeEntry from "./store.js";

/** Each entry file of `package.json` "exports" (besides `skillrt/mcp` and `skillrt/test`): its names. */
const ENTRIES: Record<string, { values: string[]; types: string[] }> = {
  "index.ts": {
    values: [
      "BeneathError",
      "DelegationLimitError",
      "ProviderError",
      "SessionBusyError",
      "SkillNotFoundError",
      "SkillrtConfigFile",
      "SkillrtError",
      "SqliteUnavailableError",
      "StoreConflictError",
      "UnsavedTurnError",
      "WorkspaceError",
      "createCatalog",
      "createExecutor",
      "createMemoryStore",
      "createPostgresStore",
      "createSkillAgent",
      "createSkillSession",
      "createSkillToolkit",
      "createSkillTools",
      "createSqliteStore",
      "createToolRegistry",
      "defineSkill",
      "describeModel",
      "filterCatalog",
      "loadModelConfig",
      "loadSkillrtConfig",
      "openToolSources",
      "resolveModel",
      "runAgent",
      "skillKey",
    ],
    types: [
      "AgentDefinition",
      "AgentSpec",
      "DelegateOptions",
      "DelegationOptions",
      "DelegationResult",
      "AgentTurn",
      "ApprovalMode",
      "AutoSelectMode",
      "CallOptions",
      "BeneathReason",
      "Catalog",
      "CatalogChangeEvent",
      "CatalogOptions",
      "ConfigSource",
      "CreateExecutorOptions",
      "EngineEvent",
      "EngineEventListener",
      "EngineEventType",
      "EngineUsage",
      "ExecRequest",
      "ExecResult",
      "Executor",
      "ExecutorChoice",
      "ExecutorKind",
      "LoadModelConfigOptions",
      "LoadSkillrtConfigOptions",
      "MemorySkill",
      "ModelConfig",
      "ModelFlags",
      "OnToolApproval",
      "Placement",
      "PostgresStoreOptions",
      "ProfileName",
      "RegisteredTool",
      "ResolveModelOptions",
      "RetryNotice",
      "RunAgentOptions",
      "RunAgentResult",
      "SearchHit",
      "SendOptions",
      "SessionEvent",
      "SessionStore",
      "SkillAgent",
      "SkillAgentOptions",
      "SkillLayerOptions",
      "SkillOrigin",
      "SkillRecord",
      "SkillRoot",
      "SkillRunSettings",
      "SkillScope",
      "SkillSession",
      "SkillSessionOptions",
      "SkillStepSettings",
      "SkillToolkit",
      "SkillToolkitOptions",
      "SkillTools",
      "SkillToolsOptions",
      "SkillrtConfig",
      "SkillrtErrorCode",
      "SqliteStoreOptions",
      "StoredSession",
      "StoredSessionInfo",
      "ToolApprovalAnswer",
      "ToolApprovalOptions",
      "ToolApprovalRequest",
      "ToolGroup",
      "ToolRegistry",
      "ToolSourceError",
      "ToolSourceOptions",
      "ToolSources",
      "TurnResult",
      "TurnToolCall",
    ],
  },
  "catalog.ts": {
    values: [
      "discoverAgents",
      "parseAgentFile",
      "createCatalog",
      "defineSkill",
      "describeDiagnosticCodes",
      "discoverSkills",
      "isValidSkillName",
      "parseSkillMd",
      "toPrompt",
      "validateSkillDir",
      "validateSkillName",
    ],
    types: [
      "DiscoveredAgents",
      "ParseAgentResult",
      "Catalog",
      "CatalogChangeEvent",
      "CatalogOptions",
      "Diagnostic",
      "DiagnosticCode",
      "DiscoveredSkill",
      "DiscoveryResult",
      "LineRange",
      "LoadedSkill",
      "MemorySkill",
      "ParseMode",
      "ParseSkillOptions",
      "ParseSkillResult",
      "ParsedSkill",
      "PromptEntry",
      "ReadFileResult",
      "SearchHit",
      "Severity",
      "SkillDirValidation",
      "SkillFile",
      "SkillFileKind",
      "SkillRecord",
      "SkillRoot",
      "SkillScope",
    ],
  },
  "session.ts": {
    values: [
      "CONVERSATION_ID",
      "CONVERSATION_NAMESPACE",
      "ChatRequest",
      "McpHttpServerConfig",
      "McpServerConfig",
      "McpServersConfig",
      "McpStdioServerConfig",
      "PROFILE_NAMES",
      "SavedConversation",
      "SessionConfigFile",
      "SessionSnapshot",
      "SkillConfigEntry",
      "ToolsConfig",
      "approximateTokenCounter",
      "compactHistory",
      "computeActiveTools",
      "createMcpToolSource",
      "createSkillSession",
      "createSkillStep",
      "createSkillTools",
      "createTokenCounter",
      "createToolRegistry",
      "isSkillToolResult",
      "isToolRefusal",
      "listSkills",
      "loadConversation",
      "loadForUser",
      "loadSession",
      "pendingApprovals",
      "readChatRequest",
      "restoreSkillSession",
      "saveConversation",
      "saveSession",
      "selectSkills",
      "sessionProfile",
      "startSkillSession",
      "streamUITurn",
      "uiTurnResponse",
      "userFirstHistory",
    ],
    types: [
      "ActiveTools",
      "AllowedToolsPolicy",
      "ApprovalMode",
      "AutoSelectMode",
      "CatalogFormat",
      "ChatTurnRequest",
      "CatalogStats",
      "CompactHistoryOptions",
      "CompactHistoryResult",
      "ContextBlock",
      "Ledger",
      "LedgerEntry",
      "LoadInputShape",
      "LoadOptions",
      "LoadResult",
      "LoadedSkillInfo",
      "McpAttachment",
      "McpLimits",
      "McpServerStatus",
      "McpSourceEvent",
      "McpToolResult",
      "McpToolSource",
      "McpToolSourceOptions",
      "OnToolApproval",
      "PendingApproval",
      "Placement",
      "ProfileName",
      "ReadOptions",
      "ReadResult",
      "RegisteredTool",
      "RenderedContext",
      "RestoreOptions",
      "SelectDocsResult",
      "SelectSkillsOptions",
      "SelectSkillsResult",
      "SessionErrorCode",
      "SessionEvent",
      "SessionEventType",
      "SessionFailure",
      "SessionProfile",
      "SessionRenderer",
      "SessionSearchHit",
      "SkillListing",
      "SkillRunSetup",
      "SkillSession",
      "SkillSessionOptions",
      "SkillStep",
      "SkillStepView",
      "SkillToolNames",
      "SkillToolResult",
      "SkillTools",
      "SkillToolsOptions",
      "SystemLayout",
      "TokenCounter",
      "ToolApprovalAnswer",
      "ToolApprovalOptions",
      "ToolApprovalRequest",
      "ToolApprovalResponse",
      "UITurnMetadata",
      "UITurnOptions",
      "ToolCallShape",
      "ToolEffects",
      "ToolGating",
      "ToolGroup",
      "ToolRefusal",
      "ToolRegistry",
      "UnloadResult",
      "UserLoadOutcome",
    ],
  },
  "exec.ts": {
    values: [
      "ExecConfigFile",
      "SkillRunInput",
      "SkillRunOutput",
      "SkillRunOutputFile",
      "WorkspaceError",
      "createBubblewrapSandboxSession",
      "createExecutor",
      "createFsArtifactStore",
      "createSandboxSessionExecutor",
      "createWorkspace",
      "listScriptTools",
      "loadSkillEnvConfig",
      "resolveSkillEnv",
      "runScriptTool",
      "runSkillCommand",
    ],
    types: [
      "ArtifactStore",
      "BubblewrapSandboxSession",
      "BubblewrapSandboxSessionOptions",
      "CommandPolicy",
      "CreateExecutorOptions",
      "ExecRequest",
      "ExecResult",
      "Executor",
      "ExecutorChoice",
      "ExecutorKind",
      "LoadSkillEnvConfigOptions",
      "NotKeptFile",
      "RunEnvironment",
      "RunPolicy",
      "RunSettings",
      "RunSetup",
      "SandboxSessionExecutorOptions",
      "ScriptTool",
      "SkillEnvConfig",
      "SkillLookup",
      "SkillRunConfig",
      "SkillRunContext",
      "SkillRunRequest",
      "SkillRunResult",
      "Workspace",
      "WorkspaceFileLimits",
    ],
  },
  "store.ts": {
    values: [
      "NODE_SQLITE_MIN_VERSION",
      "SessionBusyError",
      "SqliteUnavailableError",
      "StoreConflictError",
      "createMemoryStore",
      "createPostgresStore",
      "createSqliteStore",
      "openSessionStore",
    ],
    types: [
      "ListOptions",
      "LockSessionOptions",
      "OpenSessionStoreOptions",
      "PostgresStoreOptions",
      "PutBlobs",
      "PutOptions",
      "SessionBlob",
      "SessionLock",
      "SessionStore",
      "SqliteStoreOptions",
      "StoredSession",
      "StoredSessionInfo",
    ],
  },
};

const MODULES: Record<string, Record<string, unknown>> = {
  "index.ts": skillrt,
  "catalog.ts": catalogEntry,
  "session.ts": sessionEntry,
  "exec.ts": execEntry,
  "store.ts": storeEntry,
};

const VALUES = ENTRIES["index.ts"]?.values ?? [];

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
  it.each(Object.keys(ENTRIES))("%s exports exactly the pinned values and types", (file) => {
    const pinned = ENTRIES[file] ?? { values: [], types: [] };
    const names = exportedNames(path.join(import.meta.dirname, file));
    expect(names.values).toEqual([...pinned.values].sort());
    expect(names.types).toEqual([...pinned.types].sort());
    expect(Object.keys(MODULES[file] ?? {}).sort()).toEqual([...pinned.values].sort());
  });

  it("the root entry exports at most 30 values", () => {
    expect(VALUES.length).toBeLessThanOrEqual(30);
  });

  it("no entry exposes the search index's format, history plumbing or CLI defaults", () => {
    const all = Object.values(ENTRIES).flatMap((e) => [...e.values, ...e.types]);
    for (const internal of [
      "SearchIndex",
      "SearchIndexData",
      "SearchWeights",
      "loadSearchIndex",
      "serializeSearchIndex",
      "HistoryShaper",
      "SessionOperations",
      "defaultStorePath",
    ])
      expect(all).not.toContain(internal);
  });

  it("leak no defaults, retry plumbing or internal history helpers", () => {
    const all = Object.values(ENTRIES).flatMap((e) => [...e.values, ...e.types]);
    expect(all.filter((n) => n.startsWith("DEFAULT_"))).toEqual([]);
    for (const internal of ["createRetryFetch", "parseRetryAfter", "isRetryableStatus", "historyTokens"])
      expect(all).not.toContain(internal);
  });

  it("include every error class a public function throws, each a SkillrtError", () => {
    const errors = [
      skillrt.BeneathError,
      skillrt.DelegationLimitError,
      skillrt.ProviderError,
      skillrt.SessionBusyError,
      skillrt.SkillNotFoundError,
      skillrt.SqliteUnavailableError,
      skillrt.StoreConflictError,
      skillrt.UnsavedTurnError,
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
