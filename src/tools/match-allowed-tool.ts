/**
 * `allowed-tools` entries (Claude Code's syntax) matched against host tools: `Read`, `Bash(git:*)`,
 * `mcp__server__tool`, `mcp__server` (every tool of a server) and `*` wildcards in the name part.
 */
import type { RegisteredTool } from "./tool-registry.js";

/** One parsed `allowed-tools` entry. */
export interface AllowedToolEntry {
  /** The entry as written. */
  raw: string;
  /** The tool part, before any `(`. */
  tool: string;
  /** The argument pattern inside `(…)`, e.g. `git:*`; undefined for a bare tool name. */
  pattern?: string;
}

/** Parses an entry; undefined for an empty one. */
export function parseAllowedTool(raw: string): AllowedToolEntry | undefined {
  const text = raw.trim();
  if (text === "") return undefined;
  const open = text.indexOf("(");
  if (open <= 0) return { raw: text, tool: text };
  const tool = text.slice(0, open).trim();
  const close = text.lastIndexOf(")");
  const pattern = text.slice(open + 1, close > open ? close : undefined).trim();
  return pattern === "" ? { raw: text, tool } : { raw: text, tool, pattern };
}

/** The tool's name as its server knows it: the registered name without a `mcp__<server>__` or `<server>__` prefix. */
export function serverToolName(tool: RegisteredTool): string {
  if (tool.server === undefined) return tool.name;
  for (const prefix of [`mcp__${tool.server}__`, `${tool.server}__`]) {
    if (tool.name.startsWith(prefix) && tool.name.length > prefix.length)
      return tool.name.slice(prefix.length);
  }
  return tool.name;
}

/** True when the entry's tool part names this host tool. */
export function matchesAllowedTool(entry: AllowedToolEntry, tool: RegisteredTool): boolean {
  const names = [tool.name];
  if (tool.server !== undefined) {
    names.push(`mcp__${tool.server}__${serverToolName(tool)}`);
    if (entry.tool === `mcp__${tool.server}`) return true;
  }
  if (!entry.tool.includes("*")) return names.includes(entry.tool);
  const source = entry.tool
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  const re = new RegExp(`^${source}$`);
  return names.some((name) => re.test(name));
}
