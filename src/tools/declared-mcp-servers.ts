/**
 * AWorld's rule for which MCP servers an agent connects to (`aworld/core/agent/base.py`,
 * `replace_mcp_servers_variables` in `aworld/mcp_client/utils.py`): when the agent has skills, its servers are
 * the ones their `tool_list` names, over the definitions of the agent's MCP config; when no skill names a
 * server, every configured one. The `aworld` profile starts MCP servers by this rule.
 */
import type { SkillRecord } from "../catalog/types.js";
import type { McpStartOptions } from "./mcp-client/create-mcp-tool-source.js";
import { parseToolList } from "./parse-tool-list.js";

/** What {@link declaredMcpServers} decides. */
export interface DeclaredMcpServers {
  /** The servers to start; undefined: every configured one (no skill names a server). */
  only?: NonNullable<McpStartOptions["only"]>;
  /** Servers a skill names that are not configured: `skill → server`, one message each. */
  missing: string[];
}

/** The servers the skills of `records` declare in `tool_list`, against the `configured` server names. */
export function declaredMcpServers(
  records: readonly Pick<SkillRecord, "name" | "extras">[],
  configured: readonly string[],
): DeclaredMcpServers {
  const names = new Set<string>();
  const missing: string[] = [];
  const known = new Set(configured);
  for (const record of records) {
    for (const server of parseToolList(record.extras["tool_list"]).keys()) {
      names.add(server);
      if (!known.has(server))
        missing.push(
          `skill '${record.name}' names MCP server '${server}' in its tool_list, but mcpServers has no '${server}'; add it to the config to give the skill its tools`,
        );
    }
  }
  if (names.size === 0) return { missing };
  return {
    only: {
      names,
      notStarted:
        "not started: no skill's tool_list names it (the aworld profile starts the MCP servers its skills declare, as AWorld does)",
    },
    missing,
  };
}
