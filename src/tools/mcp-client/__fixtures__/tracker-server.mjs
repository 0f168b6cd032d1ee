#!/usr/bin/env node
/**
 * Test fixture: a small issue-tracker MCP server written with the MCP SDK.
 *
 *   node tracker-server.mjs              → stdio
 *   node tracker-server.mjs --http       → Streamable HTTP on 127.0.0.1 (random port); prints `url=<url>`
 *   node tracker-server.mjs --sse        → the older HTTP+SSE transport only (GET <url> opens the stream,
 *                                          POSTs go to /messages); prints `url=<url>`
 *   node tracker-server.mjs --fail       → writes an error to stderr and exits 3 before speaking MCP
 *
 * Tools: create_issue { title, body?, priority? } (answers with the issue and structured content),
 * delete_repo { repo } (destructive), snapshot {} (an image and a resource link), shutdown {} (exits the
 * process, to test a server that dies mid-conversation). Every call is appended as a JSON line to
 * $TRACKER_LOG when it is set. $TRACKER_TOKEN (when set) is echoed in create_issue's text only as
 * `token-set`, never its value.
 */
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const args = process.argv.slice(2);
if (args.includes("--fail")) {
  process.stderr.write("tracker: cannot open database /nonexistent/tracker.db\n");
  process.exit(3);
}

let next = 1;
function log(tool, input, extra = {}) {
  const file = process.env.TRACKER_LOG;
  if (file) appendFileSync(file, `${JSON.stringify({ tool, input, ...extra })}\n`);
}

function buildServer(headers = {}) {
  const server = new McpServer({ name: "tracker", version: "1.0.0" });
  server.registerTool(
    "create_issue",
    {
      description: "Create an issue in the tracker.",
      inputSchema: {
        title: z.string().min(1).describe("Issue title"),
        body: z.string().optional(),
        priority: z.enum(["low", "high"]).optional(),
      },
      annotations: { title: "Create issue", readOnlyHint: false, destructiveHint: false },
    },
    async (input) => {
      const id = next++;
      log("create_issue", input, { authorization: headers.authorization ?? null });
      const token = process.env.TRACKER_TOKEN === undefined ? "no-token" : "token-set";
      return {
        content: [{ type: "text", text: `Created issue #${id}: ${input.title} (${token})` }],
        structuredContent: { id, title: input.title },
      };
    },
  );
  server.registerTool(
    "delete_repo",
    {
      description: "Delete a repository and every issue in it.",
      inputSchema: { repo: z.string() },
      annotations: { destructiveHint: true },
    },
    async (input) => {
      log("delete_repo", input);
      return { content: [{ type: "text", text: `Deleted ${input.repo}` }] };
    },
  );
  server.registerTool(
    "snapshot",
    { description: "A picture of the board.", inputSchema: {}, annotations: { readOnlyHint: true } },
    async () => {
      log("snapshot", {});
      return {
        content: [
          { type: "image", data: Buffer.from("fake-png-bytes").toString("base64"), mimeType: "image/png" },
          { type: "resource_link", uri: "tracker://board", name: "board" },
        ],
      };
    },
  );
  server.registerTool("shutdown", { description: "Stop the tracker server.", inputSchema: {} }, async () => {
    log("shutdown", {});
    process.stderr.write("tracker: shutting down on request\n");
    setImmediate(() => process.exit(1));
    return new Promise(() => {});
  });
  return server;
}

if (args.includes("--sse")) {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      sessions.set(transport.sessionId, transport);
      res.on("close", () => sessions.delete(transport.sessionId));
      await buildServer(req.headers).connect(transport);
      return;
    }
    const transport = sessions.get(url.searchParams.get("sessionId") ?? "");
    if (req.method === "POST" && url.pathname === "/messages" && transport !== undefined) {
      await transport.handlePostMessage(req, res);
      return;
    }
    // Not a Streamable HTTP endpoint: a client trying it falls back to SSE.
    res.writeHead(405).end();
  });
  http.listen(0, "127.0.0.1", () => {
    const { port } = http.address();
    process.stdout.write(`url=http://127.0.0.1:${port}/sse\n`);
  });
} else if (args.includes("--http")) {
  const http = createServer(async (req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    const server = buildServer(req.headers);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      transport.close();
      server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  http.listen(0, "127.0.0.1", () => {
    const { port } = http.address();
    process.stdout.write(`url=http://127.0.0.1:${port}/mcp\n`);
  });
} else {
  await buildServer().connect(new StdioServerTransport());
}
