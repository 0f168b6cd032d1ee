/**
 * `serveMcpHttp`'s credential rules on a real loopback server with the real MCP SDK client: the
 * library refuses to start without an explicit `auth`-choice that holds (short tokens, `auth: false` off
 * loopback), and with several tokens each one is a credential with its own session cap and sessions.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import { type McpHttpServer, serveMcpHttp } from "./serve-mcp-http.js";

const ALICE = "alice-token-0123456789abcdefghijklmnop";
const BOB = "bob-token-0123456789abcdefghijklmnopqrs";

/** Resolves the calls of `hold` waiting now. */
let release: () => void = () => undefined;
const createServer = async (): Promise<McpServer> => {
  const server = new McpServer({ name: "t", version: "1" });
  server.registerTool("ping_me", { description: "Answers pong." }, async () => ({
    content: [{ type: "text", text: "pong" }],
  }));
  server.registerTool("hold", { description: "Answers when released." }, async () => {
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    return { content: [{ type: "text", text: "released" }] };
  });
  return server;
};

/** A raw initialize POST with `token`; its status. */
async function initializeStatus(url: string, token: string): Promise<number> {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
  await res.text();
  return res.status;
}

let served: McpHttpServer | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await served?.close();
  served = undefined;
});

async function connect(url: string, token: string): Promise<StreamableHTTPClientTransport> {
  const client = new Client({ name: "t", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return transport;
}

describe("serveMcpHttp credentials", () => {
  it("refuses a short token, an empty token list, and auth: false off loopback", async () => {
    await expect(serveMcpHttp({ createServer, auth: { token: "short" } })).rejects.toThrow(
      "A bearer token must be at least 32 characters",
    );
    await expect(serveMcpHttp({ createServer, auth: { tokens: [] } })).rejects.toThrow(
      "auth.tokens is empty",
    );
    await expect(serveMcpHttp({ createServer, auth: false, host: "0.0.0.0" })).rejects.toThrow(
      "Refusing to serve MCP on 0.0.0.0 without a bearer token",
    );
  });

  it("caps sessions per token: one holder at its cap gets 429, another still gets sessions", async () => {
    served = await serveMcpHttp({ createServer, auth: { tokens: [ALICE, BOB] }, maxSessionsPerClient: 2 });
    const url = served.url;
    await connect(url, ALICE);
    await connect(url, ALICE);
    await expect(connect(url, ALICE)).rejects.toThrow(
      /Too many sessions for this client: 2 are open, the limit per credential is 2/,
    );
    await connect(url, BOB);
    const bob = clients.at(-1)!;
    expect(await bob.callTool({ name: "ping_me", arguments: {} })).toMatchObject({
      content: [{ type: "text", text: "pong" }],
    });
    expect(served.sessionCount()).toBe(3);
  });

  it("stateless: requests in flight are capped per token, and a finished one frees its slot", async () => {
    served = await serveMcpHttp({
      createServer,
      auth: { tokens: [ALICE, BOB] },
      stateless: true,
      maxSessionsPerClient: 1,
    });
    await connect(served.url, ALICE);
    const alice = clients.at(-1)!;
    const held = alice.callTool({ name: "hold", arguments: {} });
    for (let i = 0; i < 100 && (await initializeStatus(served.url, ALICE)) !== 429; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await initializeStatus(served.url, ALICE)).toBe(429);
    expect(await initializeStatus(served.url, BOB)).toBe(200);
    release();
    expect(await held).toMatchObject({ content: [{ type: "text", text: "released" }] });
    expect(await initializeStatus(served.url, ALICE)).toBe(200);
  });

  it("a session answers only the token that opened it", async () => {
    served = await serveMcpHttp({ createServer, auth: { tokens: [ALICE, BOB] } });
    const alice = await connect(served.url, ALICE);
    const res = await fetch(served.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${BOB}`,
        "mcp-session-id": alice.sessionId!,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
    });
    expect(res.status).toBe(404);
  });
});
