/**
 * `skillrt mcp --http` as a real process: the official MCP conformance suite's server scenarios that
 * apply to a skills server, then the HTTP guards (DNS rebinding, bearer token, loopback-only default)
 * and stateless mode, with the MCP SDK client over Streamable HTTP.
 */
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type McpHttpProcess, startMcpHttp } from "./support/mcp-http-server.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, "../..");
const skills = path.join(repo, "examples", "skills");
const conformance = path.join(
  repo,
  "node_modules",
  "@modelcontextprotocol",
  "conformance",
  "dist",
  "index.js",
);
const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: repo, NO_COLOR: "1", SKILLRT_CACHE: "0" };

const SkillsPage = z.object({
  skills: z.array(z.object({ uri: z.string() })),
  nextCursor: z.string().optional(),
});

/** The server scenarios of the suite that apply to a skills server (no fixture tools or prompts needed). */
const SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "prompts-list",
  "dns-rebinding-protection",
];

beforeAll(() => assertBuilt());

describe("skillrt mcp --http against the MCP conformance suite", () => {
  let server: McpHttpProcess;
  let cwd: string;
  beforeAll(async () => {
    server = await startMcpHttp(["--root", skills, "--no-exec"], env);
    cwd = await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-conformance-"));
  }, 60_000);
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
    await fs.rm(cwd, { recursive: true, force: true });
  });

  it.each(SCENARIOS)(
    "passes %s",
    async (scenario) => {
      const { stdout } = await run(
        process.execPath,
        [conformance, "server", "--url", server.url, "--scenario", scenario],
        {
          cwd,
          env: { ...env, HOME: cwd },
          timeout: 60_000,
        },
      );
      const result = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(stdout);
      expect(result, stdout).not.toBeNull();
      const [, passed, total, failed, warnings] = result!.map(Number);
      expect({ passed, failed, warnings }).toEqual({ passed: total, failed: 0, warnings: 0 });
      expect(total).toBeGreaterThan(0);
    },
    90_000,
  );
});

describe("skillrt mcp --http guards", () => {
  it("prints its loopback URL first, refuses rebinding Host/Origin, and exits 0 on SIGTERM", async () => {
    const server = await startMcpHttp(["--root", skills, "--no-exec"], env);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const port = new URL(server.url).port;
      const post = (headers: Record<string, string>) =>
        fetch(server.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...headers,
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: {
              protocolVersion: "2025-06-18",
              capabilities: {},
              clientInfo: { name: "t", version: "1" },
            },
          }),
        });
      // fetch sets Host itself; a page that rebinds its name sends its own Origin.
      expect((await post({ origin: "http://evil.example.com" })).status).toBe(403);
      expect((await post({ origin: `http://localhost:${port}` })).status).toBe(200);
      expect((await fetch(server.url.replace(/\/mcp$/, "/other"))).status).toBe(404);
      // A request without a session that is not an initialize is refused.
      expect((await fetch(server.url, { method: "GET" })).status).toBe(400);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);

  it("requires the bearer token named by --token-env, and a token for any non-loopback host", async () => {
    const refused = await runCli(["mcp", "--http", "--host", "0.0.0.0", "--root", skills, "--no-exec"], {
      cwd: repo,
      env,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--host 0\.0\.0\.0 .*--token-env NAME/);
    const notHttp = await runCli(["mcp", "--port", "9", "--root", skills], { cwd: repo, env });
    expect(notHttp.code).toBe(2);
    expect(notHttp.stderr).toContain("--port needs --http");

    const server = await startMcpHttp(["--root", skills, "--no-exec", "--token-env", "SKILLS_TOKEN"], {
      ...env,
      SKILLS_TOKEN: "s3cret-token",
    });
    try {
      const connect = async (token?: string) => {
        const client = new Client({ name: "e2e", version: "1" });
        await client.connect(
          new StreamableHTTPClientTransport(
            new URL(server.url),
            token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } },
          ),
        );
        return client;
      };
      await expect(connect()).rejects.toThrow(/401|Unauthorized/);
      await expect(connect("wrong")).rejects.toThrow(/401|Unauthorized/);
      const client = await connect("s3cret-token");
      expect((await client.listResources()).resources.length).toBeGreaterThan(0);
      await client.close();
      expect(server.stderr()).not.toContain("s3cret-token");
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);

  it("serves statelessly: no session id, every request answered by a fresh server", async () => {
    const server = await startMcpHttp(["--root", skills, "--no-exec", "--stateless"], env);
    try {
      const clients = await Promise.all(
        [1, 2].map(async () => {
          const client = new Client({ name: "e2e", version: "1" });
          const transport = new StreamableHTTPClientTransport(new URL(server.url));
          await client.connect(transport);
          expect(transport.sessionId).toBeUndefined();
          return client;
        }),
      );
      for (const client of clients) {
        const page = await client.request({ method: "skills/list", params: {} }, SkillsPage);
        expect(page.skills.map((s) => s.uri)).toContain("skill://csv-summary/SKILL.md");
        await client.close();
      }
      expect((await fetch(server.url, { method: "GET" })).status).toBe(405);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);
});
