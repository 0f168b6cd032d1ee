/**
 * Connects to one configured MCP server with the MCP TypeScript SDK's client and lists its tools: a child
 * process over stdio, or Streamable HTTP with the SDK's SSE transport as the fallback. Failures to start
 * are results, not exceptions; a server that stops later is reported once through `onExit`.
 */
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolResult,
  ErrorCode,
  McpError,
  type Tool as McpTool,
  ResourceListChangedNotificationSchema,
  ToolSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { isStdioServer, type McpServerConfig } from "../../config/mcp-servers-config.js";
import { createRedactor } from "../../exec/redact.js";
import { SKILLRT_VERSION } from "../../util/version.js";
import type { ProgressUpdate } from "../tool-progress.js";
import { limitEventStreams } from "./limit-event-streams.js";
import { createMessageBucket, limitServerMessages } from "./limit-server-messages.js";
import { stripControls } from "./mcp-limits.js";
import { certificateHint, serverEnvironment } from "./server-environment.js";
import { substituteEnvRefs } from "./substitute-env-refs.js";

/** Default most ms to start a server and list its tools: long enough for a first `npx -y` to download. */
export const DEFAULT_START_TIMEOUT_MS = 60_000;
/** Most ms {@link McpConnection.close} waits for a Streamable HTTP server to answer its session's `DELETE`. */
export const SESSION_END_TIMEOUT_MS = 2_000;
/** Default most ms of one tool call. */
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;

/** Options of {@link connectMcpServer}. */
export interface ConnectMcpServerOptions {
  /** Variables for `${env:NAME}`. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Base of a relative `cwd`. Default `process.cwd()`. */
  baseDir?: string;
  /** Most ms to connect and list tools when the server's `startTimeoutMs` is unset. Default 60,000. */
  timeoutMs?: number;
  /** Called once when the server stops on its own (not after {@link McpConnection.close}). */
  onExit?: (message: string) => void;
  /** Called with what the server does wrong later (e.g. floods notifications), once per kind. */
  onWarning?: (message: string) => void;
  abortSignal?: AbortSignal;
}

/** A connected server. */
export interface McpConnection {
  name: string;
  /** `stdio`, `streamable-http` or `sse`. */
  transport: "stdio" | "streamable-http" | "sse";
  /** Its tools as it lists them (every page). */
  tools: McpTool[];
  /** Most ms of one call (`timeoutMs` of the server's config, default 120,000). */
  callTimeoutMs: number;
  /**
   * Calls a tool; throws when the server is gone or the call fails at the protocol level (an
   * {@link McpError} with `ErrorCode.RequestTimeout` past {@link callTimeoutMs}).
   */
  /** Calls a tool; the server's progress notifications during the call go to `onProgress`. */
  callTool(
    name: string,
    args: Record<string, unknown>,
    abortSignal?: AbortSignal,
    onProgress?: (update: ProgressUpdate) => void,
  ): Promise<CallToolResult>;
  /** The server's declared `capabilities.extensions` (e.g. SEP-2640's `io.modelcontextprotocol/skills`). */
  extensions: Readonly<Record<string, unknown>>;
  /**
   * Sends one request outside the SDK's typed methods (`skills/list`, `resources/read`, …) and returns its
   * result unparsed (the caller parses it); throws when the server is gone or answers with an error.
   */
  request(method: string, params: Record<string, unknown>, abortSignal?: AbortSignal): Promise<unknown>;
  /** True until the server stopped or was closed. */
  alive(): boolean;
  /** Calls `listener` on each `notifications/resources/list_changed` of the server. */
  onResourceListChanged(listener: () => void): void;
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

