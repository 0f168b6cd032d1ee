/**
 * `serveMcpHttp`'s session lifetime on a real loopback server: sessions whose clients never send `DELETE`
 * expire when idle and are evicted (idle longest first) when the server is full, so a new client always
 * gets in; a session in use is never taken; a full server of busy sessions answers 503 with Retry-After.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import { type McpHttpServer, serveMcpHttp } from "./serve-mcp-http.js";

const TOKENS = Array.from(
  { length: 40 },
  (_, i) => `token-${String(i).padStart(2, "0")}-0123456789abcdefghijklmnop`,
);
const TOKEN = TOKENS[0]!;

/** Servers made and not yet closed: a closed session's server is closed too. */
let live = 0;
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
  live++;
  server.server.onclose = () => {
    live--;
  };
  return server;
};

const headers = (token: string, session?: string): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  ...(session === undefined ? {} : { "mcp-session-id": session }),
});

/** A raw initialize POST that never sends DELETE: its status, session id, Retry-After and body. */
async function open(
  url: string,
  token = TOKEN,
): Promise<{ status: number; session: string | null; retryAfter: string | null; body: string }> {
  const res = await fetch(url, {
    method: "POST",
    headers: headers(token),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
  return {
    status: res.status,
    session: res.headers.get("mcp-session-id"),
    retryAfter: res.headers.get("retry-after"),
    body: await res.text(),
  };
}

/** A `ping` in session `id`: its HTTP status (404 once the session is gone). */
async function ping(url: string, id: string, token = TOKEN): Promise<number> {
  const res = await fetch(url, {
    method: "POST",
    headers: headers(token, id),
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
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

async function connect(url: string, token = TOKEN): Promise<Client> {
  const client = new Client({ name: "t", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

describe("serveMcpHttp session lifetime", () => {
  it("1,100 sessions without DELETE on a server of 50: a new client connects within the idle timeout, and the sessions' servers are closed", async () => {
    live = 0;
    const idleMs = 1_000;
    served = await serveMcpHttp({
      createServer,
      auth: { token: TOKEN },
      maxSessions: 50,
      maxSessionsPerClient: 2_000,
      idleSessionMs: idleMs,
    });
    const url = served.url;
    const statuses = new Map<number, number>();
    let refused: Awaited<ReturnType<typeof open>> | undefined;
    let lastOpened = Date.now();
    for (let i = 0; i < 1_100; i += 20) {
      const batch = await Promise.all(Array.from({ length: 20 }, () => open(url)));
      for (const r of batch) {
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 200) lastOpened = Date.now();
        if (r.status === 503) refused = r;
      }
      expect(served.sessionCount()).toBeLessThanOrEqual(50);
    }
    expect([...statuses.keys()].sort()).toEqual([200, 503]);
    expect(statuses.get(200)).toBeGreaterThanOrEqual(50);
    // Full of sessions used less than the eviction minimum (here the idle timeout): retryable, and said so.
    expect(Number(refused!.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused!.body).toContain("Too many sessions: all 50 are in use and none has been idle 1 s");
    expect(refused!.body).toContain("unused sessions expire after 1 s");

    // A new client (the SDK's) gets in once the oldest sessions are idle past the timeout, not later.
    let connected: number | undefined;
    while (connected === undefined && Date.now() - lastOpened < idleMs * 3) {
      try {
        await connect(url);
        connected = Date.now();
      } catch {
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    expect(connected).toBeDefined();
    // Slack for polling and a loaded machine; the old sweep (once per timeout) could take twice the timeout.
    expect(connected! - lastOpened).toBeLessThanOrEqual(idleMs + 500);
    expect(await clients[0]!.callTool({ name: "ping_me", arguments: {} })).toMatchObject({
      content: [{ type: "text", text: "pong" }],
    });
    // Unused, every raw session expires and its server is closed; the connected client's is kept.
    await new Promise((r) => setTimeout(r, idleMs + 500));
    expect(served.sessionCount()).toBe(1);
    expect(live).toBe(1);
    expect((await clients[0]!.callTool({ name: "ping_me", arguments: {} })).content).toEqual([
      { type: "text", text: "pong" },
    ]);
  }, 60_000);

  it("default limits: a full server (1,000) evicts the sessions idle longest (30 s or more), never one in use, and expires the rest after 5 min", async () => {
    live = 0;
    let clock = 1_000_000;
    served = await serveMcpHttp({ createServer, auth: { tokens: TOKENS }, now: () => clock });
    const url = served.url;
    // 40 batches of 25, each a millisecond later than the one before: batch k is idle longer than k + 1.
    const opened: string[] = [];
    const tokenOf = (i: number): string => TOKENS[i % TOKENS.length]!;
    for (let i = 0; i < 1_000; i += 25) {
      const batch = await Promise.all(Array.from({ length: 25 }, (_, j) => open(url, tokenOf(i + j))));
      for (const r of batch) {
        expect(r.status).toBe(200);
        opened.push(r.session!);
      }
      clock += 1;
    }
    expect(served.sessionCount()).toBe(1_000);

    // Full, and nobody idle 30 s yet: 503, retry when the first may be taken.
    clock += 10_000;
    const full = await open(url, TOKENS[0]);
    expect(full.status).toBe(503);
    expect(full.retryAfter).toBe("20");
    expect(full.body).toContain(
      "Too many sessions: all 1000 are in use and none has been idle 30 s to be closed for a new one. Retry after 20 s; unused sessions expire after 5 min",
    );

    // The oldest session is used again, and one more has a request in flight: neither may be taken.
    clock += 21_000;
    expect(await ping(url, opened[0]!, TOKENS[0])).toBe(200);
    const holder = await connect(url, TOKENS[39]);
    const held = holder.callTool({ name: "hold", arguments: {} });
    for (let i = 0; i < 100 && live < 1_000; i++) await new Promise((r) => setTimeout(r, 10));
    expect(served.sessionCount()).toBe(1_000);
    clock += 60_000;

    // 100 more sessions without DELETE (1,100 in all, plus the holder): each takes the idle longest.
    for (let i = 0; i < 100; i++) {
      const r = await open(url, TOKENS[i % TOKENS.length]);
      expect(r.status).toBe(200);
    }
    expect(served.sessionCount()).toBe(1_000);
    // 101 were taken (one for the holder, 100 for the new ones): the first four batches but the reused
    // session (99), two of the fifth; every later batch is kept, and so is the reused session.
    const alive = await Promise.all(opened.map(async (id, i) => (await ping(url, id, tokenOf(i))) === 200));
    expect(alive.filter((a) => !a)).toHaveLength(101);
    expect(alive[0]).toBe(true);
    expect(alive.slice(1, 100).every((a) => !a)).toBe(true);
    expect(alive.slice(100, 125).filter((a) => !a)).toHaveLength(2);
    expect(alive.slice(125).every((a) => a)).toBe(true);
    release();
    expect(await held).toMatchObject({ content: [{ type: "text", text: "released" }] });

    // Five minutes later without a request, every session is closed when the next client comes, but the
    // holder's: its client keeps its event stream open, which is use.
    clock += 5 * 60_000 + 1;
    await connect(url, TOKENS[5]);
    expect(served.sessionCount()).toBe(2);
    for (let i = 0; i < 200 && live > 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(live).toBe(2);
  }, 120_000);

  it("a client at its cap gets its own idle session taken, not another client's; 429 with Retry-After while its sessions are in use", async () => {
    let clock = 0;
    const [alice, bob] = [TOKENS[0]!, TOKENS[1]!];
    served = await serveMcpHttp({
      createServer,
      auth: { tokens: [alice, bob] },
      maxSessionsPerClient: 2,
      now: () => clock,
    });
    const url = served.url;
    const a1 = (await open(url, alice)).session!;
    const b1 = (await open(url, bob)).session!;
    clock += 5_000;
    const a2 = (await open(url, alice)).session!;
    const refused = await open(url, alice);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe("25");
    expect(refused.body).toContain(
      "Too many sessions for this client: 2 are open, the limit per credential is 2, and none has been idle 30 s to be closed for a new one",
    );
    clock += 40_000;
    expect((await open(url, alice)).status).toBe(200);
    expect(await ping(url, a1, alice)).toBe(404);
    expect(await ping(url, a2, alice)).toBe(200);
    expect(await ping(url, b1, bob)).toBe(200);
  });
});
