/**
 * `skillrt mcp --http` sessions as real processes: clients that never send `DELETE` cannot lock a server
 * (sessions expire when idle, the idle longest are evicted when it is full, each with its workspace), and
 * skillrt's own MCP client (`ask`, `list`) ends its session when it is done, leaving none open.
 */

import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type McpHttpServer, serveMcpHttp } from "../../src/mcp/serve-mcp-http.js";
import { connectMcpServer } from "../../src/tools/mcp-client/connect-mcp-server.js";
import { type LoopbackProvider, loopbackEnv, startLoopbackProvider } from "./support/loopback-provider.js";
import { type McpHttpProcess, startMcpHttp } from "./support/mcp-http-server.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

const repo = path.resolve(import.meta.dirname, "../..");
const skills = path.join(repo, "examples", "skills");

let cwd: string;
let server: McpHttpProcess | undefined;
let provider: LoopbackProvider | undefined;
let library: McpHttpServer | undefined;

beforeAll(() => assertBuilt());
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-mcp-sessions-"));
});
afterEach(async () => {
  if (server !== undefined) expect(await server.stop()).toBe(0);
  await provider?.close();
  await library?.close();
  server = undefined;
  provider = undefined;
  library = undefined;
  await rm(cwd, { recursive: true, force: true });
});

const baseEnv = (): NodeJS.ProcessEnv => ({
  PATH: process.env["PATH"] ?? "/usr/bin:/bin",
  HOME: cwd,
  NO_COLOR: "1",
  SKILLRT_CACHE: "0",
  TMPDIR: path.join(cwd, "tmp"),
});

/** A raw initialize POST that never sends DELETE. */
async function initialize(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; session: string | null; retryAfter: string | null; body: string }> {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      ...headers,
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
  return {
    status: res.status,
    session: res.headers.get("mcp-session-id"),
    retryAfter: res.headers.get("retry-after"),
    body: await res.text(),
  };
}

/** The session workspaces (`skillrt-ws-*`) under the server's TMPDIR. */
async function workspaces(): Promise<number> {
  const tmp = path.join(cwd, "tmp");
  let count = 0;
  for (const base of await readdir(tmp).catch(() => [] as string[]))
    for (const entry of await readdir(path.join(tmp, base)).catch(() => [] as string[]))
      if (entry.startsWith("skillrt-ws-")) count++;
  return count;
}

