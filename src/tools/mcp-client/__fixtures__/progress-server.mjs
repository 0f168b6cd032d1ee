#!/usr/bin/env node
/**
 * Test fixture: an MCP server (stdio, MCP SDK) whose one tool takes a while and says how far it got.
 *
 * Tool: compile {} — sends three `notifications/progress` (1/3 "compiling lexer.ts", 2/3 "compiling
 * parser.ts", 3/3 "linking"), 300 ms apart, when the call carries a progress token, then answers
 * "compiled 3 files" (and "progress token: none" when it carried none).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const STEPS = ["compiling lexer.ts", "compiling parser.ts", "linking"];
const server = new McpServer({ name: "build", version: "1.0.0" });
server.registerTool(
  "compile",
  { description: "Compile the project.", inputSchema: {} },
  async (_input, extra) => {
    const token = extra._meta?.progressToken;
    for (const [i, message] of STEPS.entries()) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      if (token !== undefined)
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress: i + 1, total: STEPS.length, message },
        });
    }
    const note = token === undefined ? " (progress token: none)" : "";
    return { content: [{ type: "text", text: `compiled ${STEPS.length} files${note}` }] };
  },
);
await server.connect(new StdioServerTransport());