  const startTimeoutMs = config.startTimeoutMs ?? options.timeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  const callTimeoutMs = config.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  let stderrTail = "";
  let envNames: string[] = [];
  // One warning per server, whichever limit drops first.
  let warnedFlood = false;
  const onFirstDrop = (): void => {
    if (warnedFlood) return;
    warnedFlood = true;
    options.onWarning?.(
      `MCP server '${name}' sends more notifications than skillrt takes (50 a second after a burst of 200); the rest are dropped`,
    );
  };
  const attempt = async (transport: Transport): Promise<{ client: Client } | { error: unknown }> => {
    const client = new Client({ name: "skillrt", version: SKILLRT_VERSION });
    // What the server sends on its own is rate-limited before the SDK parses it further.
    limitServerMessages(transport, { onFirstDrop });
    try {
      await client.connect(transport, {
        timeout: startTimeoutMs,
        ...(options.abortSignal === undefined ? {} : { signal: options.abortSignal }),
      });
      return { client };
    } catch (error) {
      await client.close().catch(() => {});
      return { error };
    }
  };

  let connected:
    | { client: Client; kind: McpConnection["transport"]; http?: StreamableHTTPClientTransport }
    | undefined;
  let failure: unknown;
  if (isStdioServer(config)) {
    const serverEnv = serverEnvironment(env, resolve("env", config.env), config.inheritEnv);
    envNames = Object.keys(serverEnv).sort();
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: serverEnv,
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
    // Over HTTP the flood is cut in the event stream already, before the SDK's parser stream sees it.
    const fetch = limitEventStreams(createMessageBucket({ onFirstDrop }));
    if (config.type !== "sse") {
      const http = new StreamableHTTPClientTransport(url, { requestInit, fetch });
      const result = await attempt(http);
      if ("client" in result) connected = { client: result.client, kind: "streamable-http", http };
      else failure = result.error;
    }
    // The SDK's compatibility path: a server that does not speak Streamable HTTP may still speak SSE.
    if (connected === undefined) {
      const result = await attempt(new SSEClientTransport(url, { requestInit, fetch }));
      if ("client" in result) connected = { client: result.client, kind: "sse" };
      else if (config.type === "sse") failure = result.error;
    }
  }

  // Secrets are known now (both sections were resolved): a server that prints one, in its output or its
  // error messages, does not get it to the model or the terminal.
  const redactor = createRedactor(secrets);
  const redact = (text: string): string => redactor.redact(text);
  if (connected === undefined) {
    const message = startFailure(name, config, failure, stderrTail, startTimeoutMs, envNames);
    return { ok: false, message: redact(message), warnings };
  }

  const { client, kind, http } = connected;
  /** Ends the server's session (HTTP `DELETE`) then the client: the server frees it now, not when it expires. */
  const closeClient = async (): Promise<void> => {
    if (http !== undefined) await endSession(http);
    await client.close().catch(() => {});
  };
  let tools: McpTool[];
  try {
    const listed = await listAllTools(client, startTimeoutMs);
    tools = listed.tools;
    for (const { name: tool, problem } of listed.rejected)
      warnings.push(
        redact(
          `tool '${stripControls(tool).slice(0, 100)}' of MCP server '${name}' is left out: ${problem}; its other tools are offered`,
        ),
      );
  } catch (error) {
    await closeClient();
    return {
      ok: false,
      message: redact(`MCP server '${name}' started but listing its tools failed: ${messageOf(error)}`),
      warnings,
    };
  }

  // A server whose resources change says so; the skills source re-reads its listing then.
  const resourceListeners = new Set<() => void>();
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    for (const listener of resourceListeners) listener();
  });

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
      callTimeoutMs,
      extensions: client.getServerCapabilities()?.extensions ?? {},
      async request(method, params, abortSignal) {
        return client.request({ method, params }, AnyResult, {
          timeout: callTimeoutMs,
          ...(abortSignal === undefined ? {} : { signal: abortSignal }),
        });
      },
      alive: () => open,
      onResourceListChanged: (listener) => {
        resourceListeners.add(listener);
      },
      redact,
      async callTool(tool, args, abortSignal, onProgress) {
        const result = await client.callTool({ name: tool, arguments: args }, undefined, {
          timeout: callTimeoutMs,
          ...(abortSignal === undefined ? {} : { signal: abortSignal }),
          // Asking for progress sends a progress token; the server may then report during the call.
          ...(onProgress === undefined
            ? {}
            : {
                onprogress: ({ progress, total, message }) =>
                  onProgress({
                    progress,
                    ...(total === undefined ? {} : { total }),
                    ...(message === undefined ? {} : { message }),
                  }),
              }),
        });
        return result as CallToolResult;
      },
      async close() {
        closing = true;
        const wasOpen = open;
        open = false;
        if (wasOpen) await closeClient();
        else await client.close().catch(() => {});
      },
    },
  };
}

