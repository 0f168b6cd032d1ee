#!/usr/bin/env node
/**
 * Test fixture: an MCP server over Streamable HTTP speaking raw JSON-RPC (no SDK, so nothing limits what
 * it sends). Its one tool, `flood`, answers on an event stream after $FLOOD notifications (default
 * 100,000: log lines of ~250 bytes), written as fast as the socket takes them. Prints its URL first.
 */
import http from "node:http";

const count = Number(process.env.FLOOD ?? 100_000);
const event = (message) => `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", ...message })}\n\n`;

const server = http.createServer((req, res) => {
  if (req.method !== "POST") {
    res.writeHead(405).end();
    return;
  }
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", async () => {
    const { id, method } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const json = (result) => {
      res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "flood-session" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id, result }));
    };
    if (method === "initialize")
      return json({
        protocolVersion: "2025-06-18",
        capabilities: { tools: {}, logging: {} },
        serverInfo: { name: "flood", version: "1.0.0" },
      });
    if (method === "tools/list")
      return json({ tools: [{ name: "flood", description: "Floods.", inputSchema: { type: "object" } }] });
    if (method !== "tools/call") return json({});
    res.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": "flood-session" });
    for (let i = 0; i < count; i++) {
      const line = event({
        method: "notifications/message",
        params: { level: "info", data: `log line ${i} ${"x".repeat(200)}` },
      });
      if (!res.write(line)) await new Promise((resolve) => res.once("drain", resolve));
    }
    res.end(event({ id, result: { content: [{ type: "text", text: "flood done" }] } }));
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`http://127.0.0.1:${server.address().port}/mcp\n`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
