/**
 * The `mcpServers` section of `skillrt.config.json`, in the shape Claude Desktop, Cursor and Claude Code
 * already use:
 *
 * ```json
 * { "mcpServers": {
 *     "tracker": { "command": "node", "args": ["tracker.mjs"], "env": { "TOKEN": "${env:TRACKER_TOKEN}" } },
 *     "docs":    { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer ${env:DOCS_KEY}" } }
 * } }
 * ```
 *
 * `command` starts a stdio server; `url` connects over Streamable HTTP (falling back to the older SSE
 * transport when the server does not speak Streamable HTTP; `"type": "sse"` goes straight to SSE).
 * `${env:NAME}` in `env` and `headers` values is replaced by the host variable and never shown to the model.
 */
import { z } from "zod";

/** A server name: it becomes part of tool names (`mcp__<server>__<tool>`), so no `__` and no spaces. */
export const McpServerName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, "must be letters, digits, '-' or '_' (it becomes part of tool names)")
  .refine((name) => !name.includes("__"), "must not contain '__' (tool names are mcp__<server>__<tool>)");

const common = {
  /** Leave the server out without deleting its entry (Cline's flag). */
  disabled: z.boolean().optional(),
  /** Most ms a tool call may take; past it the call is cancelled and the model reads a tool error. Default 120,000. */
  timeoutMs: z.number().int().positive().optional(),
  /** Most ms to start (or reach) the server and list its tools. Default 60,000 (a first `npx -y` downloads). */
  startTimeoutMs: z.number().int().positive().optional(),
  /**
   * Most skills read from the server's `skills/list` (SEP-2640); past it the listing stops and the rest are
   * left out, with a warning naming the server. Default 10,000.
   */
  maxSkills: z.number().int().positive().optional(),
};

/** A server started as a child process speaking MCP over stdin/stdout. */
export const McpStdioServerConfig = z
  .object({
    type: z.literal("stdio").optional(),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    /**
     * Added to the inherited environment (the MCP SDK's minimal set — HOME, PATH, USER, SHELL, TERM, LOGNAME —
     * plus what a Node or Python launcher needs to reach a registry: proxies, CA files, npm's registry
     * settings); values may use `${env:NAME}`.
     */
    env: z.record(z.string(), z.string()).optional(),
    /**
     * `false`: inherit only the SDK's minimal set (no proxy, CA or npm settings); a list: also pass these
     * host variables by name. Default: the minimal set plus the launcher's variables.
     */
    inheritEnv: z.union([z.literal(false), z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/))]).optional(),
    /** Working directory (relative: from the config file's directory). Default: the current directory. */
    cwd: z.string().min(1).optional(),
    ...common,
  })
  .strict();
/** A server started as a child process speaking MCP over stdin/stdout. */
export type McpStdioServerConfig = z.infer<typeof McpStdioServerConfig>;

/** A server reached over HTTP: Streamable HTTP, with SSE as the fallback (or the choice, with `type: sse`). */
export const McpHttpServerConfig = z
  .object({
    type: z.enum(["http", "streamable-http", "sse"]).optional(),
    url: z.string().url(),
    /** Sent with every request; values may use `${env:NAME}`. */
    headers: z.record(z.string(), z.string()).optional(),
    ...common,
  })
  .strict();
/** A server reached over HTTP. */
export type McpHttpServerConfig = z.infer<typeof McpHttpServerConfig>;

/** One entry of `mcpServers`. */
export const McpServerConfig = z.union([McpStdioServerConfig, McpHttpServerConfig], {
  error: () => 'needs "command" (a stdio server) or "url" (an HTTP server)',
});
/** One entry of `mcpServers`. */
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/** The `mcpServers` section: server name → how to reach it. */
export const McpServersConfig = z.record(McpServerName, McpServerConfig);
/** The `mcpServers` section. */
export type McpServersConfig = z.infer<typeof McpServersConfig>;

/** True for a stdio entry. */
export function isStdioServer(config: McpServerConfig): config is McpStdioServerConfig {
  return "command" in config;
}
