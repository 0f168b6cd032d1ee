/**
 * What an MCP server may put in front of the model. A configured server is not trusted: it may answer with
 * megabytes, describe its tools at length, list thousands of them, or send a schema no provider accepts.
 */

/** Limits applied to every server; each can be overridden per tool source. */
export interface McpLimits {
  /** Characters of a tool result's text the model reads; the rest is cut, with a note saying so. Default 50,000. */
  resultChars: number;
  /** Characters of a tool's description (Claude Code's cap). Default 2,048. */
  descriptionChars: number;
  /** Bytes of a tool's input JSON Schema; a tool with a bigger one is left out (a warning). Default 64 KiB. */
  schemaBytes: number;
  /** Tools registered per server; the rest are left out (a warning). Default 256. */
  toolsPerServer: number;
}

/** The defaults of {@link McpLimits}. */
export const DEFAULT_MCP_LIMITS: McpLimits = {
  resultChars: 50_000,
  descriptionChars: 2_048,
  schemaBytes: 64 * 1024,
  toolsPerServer: 256,
};

export { stripControls } from "../../util/terminal-text.js";

/**
 * `text` cut to `max` characters (not inside a surrogate pair), with a note when it was cut. `total`: the
 * length of the original when `text` is already a prefix of it.
 */
export function capText(text: string, max: number, what = "output", total = text.length): string {
  if (total <= max) return text;
  let end = Math.min(max, text.length);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}\n[${what} cut: the first ${end.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} characters are shown]`;
}
