/** What trust of an MCP server is bound to (kept apart from the schema so that reading it loads no zod). */
import { createHash } from "node:crypto";
import type { McpServerConfig } from "./mcp-servers-config.js";

/**
 * `sha256:<hex>` of a server's entry (keys sorted): trust of the server lapses when its entry starts
 * another program, passes other arguments or points at another URL.
 */
export function mcpServerDigest(config: McpServerConfig): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : typeof value === "object" && value !== null
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([k, v]) => [k, sorted(v)]),
          )
        : value;
  return `sha256:${createHash("sha256")
    .update(JSON.stringify(sorted(config)))
    .digest("hex")}`;
}
