/**
 * The skills the config's `mcpServers` serve (SEP-2640), for commands that read the catalog without an
 * agent (`list`): the servers are started, their `skills/list` read (no file fetched), and the catalog
 * shown with them; `close()` stops the servers. Without `mcpServers` nothing starts.
 */
import type { Catalog } from "../catalog/types.js";
import type { CliIo } from "./command.js";
import { loadCliConfig } from "./load-cli-config.js";

/** `catalog` plus the configured servers' skills; warnings go to stderr. */
export async function openMcpSkills(
  catalog: Catalog,
  io: CliIo,
): Promise<{ catalog: Catalog; close(): Promise<void> }> {
  const warn = (message: string) => io.stderr.write(`skillrt: ${message}\n`);
  const config = await loadCliConfig({ cwd: io.cwd, env: io.env, warn });
  const servers = config.file.mcpServers ?? {};
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
      config: config.file,
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
