/**
 * Configured MCP servers as a tool source: every enabled server is started when the agent starts
 * ({@link McpToolSource.start}, all in parallel: the model must be offered the servers' tools from its
 * first request, and gating needs their names), its tools registered in a {@link ToolRegistry} under the
 * server's name, and every server closed with the agent ({@link McpToolSource.close}). A server that cannot
 * start, or stops later, is reported once (an {@link McpSourceEvent}) and its tools are withdrawn; the
 * conversation goes on without them.
 */

import type { McpServersConfig } from "../../config/mcp-servers-config.js";
import type { ToolProgressListener } from "../tool-progress.js";
import type { ToolRegistry } from "../tool-registry.js";
import type { ConnectMcpServerOptions, McpConnection } from "./connect-mcp-server.js";
import { DEFAULT_MCP_LIMITS, type McpLimits, stripControls } from "./mcp-limits.js";

/** What the source reports. The CLI prints each once; the engine turns them into events. */
export type McpSourceEvent =
  | { type: "mcp-server-start"; server: string; transport: McpConnection["transport"]; tools: string[] }
  /** The server could not start (`phase: start`) or stopped later (`phase: exit`). Reported once per server. */
  | { type: "mcp-server-error"; server: string; phase: "start" | "exit"; message: string }
  /** E.g. a `${env:X}` whose variable is unset, or a tool name that clashes. */
  | { type: "mcp-server-warning"; server: string; message: string };

/** One server's state, for `/context` and status lines. */
export interface McpServerStatus {
  name: string;
  state: "starting" | "running" | "failed" | "stopped" | "disabled";
  transport?: McpConnection["transport"];
  /** Registered tool names (`mcp__<server>__<tool>`), while running. */
  tools: string[];
  /** Why it failed or stopped. */
  message?: string;
}

/** Options of {@link createMcpToolSource}. */
export interface McpToolSourceOptions {
  servers: McpServersConfig;
  /** Where server tools are registered (with `server` set, so gating knows them). */
  registry: ToolRegistry;
  /** Variables for `${env:NAME}` in `env` and `headers`. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Base of relative `cwd` values (the config file's directory). Default `process.cwd()`. */
  baseDir?: string;
  /** Most ms per server to start and list its tools, when its `startTimeoutMs` is unset. Default 60,000. */
  timeoutMs?: number;
  /** What a server may put in front of the model (result size, descriptions, schemas, tool count). */
  limits?: Partial<McpLimits>;
  onEvent?: (event: McpSourceEvent) => void;
  /** Receives the servers' progress notifications during tool calls (throttled per call). */
  onProgress?: ToolProgressListener;
  /**
   * Called with each server once it runs, before {@link McpToolSource.start} resolves (the skills of a
   * server declaring SEP-2640's extension join the catalog here, over the same connection). A rejection
   * is reported as a warning; the server's tools stay.
   */
  onConnect?: (name: string, connection: McpConnection, abortSignal?: AbortSignal) => Promise<void>;
  /** Called when a running server stops on its own or is closed. */
  onDisconnect?: (name: string) => void;
}

/** Options of {@link McpToolSource.start}. */
export interface McpStartOptions {
  abortSignal?: AbortSignal;
  /**
   * Start only these servers (AWorld starts the servers its skills' `tool_list` names); the others are
   * `disabled` with `notStarted` as their message. Default: every enabled server.
   */
  only?: { names: ReadonlySet<string>; notStarted: string };
}

/** Configured MCP servers as tools. */
export interface McpToolSource {
  /** Starts every enabled server in parallel; resolves when each is running or has failed. Idempotent. */
  start(options?: McpStartOptions): Promise<void>;
  servers(): McpServerStatus[];
  /** Closes every server and withdraws its tools. Idempotent. */
  close(): Promise<void>;
}

