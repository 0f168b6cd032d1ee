/**
 * The skills the config's `mcpServers` serve (SEP-2640), for commands that read the catalog without an
 * agent (`list`, `search`, `prompt`): the HTTP servers are asked for their `skills/list` (no file fetched)
 * and the catalog shown with them; `close()` disconnects. A listing command never starts a process, so
 * servers started by a `command` are left out (said once); their skills appear in `ask` and `chat`.
 */
import type { Catalog } from "../catalog/types.js";
import type { McpServersConfig } from "../config/mcp-servers-config.js";
import type { CliIo } from "./command.js";
import { loadCliConfig } from "./load-cli-config.js";

/** `catalog` plus the configured servers' skills; warnings go to stderr. */
export async function openMcpSkills(
  catalog: Catalog,
  io: CliIo,
): Promise<{ catalog: Catalog; close(): Promise<void> }> {
  const warn = (message: string) => io.stderr.write(`skillrt: ${message}\n`);
  const config = await loadCliConfig({ cwd: io.cwd, env: io.env, warn });
  const servers: McpServersConfig = {};
  const commands: string[] = [];
  for (const [name, entry] of Object.entries(config.file.mcpServers ?? {})) {
    if (entry.disabled === true) continue;
    if ("command" in entry) commands.push(name);
    else servers[name] = entry;
  }
  if (commands.length > 0)
    warn(
      `MCP server${commands.length === 1 ? "" : "s"} ${commands.join(", ")} ${commands.length === 1 ? "is" : "are"} ` +
        "started by a command, which listing commands never do; their skills show in ask and chat.",
    );
  if (Object.keys(servers).length === 0) return { catalog, close: async () => undefined };
  // Loaded only with servers to start: a plain `list` imports no MCP or schema code.
  const [{ openToolSources }, { withMcpSkills }] = await Promise.all([
    import("../engine/open-tool-sources.js"),
    import("../catalog/mcp-source/with-mcp-skills.js"),
  ]);
  const sources = openToolSources(
    { onWarning: warn },
    {
      env: io.env,
      cwd: io.cwd,
      config: { ...config.file, mcpServers: servers },
      onSourceError: (error) => warn(`${error.source}: ${error.message}`),
    },
  );
  try {
    await sources.start();
  } catch (error) {
    await sources.close();
    throw error;
  }
  return { catalog: withMcpSkills(catalog, sources.skills), close: () => sources.close() };
}
