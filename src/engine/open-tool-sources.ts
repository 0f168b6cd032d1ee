/**
 * The host's tool sources, set up the same way for the `SkillAgent` and the AI SDK toolkit: the registry of
 * tools registered in code, the configured MCP servers (their tools registered in it while they run), the
 * server-tool gating and the approvals. The sources live as long as the agent or toolkit, across
 * conversations; failures are reported once to each `onError` listener (and `onSourceError`). The handle is
 * what a host keeps: several agents may share it, and it answers for the MCP servers' states.
 */
import { createMcpSkillSource, type McpSkillSource } from "../catalog/mcp-source/mcp-skill-source.js";
import type { McpServersConfig } from "../config/mcp-servers-config.js";
import type { ToolsConfig } from "../config/tools-config.js";
import type { ToolGating } from "../tools/compute-active-tools.js";
import {
  createMcpToolSource,
  type McpServerStatus,
  type McpStartOptions,
  type McpToolSource,
} from "../tools/mcp-client/create-mcp-tool-source.js";
import type { ToolApprovalOptions } from "../tools/tool-approval.js";
import type { ToolProgressListener } from "../tools/tool-progress.js";
import { createToolRegistry, type ToolRegistry } from "../tools/tool-registry.js";

/** Host tools, MCP servers, gating and approvals. */
export interface ToolSourceOptions {
  /**
   * Host tools in groups or per server, gated by the active skills and behind approvals (register plain AI
   * SDK tools; bind a group to a skill with `registerGroup`). MCP server tools are added to it while their
   * server runs. Default: a new registry.
   */
  toolRegistry?: ToolRegistry;
  /**
   * MCP servers (Claude Desktop's `mcpServers` shape). They start when the agent or toolkit is created
   * (the model is offered their tools from its first request) and stop with its `close()`; a server that
   * cannot start or stops later is reported once (a `tool-source-error` event) and the conversation goes on
   * without its tools. Default: the config's `mcpServers` (agent), else none.
   */
  mcpServers?: McpServersConfig;
  /**
   * Server-tool gating: `open` (every server tool offered), `skill` (only while an active skill grants it
   * through `allowed-tools`, `tool_list` or a bound group) or `tool-list` (AWorld's filter). Default: the
   * config's `tools.gating`, else the profile's (`tool-list` for aworld, `skill` for agentscope, `open`
   * otherwise).
   */
  toolGating?: ToolGating;
  /**
   * Approvals of registry and MCP tool calls. `mode` and `allow` default to the config's `tools.approval`
   * (`unlisted`) and `tools.allow`. Without `onApproval`, calls that need approval are refused (the model is
   * told so). A tool named by an active skill's `allowed-tools` is pre-approved.
   */
  approval?: ToolApprovalOptions;
  /** Receives warnings about tool sources (e.g. an unset `${env:X}` in an MCP server entry). */
  onWarning?: (message: string) => void;
}

/** The opened sources. */
export interface ToolSources {
  registry: ToolRegistry;
  /** Undefined: the profile's default. */
  gating: ToolGating | undefined;
  approval: ToolApprovalOptions;
  /**
   * Starts the MCP servers (all in parallel); resolves when each runs or has failed. Starts once: later
   * calls return the first call's promise.
   */
  start(options?: McpStartOptions): Promise<void>;
  /**
   * Skills served by the MCP servers that declare SEP-2640's extension, listed over the tools' connection
   * when each server starts (no file fetched); `withMcpSkills(catalog, sources.skills)` shows them.
   */
  skills: McpSkillSource;
  /** The configured MCP servers and their state (`running`, `failed`, `stopped`, `disabled`). */
  servers(): McpServerStatus[];
  /**
   * Receives the progress MCP servers report during tool calls (throttled per call); returns the
   * unsubscribe. Several agents sharing the sources each hear every call's progress.
   */
  onProgress(listener: ToolProgressListener): () => void;
  /** Receives each source failure (a server that cannot start or stops later); returns the unsubscribe. */
  onError(listener: (error: ToolSourceError) => void): () => void;
  /** Stops the MCP servers. */
  close(): Promise<void>;
}

/** A source failure, reported once. */
export interface ToolSourceError {
  source: string;
  message: string;
}

/** Opens the tool sources of `options` (nothing starts before `start()`). */
export function openToolSources(
  options: ToolSourceOptions,
  context: {
    /** Variables for `${env:NAME}` in the servers' `env` and `headers`. */
    env: Readonly<Record<string, string | undefined>>;
    /** Base of relative server `cwd` values. Default: the process's. */
    cwd?: string;
    /** The config file's sections, when read. */
    config?: { mcpServers?: McpServersConfig | undefined; tools?: ToolsConfig | undefined };
    /** Receives each failure (besides the `onError` listeners). */
    onSourceError?: (error: ToolSourceError) => void;
    /** Directory of the verified MCP skill files' cache (trusted-cache rules). Default: none. */
    cacheDir?: string;
    /** Most skills kept per MCP server, unless its entry sets `maxSkills`. Default 10,000. */
    maxMcpSkills?: number;
  },
): ToolSources {
  const listeners = new Set<(error: ToolSourceError) => void>();
  const report = (error: ToolSourceError): void => {
    context.onSourceError?.(error);
    for (const listener of listeners) listener(error);
  };
  const progressListeners = new Set<ToolProgressListener>();
  let started: Promise<void> | undefined;
  const registry = options.toolRegistry ?? createToolRegistry();
  const skills = createMcpSkillSource({
    ...(context.cacheDir === undefined ? {} : { cacheDir: context.cacheDir }),
    ...(context.maxMcpSkills === undefined ? {} : { maxSkills: context.maxMcpSkills }),
    ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
  });
  const servers = options.mcpServers ?? context.config?.mcpServers ?? {};
  const mcp: McpToolSource = createMcpToolSource({
    servers,
    registry,
    env: context.env,
    ...(context.cwd === undefined ? {} : { baseDir: context.cwd }),
    onEvent: (event) => {
      if (event.type === "mcp-server-error")
        report({ source: `mcp:${event.server}`, message: event.message });
      else if (event.type === "mcp-server-warning") options.onWarning?.(event.message);
    },
    onProgress: (progress) => {
      for (const listener of progressListeners) listener(progress);
    },
    // One connection per server: its skills are listed over the connection its tools use.
    onConnect: (name, connection, abortSignal) =>
      skills.connect(
        {
          label: name,
          extensions: connection.extensions,
          request: connection.request,
          alive: connection.alive,
          onListChanged: connection.onResourceListChanged,
          ...(servers[name]?.maxSkills === undefined ? {} : { maxSkills: servers[name].maxSkills }),
        },
        abortSignal,
      ),
    onDisconnect: (name) => skills.disconnect(name),
  });
  const tools = context.config?.tools;
  const mode = options.approval?.mode ?? tools?.approval;
  const allow = options.approval?.allow ?? tools?.allow;
  return {
    registry,
    gating: options.toolGating ?? tools?.gating,
    approval: {
      ...options.approval,
      ...(mode === undefined ? {} : { mode }),
      ...(allow === undefined ? {} : { allow }),
    },
    start: (startOptions) => {
      started ??= mcp.start(startOptions);
      return started;
    },
    skills,
    servers: () => mcp.servers(),
    onProgress(listener) {
      progressListeners.add(listener);
      return () => {
        progressListeners.delete(listener);
      };
    },
    onError(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    close: () => mcp.close(),
  };
}