/** Creates the source; nothing starts before {@link McpToolSource.start}. */
export function createMcpToolSource(options: McpToolSourceOptions): McpToolSource {
  // Messages may quote the server (its output, its protocol errors): no terminal escapes reach a screen.
  const emit = (event: McpSourceEvent): void =>
    options.onEvent?.(
      event.type === "mcp-server-start" ? event : { ...event, message: stripControls(event.message) },
    );
  const limits: McpLimits = { ...DEFAULT_MCP_LIMITS, ...options.limits };
  const status = new Map<string, McpServerStatus>();
  const connections = new Map<string, McpConnection>();
  let started: Promise<void> | undefined;
  let closed = false;

  for (const [name, config] of Object.entries(options.servers)) {
    status.set(name, { name, state: config.disabled === true ? "disabled" : "starting", tools: [] });
  }

  const withdraw = (name: string): void => {
    const entry = status.get(name);
    for (const tool of entry?.tools ?? []) options.registry.unregister(tool);
    if (entry !== undefined) entry.tools = [];
  };

  const startOne = async (name: string, abortSignal: AbortSignal | undefined): Promise<void> => {
    const config = options.servers[name];
    const entry = status.get(name);
    if (config === undefined || entry === undefined || entry.state === "disabled") return;
    const connectOptions: ConnectMcpServerOptions = {
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.baseDir === undefined ? {} : { baseDir: options.baseDir }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(abortSignal === undefined ? {} : { abortSignal }),
      onWarning: (message) => emit({ type: "mcp-server-warning", server: name, message }),
      onExit: (message) => {
        entry.state = "stopped";
        entry.message = message;
        withdraw(name);
        connections.delete(name);
        options.onDisconnect?.(name);
        emit({ type: "mcp-server-error", server: name, phase: "exit", message });
      },
    };
    // The MCP SDK (client, transports, Ajv) loads with the first server, not with `skillrt`.
    const [{ connectMcpServer }, { mcpTool, mcpToolName }] = await Promise.all([
      import("./connect-mcp-server.js"),
      import("./mcp-tool.js"),
    ]);
    const result = await connectMcpServer(name, config, connectOptions);
    for (const message of result.warnings) emit({ type: "mcp-server-warning", server: name, message });
    if (!result.ok) {
      entry.state = "failed";
      entry.message = result.message;
      emit({ type: "mcp-server-error", server: name, phase: "start", message: result.message });
      return;
    }
    const { connection } = result;
    if (closed) {
      await connection.close();
      return;
    }
    connections.set(name, connection);
    entry.state = "running";
    entry.transport = connection.transport;
    if (connection.tools.length > limits.toolsPerServer)
      emit({
        type: "mcp-server-warning",
        server: name,
        message: `MCP server '${name}' lists ${connection.tools.length} tools; only the first ${limits.toolsPerServer} are offered`,
      });
    for (const def of connection.tools.slice(0, limits.toolsPerServer)) {
      const toolName = mcpToolName(name, def.name);
      const schemaBytes = Buffer.byteLength(JSON.stringify(def.inputSchema ?? {}), "utf8");
      if (schemaBytes > limits.schemaBytes) {
        emit({
          type: "mcp-server-warning",
          server: name,
          message: `tool ${toolName} of MCP server '${name}' is left out: its input schema has ${schemaBytes} bytes (most ${limits.schemaBytes})`,
        });
        continue;
      }
      if (options.registry.get(toolName) !== undefined) {
        emit({
          type: "mcp-server-warning",
          server: name,
          message: `a tool of MCP server '${name}' is left out: its name becomes ${toolName}, which is taken`,
        });
        continue;
      }
      options.registry.register(toolName, mcpTool(connection, def, limits, options.onProgress), {
        server: name,
      });
      entry.tools.push(toolName);
    }
    if (options.onConnect !== undefined) {
      try {
        await options.onConnect(name, connection, abortSignal);
      } catch (error) {
        emit({
          type: "mcp-server-warning",
          server: name,
          message: connection.redact(
            `MCP server '${name}': ${error instanceof Error ? error.message : String(error)}`,
          ),
        });
      }
    }
    emit({
      type: "mcp-server-start",
      server: name,
      transport: connection.transport,
      tools: [...entry.tools],
    });
  };

  return {
    start(startOptions = {}) {
      if (started === undefined && startOptions.only !== undefined) {
        for (const entry of status.values()) {
          if (entry.state !== "disabled" && !startOptions.only.names.has(entry.name)) {
            entry.state = "disabled";
            entry.message = startOptions.only.notStarted;
          }
        }
      }
      started ??= Promise.all(
        [...status.keys()].map((name) => startOne(name, startOptions.abortSignal)),
      ).then(() => undefined);
      return started;
    },
    servers: () => [...status.values()].map((s) => ({ ...s, tools: [...s.tools] })),
    async close() {
      closed = true;
      await started?.catch(() => {});
      const open = [...connections.entries()];
      connections.clear();
      await Promise.all(
        open.map(async ([name, connection]) => {
          withdraw(name);
          options.onDisconnect?.(name);
          const entry = status.get(name);
          if (entry !== undefined && entry.state === "running") entry.state = "stopped";
          await connection.close();
        }),
      );
    },
  };
}
