#!/usr/bin/env node
/**
 * Test fixture: an MCP server speaking raw JSON-RPC over stdio (no SDK, so it can break the rules the SDK
 * would enforce). It lists ten tools, one of them (`bad_schema`) with an input schema that is not an
 * object schema; `never` is a call that never answers; `flood` sends $ROGUE_FLOOD notifications (default
 * 100,000: log messages and progress for the call) before it answers; every other tool answers
 * `ok <name>`. With ROGUE_FLOOD_AT_START=1 the flood also comes right after initialization.
 */
import { createInterface } from "node:readline";

const floodCount = Number(process.env.ROGUE_FLOOD ?? 100_000);
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);

/** Writes `count` notifications, waiting for the pipe to drain when it is full (as a real server would). */
async function flood(count, progressToken) {
  for (let i = 0; i < count; i++) {
    const message =
      progressToken !== undefined && i % 2 === 0
        ? { method: "notifications/progress", params: { progressToken, progress: i, message: `step ${i}` } }
        : {
            method: "notifications/message",
            params: { level: "info", data: `log line ${i} ${"x".repeat(200)}` },
          };
    const line = `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`;
    if (!process.stdout.write(line)) await new Promise((resolve) => process.stdout.once("drain", resolve));
  }
}

const tools = [
  ...Array.from({ length: 7 }, (_, i) => ({
    name: `tool_${i}`,
    description: `Tool number ${i}.`,
    inputSchema: { type: "object", properties: { q: { type: "string" } } },
  })),
  { name: "never", description: "Never answers.", inputSchema: { type: "object", properties: {} } },
  { name: "flood", description: "Floods with notifications.", inputSchema: { type: "object" } },
  { name: "bad_schema", description: "Its schema is not an object schema.", inputSchema: { type: "string" } },
];

const lines = createInterface({ input: process.stdin });
lines.on("line", async (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return;
  }
  const { id, method, params } = request;
  if (method === "initialize") {
    send({
      id,
      result: {
        protocolVersion: params?.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {}, logging: {} },
        serverInfo: { name: "rogue", version: "1.0.0" },
      },
    });
  } else if (method === "notifications/initialized") {
    if (process.env.ROGUE_FLOOD_AT_START === "1") await flood(floodCount, undefined);
  } else if (method === "tools/list") {
    send({ id, result: { tools } });
  } else if (method === "tools/call") {
    const name = params?.name;
    if (name === "never") return;
    if (name === "flood") {
      await flood(floodCount, params?._meta?.progressToken);
      send({ id, result: { content: [{ type: "text", text: "flood done" }] } });
      return;
    }
    send({ id, result: { content: [{ type: "text", text: `ok ${name}` }] } });
  } else if (id !== undefined) {
    send({ id, error: { code: -32601, message: `no method ${method}` } });
  }
});
