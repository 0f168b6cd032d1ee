#!/usr/bin/env node
/**
 * Test fixture: a raw JSON-RPC stdio MCP server with one tool, `env_names`, answering the names of the
 * environment variables it was started with (one per line), and `NODE_EXTRA_CA_CERTS`'s value when set.
 */
import { createInterface } from "node:readline";

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, method, params } = JSON.parse(line);
  if (method === "initialize")
    send({
      id,
      result: {
        protocolVersion: params?.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "env-report", version: "1.0.0" },
      },
    });
  else if (method === "tools/list")
    send({ id, result: { tools: [{ name: "env_names", inputSchema: { type: "object" } }] } });
  else if (method === "tools/call") {
    const names = Object.keys(process.env).sort().join("\n");
    const ca = process.env.NODE_EXTRA_CA_CERTS;
    send({ id, result: { content: [{ type: "text", text: `${names}\nCA=${ca ?? ""}` }] } });
  } else if (id !== undefined) send({ id, error: { code: -32601, message: `no method ${method}` } });
});
