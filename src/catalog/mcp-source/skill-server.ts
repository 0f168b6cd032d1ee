/**
 * What the MCP skills source needs of a connected server: its label (the host's name for it, from
 * `mcpServers`), its declared extensions and a way to send requests. The engine hands it the tool source's
 * connections, so skills and tools share one connection per server.
 */

/** A connected MCP server, as the skills source uses it. */
export interface SkillServer {
  /** The host's label for the server (its `mcpServers` key): half of every served skill's identity. */
  label: string;
  /** The server's `capabilities.extensions`. */
  extensions: Readonly<Record<string, unknown>>;
  /** Sends a request and returns its result unparsed; throws on a protocol error or a stopped server. */
  request(method: string, params: Record<string, unknown>, abortSignal?: AbortSignal): Promise<unknown>;
  /** False once the server stopped. */
  alive(): boolean;
  /**
   * Calls `listener` on each `notifications/resources/list_changed` the server sends (its skills may have
   * changed). Absent: the listing is read once.
   */
  onListChanged?(listener: () => void): void;
  /** Most skills read from this server's listing (its `mcpServers` entry's `maxSkills`). Default: the source's. */
  maxSkills?: number;
}