/**
 * Sends the session's `DELETE` (the SDK's `terminateSession`), waiting at most {@link SESSION_END_TIMEOUT_MS}:
 * a server that does not answer (or refuses, e.g. 405 when it keeps no sessions) still lets the client close,
 * and closing the transport then aborts the request.
 */
async function endSession(transport: StreamableHTTPClientTransport): Promise<void> {
  if (transport.sessionId === undefined) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    transport.terminateSession().catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SESSION_END_TIMEOUT_MS);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}

/** Any result: {@link McpConnection.request}'s caller parses it. */
const AnyResult = z.looseObject({});

/** A `tools/list` page read leniently: each tool is checked on its own, so one bad tool does not sink the list. */
const LenientToolList = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/** The SDK's client private that remembers tools' output schemas (to check structured results). */
interface ToolMetadataCache {
  cacheToolMetadata?: (tools: McpTool[]) => void;
}

async function listAllTools(
  client: Client,
  timeout: number,
): Promise<{ tools: McpTool[]; rejected: Array<{ name: string; problem: string }> }> {
  const tools: McpTool[] = [];
  const rejected: Array<{ name: string; problem: string }> = [];
  if (client.getServerCapabilities()?.tools === undefined) return { tools, rejected };
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await client.request(
      { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
      LenientToolList,
      { timeout },
    );
    for (const [index, raw] of result.tools.entries()) {
      const parsed = ToolSchema.safeParse(raw);
      if (parsed.success) {
        tools.push(parsed.data);
        continue;
      }
      const rawName = typeof raw === "object" && raw !== null && "name" in raw ? raw.name : undefined;
      const issue = parsed.error.issues[0];
      const where = issue === undefined || issue.path.length === 0 ? "" : `${issue.path.join(".")}: `;
      rejected.push({
        name: typeof rawName === "string" ? rawName : `#${index + 1}`,
        problem: `its definition is invalid (${where}${issue?.message ?? "not a tool"})`,
      });
    }
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  // What `client.listTools` would have remembered: output schemas, to check structured results.
  (client as unknown as ToolMetadataCache).cacheToolMetadata?.(tools);
  return { tools, rejected };
}

function startFailure(
  name: string,
  config: McpServerConfig,
  error: unknown,
  stderr: string,
  timeoutMs: number,
  envNames: string[],
): string {
  const what = isStdioServer(config)
    ? `'${[config.command, ...(config.args ?? [])].join(" ")}'`
    : withoutCredentials(config.url);
  const tail = lastLine(stderr);
  const why = isTimeout(error)
    ? `it did not answer within ${timeoutMs / 1000} s (raise mcpServers.${name}.startTimeoutMs if it is only slow, e.g. a first npx -y downloading)`
    : messageOf(error);
  const env = isStdioServer(config)
    ? `. It got the environment variables ${envNames.join(", ")}; pass more with "env" in mcpServers.${name} (values may be \${env:NAME}) or list host variables in "inheritEnv"${certificateHint(`${stderr}\n${messageOf(error)}`, envNames)}`
    : "";
  return `MCP server '${name}' (${what}) could not start: ${why}${tail === "" ? "" : `; its last output: ${tail}`}${env}`;
}

function isTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout;
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

/** A line that only points at a log file (npm's "A complete log of this run can be found in: …"). */
const LOG_POINTER = /complete log of this run|^\S*\.log$|\.log\s*$/i;

/**
 * The last line of a server's output that says something: a launcher's closing pointer to its log file is
 * passed over for the line before it (npm's "request to … failed, reason: …").
 */
function lastLine(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const telling = lines.filter((l) => !LOG_POINTER.test(l));
  const line = telling[telling.length - 1] ?? lines[lines.length - 1] ?? "";
  // Control characters (terminal escapes) of a server's output never reach the terminal.
  return stripControls(line).slice(0, 300);
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "command not found";
    return error.message;
  }
  return String(error ?? "unknown error");
}
