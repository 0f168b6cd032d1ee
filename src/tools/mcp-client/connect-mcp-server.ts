/**
 * Connects to one configured MCP server with the MCP TypeScript SDK's client and lists its tools: a child
 * process over stdio, or Streamable HTTP with the SDK's SSE transport as the fallback. Failures to start
 * are results, not exceptions; a server that stops later is reported once through `onExit`.
 */
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { isStdioServer, type McpServerConfig } from "../../config/mcp-servers-config.js";
import { createRedactor } from "../../exec/redact.js";
import { SKILLRT_VERSION } from "../../util/version.js";
import { stripControls } from "./mcp-limits.js";
import { substituteEnvRefs } from "./substitute-env-refs.js";

/** Options of {@link connectMcpServer}. */
export interface ConnectMcpServerOptions {
  /** Variables for `${env:NAME}`. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Base of a relative `cwd`. Default `process.cwd()`. */
  baseDir?: string;
  /** Most milliseconds to connect and list tools. Default 30,000. */
  timeoutMs?: number;
  /** Called once when the server stops on its own (not after {@link McpConnection.close}). */
  onExit?: (message: string) => void;
  abortSignal?: AbortSignal;
}

/** A connected server. */
export interface McpConnection {
  name: string;
  /** `stdio`, `streamable-http` or `sse`. */
  transport: "stdio" | "streamable-http" | "sse";
  /** Its tools as it lists them (every page). */
  tools: McpTool[];
  /** Calls a tool; throws when the server is gone or the call fails at the protocol level. */
  callTool(name: string, args: Record<string, unknown>, abortSignal?: AbortSignal): Promise<CallToolResult>;
  /** True until the server stopped or was closed. */
  alive(): boolean;
  /** Removes the values of `${env:NAME}` references (in `env` and `headers`) from text the model or user sees. */
  redact(text: string): string;
  close(): Promise<void>;
}

/** What {@link connectMcpServer} returns. */
export type ConnectMcpServerResult =
  | { ok: true; connection: McpConnection; warnings: string[] }
  | { ok: false; message: string; warnings: string[] };

const STDERR_TAIL = 2_000;

/** Connects to `name`; see the file comment. Never throws for a server that cannot start. */
export async function connectMcpServer(
  name: string,
  config: McpServerConfig,
  options: ConnectMcpServerOptions = {},
): Promise<ConnectMcpServerResult> {
  const env = options.env ?? process.env;
  const warnings: string[] = [];
  const secrets: string[] = [];
  const resolve = (section: string, raw: Record<string, string> | undefined): Record<string, string> => {
    const { values, missing, secrets: used } = substituteEnvRefs(raw ?? {}, env);
    secrets.push(...used);
    for (const [key, variable] of Object.entries(missing))
      warnings.push(
        `mcpServers.${name}.${section}.${key} uses \${env:${variable}}, which is not set; left out`,
      );
    return values;
  };

  let stderrTail = "";
  const attempt = async (transport: Transport): Promise<{ client: Client } | { error: unknown }> => {
    const client = new Client({ name: "skillrt", version: SKILLRT_VERSION });
    try {
      await client.connect(transport, {
        timeout: options.timeoutMs ?? 30_000,
        ...(options.abortSignal === undefined ? {} : { signal: options.abortSignal }),
      });
      return { client };
    } catch (error) {
      await client.close().catch(() => {});
      return { error };
    }
  };

  let connected: { client: Client; kind: McpConnection["transport"] } | undefined;
  let failure: unknown;
  if (isStdioServer(config)) {
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: { ...getDefaultEnvironment(), ...resolve("env", config.env) },
      stderr: "pipe",
      ...(config.cwd === undefined
        ? {}
        : { cwd: path.resolve(options.baseDir ?? process.cwd(), config.cwd) }),
    });
    // The server's stderr is kept (its tail explains a failed start or a crash), never printed.
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL);
    });
    const result = await attempt(transport);
    if ("client" in result) connected = { client: result.client, kind: "stdio" };
    else failure = result.error;
  } else {
    const url = new URL(config.url);
    const requestInit = { headers: resolve("headers", config.headers) };
    if (config.type !== "sse") {
      const result = await attempt(new StreamableHTTPClientTransport(url, { requestInit }));
      if ("client" in result) connected = { client: result.client, kind: "streamable-http" };
      else failure = result.error;
    }
    // The SDK's compatibility path: a server that does not speak Streamable HTTP may still speak SSE.
    if (connected === undefined) {
      const result = await attempt(new SSEClientTransport(url, { requestInit }));
      if ("client" in result) connected = { client: result.client, kind: "sse" };
      else if (config.type === "sse") failure = result.error;
    }
  }

  // Secrets are known now (both sections were resolved): a server that prints one, in its output or its
  // error messages, does not get it to the model or the terminal.
  const redactor = createRedactor(secrets);
  const redact = (text: string): string => redactor.redact(text);
  if (connected === undefined) {
    return { ok: false, message: redact(startFailure(name, config, failure, stderrTail)), warnings };
  }

  const { client, kind } = connected;
  let tools: McpTool[];
  try {
    tools = await listAllTools(client, options.timeoutMs ?? 30_000);
  } catch (error) {
    await client.close().catch(() => {});
    return {
      ok: false,
      message: redact(`MCP server '${name}' started but listing its tools failed: ${messageOf(error)}`),
      warnings,
    };
  }

  let open = true;
  let closing = false;
  client.onclose = () => {
    if (!open) return;
    open = false;
    if (closing) return;
    const tail = lastLine(stderrTail);
    options.onExit?.(
      redact(`MCP server '${name}' stopped${tail === "" ? "" : ` (${tail})`}; its tools are withdrawn.`),
    );
  };

  return {
    ok: true,
    warnings,
    connection: {
      name,
      transport: kind,
      tools,
      alive: () => open,
      redact,
      async callTool(tool, args, abortSignal) {
        const result = await client.callTool({ name: tool, arguments: args }, undefined, {
          timeout: 300_000,
          ...(abortSignal === undefined ? {} : { signal: abortSignal }),
        });
        return result as CallToolResult;
      },
      async close() {
        closing = true;
        open = false;
        await client.close().catch(() => {});
      },
    },
  };
}

async function listAllTools(client: Client, timeout: number): Promise<McpTool[]> {
  if (client.getServerCapabilities()?.tools === undefined) return [];
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}

function startFailure(name: string, config: McpServerConfig, error: unknown, stderr: string): string {
  const what = isStdioServer(config)
    ? `'${[config.command, ...(config.args ?? [])].join(" ")}'`
    : withoutCredentials(config.url);
  const tail = lastLine(stderr);
  return `MCP server '${name}' (${what}) could not start: ${messageOf(error)}${tail === "" ? "" : `; its last output: ${tail}`}`;
}

/** The URL without user info and query (either may carry a credential). */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "(invalid url)";
  }
}

function lastLine(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  // Control characters (terminal escapes) of a server's output never reach the terminal.
  return stripControls(lines[lines.length - 1] ?? "").slice(0, 300);
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "command not found";
    return error.message;
  }
  return String(error ?? "unknown error");
}
