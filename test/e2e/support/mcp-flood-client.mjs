#!/usr/bin/env node
/**
 * Test helper run as its own process: skillrt's MCP client (the built dist/) connects to the server that
 * argv[2] describes as JSON (an `mcpServers` entry), calls its `flood` tool, and prints one JSON line:
 * the result's text, the warnings, and this process's peak RSS (resourceUsage().maxRSS, KiB).
 */
import path from "node:path";

const repo = path.resolve(import.meta.dirname, "../../..");
const { connectMcpServer } = await import(path.join(repo, "dist/tools/mcp-client/connect-mcp-server.js"));
const warnings = [];
const connected = await connectMcpServer("flood", JSON.parse(process.argv[2]), {
  env: {},
  onWarning: (message) => warnings.push(message),
});
if (!connected.ok) {
  process.stdout.write(`${JSON.stringify({ error: connected.message })}\n`);
  process.exit(1);
}
const result = await connected.connection.callTool("flood", {}, undefined, () => {});
await connected.connection.close();
process.stdout.write(
  `${JSON.stringify({ text: result.content[0]?.text, warnings, maxRssKb: process.resourceUsage().maxRSS })}\n`,
);