describe("skillrt mcp --http sessions", { timeout: 180_000 }, () => {
  it("1,100 sessions without DELETE (--max-sessions 20, --session-idle-timeout 1): a new client connects within the idle timeout; the workspaces are deleted", async () => {
    await mkdir(path.join(cwd, "tmp"), { recursive: true });
    server = await startMcpHttp(
      ["--root", skills, "--executor", "local", "--max-sessions", "20", "--session-idle-timeout", "1"],
      baseEnv(),
    );
    const { url, headers } = server;
    const statuses = new Map<number, number>();
    let refused: Awaited<ReturnType<typeof initialize>> | undefined;
    let lastOpened = Date.now();
    for (let i = 0; i < 1_100; i += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, () => initialize(url, headers)));
      for (const r of batch) {
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 200) lastOpened = Date.now();
        else refused = r;
      }
      expect(await workspaces()).toBeLessThanOrEqual(20 + 10);
    }
    expect([...statuses.keys()].sort()).toEqual([200, 503]);
    expect(refused!.status).toBe(503);
    expect(Number(refused!.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused!.body).toContain("Too many sessions: all 20 are in use");

    let client: Client | undefined;
    while (client === undefined && Date.now() - lastOpened < 5_000) {
      const attempt = new Client({ name: "e2e", version: "1" });
      try {
        await attempt.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
        client = attempt;
      } catch {
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    expect(client).toBeDefined();
    // Within the idle timeout (1 s) of the last session opened, with room for the process's scheduling.
    expect(Date.now() - lastOpened).toBeLessThanOrEqual(1_000 + 500);
    try {
      expect((await client!.listTools()).tools.length).toBeGreaterThan(0);
      // The unused sessions expire, and their workspaces go with them; the connected client's stays.
      let left = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 60 && left > 1; i++) {
        await new Promise((r) => setTimeout(r, 100));
        left = await workspaces();
      }
      expect(left).toBe(1);
    } finally {
      await client!.close();
    }
  });

  it("refuses a bad --session-idle-timeout or --max-sessions with the flag named (exit 2)", async () => {
    for (const [flag, value, message] of [
      [
        "--session-idle-timeout",
        "0",
        "--session-idle-timeout expects seconds from more than 0 to 86400, got '0'",
      ],
      ["--session-idle-timeout", "soon", "--session-idle-timeout expects seconds from more than 0 to 86400"],
      ["--max-sessions", "-1", "--max-sessions expects a positive integer, got '-1'"],
    ] as const) {
      const run = await runCli(["mcp", "--http", "--no-auth", flag, value], { cwd, env: {} });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
    }
    const stdio = await runCli(["mcp", "--session-idle-timeout", "60"], { cwd, env: {} });
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toContain("--session-idle-timeout needs --http");
  });

  it("ask and list end their MCP sessions: 0 left open on the server (a cap of 1 per client still has room after each)", async () => {
    server = await startMcpHttp(["--root", skills, "--no-exec", "--sessions-per-client", "1"], baseEnv());
    const { url, headers } = server;
    // The user's own config (HOME is the cwd): a project's config is not trusted to name servers.
    await mkdir(path.join(cwd, ".skillrt"), { recursive: true });
    await writeFile(
      path.join(cwd, ".skillrt", "config.json"),
      JSON.stringify({ mcpServers: { skills: { type: "http", url, headers } }, tools: { gating: "open" } }),
    );
    /** Opens and deletes a probe session: 200 only when no other session of this token is open. */
    const probe = async (): Promise<number> => {
      const opened = await initialize(url, headers);
      if (opened.session !== null) {
        const res = await fetch(url, {
          method: "DELETE",
          headers: { ...headers, "mcp-session-id": opened.session },
        });
        await res.text();
      }
      return opened.status;
    };
    expect(await probe()).toBe(200);
    provider = await startLoopbackProvider("openai", [{ text: "one" }, { text: "two" }, { text: "three" }]);
    for (const expected of ["one", "two", "three"]) {
      const run = await runCli(["ask", "hi"], {
        cwd,
        env: { ...loopbackEnv(provider), TMPDIR: path.join(cwd, "tmp") },
      });
      expect(run.stderr).not.toMatch(/could not start|Too many sessions|internal error/);
      expect(run.stdout).toBe(`${expected}\n`);
      expect(run.code).toBe(0);
      // The server's tools were offered: the run really held a session on it.
      expect(provider.requests.at(-1)?.body.tools.map((t: any) => t.function.name)).toContain(
        "mcp__skills__skill_load",
      );
      expect(await probe()).toBe(200);
    }
    const list = await runCli(["list"], { cwd, env: {} });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("(from MCP server skills)");
    expect(await probe()).toBe(200);
  });
});

/** An MCP server with one tool. */
async function pingServer(): Promise<McpServer> {
  const server = new McpServer({ name: "t", version: "1" });
  server.registerTool("ping_me", { description: "Answers pong." }, async () => ({
    content: [{ type: "text", text: "pong" }],
  }));
  return server;
}

describe("skillrt's MCP client over Streamable HTTP", () => {
  it("sends DELETE when it closes: the server holds no session afterwards", async () => {
    library = await serveMcpHttp({ auth: false, createServer: pingServer });
    for (let i = 0; i < 5; i++) {
      const connected = await connectMcpServer("t", { url: library.url });
      if (!connected.ok) throw new Error(connected.message);
      expect(connected.connection.transport).toBe("streamable-http");
      expect(library.sessionCount()).toBe(1);
      await connected.connection.close();
      expect(library.sessionCount()).toBe(0);
    }
  });

  it("closes within its bound when the server never answers the DELETE", async () => {
    library = await serveMcpHttp({ auth: false, createServer: pingServer });
    const upstream = library.url;
    // A proxy that passes everything on but holds every DELETE unanswered.
    let deletes = 0;
    const proxy = http.createServer(async (req, res) => {
      if (req.method === "DELETE") {
        deletes++;
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const abort = new AbortController();
      res.once("close", () => abort.abort());
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (e): e is [string, string] => typeof e[1] === "string" && !["host", "connection"].includes(e[0]),
        ),
      );
      try {
        const answer = await fetch(upstream, {
          method: req.method ?? "GET",
          headers,
          signal: abort.signal,
          ...(req.method === "POST" ? { body: Buffer.concat(chunks) } : {}),
        });
        const out = Object.fromEntries(
          [...answer.headers].filter(
            ([k]) => !["transfer-encoding", "content-length", "connection"].includes(k),
          ),
        );
        res.writeHead(answer.status, out);
        if (answer.body !== null) for await (const chunk of answer.body) res.write(chunk);
        res.end();
      } catch {
        res.destroy();
      }
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
      const connected = await connectMcpServer("t", { url });
      if (!connected.ok) throw new Error(connected.message);
      expect(connected.connection.transport).toBe("streamable-http");
      const started = Date.now();
      await connected.connection.close();
      expect(deletes).toBe(1);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});
