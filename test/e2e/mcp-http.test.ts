/**
 * `skillrt mcp --http` as a real process: the official MCP conformance suite's server scenarios that
 * apply to a skills server, then the HTTP guards (DNS rebinding, bearer token, loopback-only default)
 * and stateless mode, with the MCP SDK client over Streamable HTTP.
 */
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import http from "node:http";
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

/** A token as long as the server requires (32 characters and more). */
const TOKEN = "s3cret-token-s3cret-token-s3cret-token";

/** A raw `initialize` POST over node:http (from `localAddress` when given): status, headers, body. */
function initialize(
  url: string,
  headers: Record<string, string>,
  localAddress?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        ...(localAddress === undefined ? {} : { localAddress }),
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

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

/** The suite's server scenarios of the Skills Extension (SEP-2640). */
const SEP_2640_SCENARIOS = [
  "sep-2640-skills-enumeration",
  "sep-2640-skills-manifest",
  "sep-2640-skills-directory",
];

beforeAll(() => assertBuilt());

describe("skillrt mcp --http against the MCP conformance suite", () => {
  let server: McpHttpProcess;
  let cwd: string;
  beforeAll(async () => {
    // The suite's client sends no Authorization header: this server is started with the explicit --no-auth.
    server = await startMcpHttp(["--root", skills, "--no-exec", "--no-auth"], env);
    cwd = await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-conformance-"));
  }, 60_000);
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
    await fs.rm(cwd, { recursive: true, force: true });
  });

  // The Skills Extension's scenarios are an extension's: --force runs them at a dated revision.
  const cases: Array<[string, string[]]> = [
    ...SCENARIOS.map((s): [string, string[]] => [s, []]),
    ...SCENARIOS.map((s): [string, string[]] => [s, ["--spec-version", "2025-11-25"]]),
    ...SEP_2640_SCENARIOS.map((s): [string, string[]] => [s, ["--spec-version", "2025-11-25", "--force"]]),
  ];
  it.each(cases)(
    "passes %s %j",
    async (scenario, extra) => {
      const { stdout } = await run(
        process.execPath,
        [conformance, "server", "--url", server.url, "--scenario", scenario, ...extra],
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
            ...server.headers,
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
      expect((await fetch(server.url, { method: "GET", headers: server.headers })).status).toBe(400);
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
      SKILLS_TOKEN: TOKEN,
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
      const client = await connect(TOKEN);
      expect((await client.listResources()).resources.length).toBeGreaterThan(0);
      await client.close();
      expect(server.stderr()).not.toContain(TOKEN);
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
          const transport = new StreamableHTTPClientTransport(new URL(server.url), {
            requestInit: { headers: server.headers },
          });
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
      expect((await fetch(server.url, { method: "GET", headers: server.headers })).status).toBe(405);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);
});

describe("skillrt mcp --http credentials", () => {
  let state: string;
  beforeAll(async () => {
    state = await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-mcp-state-"));
  });
  afterAll(async () => {
    await fs.rm(state, { recursive: true, force: true });
  });

  it("by default writes a random token to a 0600 file in the state dir, answers 401 + WWW-Authenticate without it, works with it, and removes the file at exit", async () => {
    const server = await startMcpHttp(
      ["--root", skills, "--no-exec"],
      { ...env, SKILLRT_STATE_DIR: state },
      60_000,
      true,
    );
    let file: string | undefined;
    try {
      const port = new URL(server.url).port;
      file = path.join(state, `mcp-http-${port}.token`);
      for (let i = 0; i < 50 && !server.stderr().includes("bearer token in"); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(server.stderr()).toContain(`bearer token in ${file} (mode 600`);
      const stat = await fs.stat(file);
      expect(stat.mode & 0o777).toBe(0o600);
      const token = (await fs.readFile(file, "utf8")).trim();
      // 32 random bytes, base64url.
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(server.stderr()).not.toContain(token);

      // Raw HTTP: no credential, a wrong one, a non-Bearer scheme, the token in the query string.
      const none = await initialize(server.url, {});
      expect(none.status).toBe(401);
      expect(none.headers["www-authenticate"]).toBe('Bearer realm="skillrt"');
      expect(none.body).toContain("Authorization: Bearer <token>");
      const wrong = await initialize(server.url, { Authorization: `Bearer ${token.slice(0, -1)}x` });
      expect(wrong.status).toBe(401);
      expect(wrong.headers["www-authenticate"]).toMatch(/^Bearer realm="skillrt", error="invalid_token"/);
      expect((await initialize(server.url, { Authorization: `Basic ${token}` })).status).toBe(401);
      expect((await initialize(`${server.url}?access_token=${token}`, {})).status).toBe(401);
      // A later request of a session needs the token too, not just the initialize.
      const ok = await initialize(server.url, { Authorization: `Bearer ${token}` });
      expect(ok.status).toBe(200);
      const sessionId = String(ok.headers["mcp-session-id"]);
      const get = await fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": sessionId } });
      expect(get.status).toBe(401);

      // The MCP SDK client: refused without the header, served with it.
      const connect = async (headers: Record<string, string>) => {
        const client = new Client({ name: "e2e", version: "1" });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }),
        );
        return client;
      };
      await expect(connect({})).rejects.toThrow(/401|Unauthorized/);
      const client = await connect({ Authorization: `Bearer ${token}` });
      const page = await client.request({ method: "skills/list", params: {} }, SkillsPage);
      expect(page.skills.map((s) => s.uri)).toContain("skill://csv-summary/SKILL.md");
      await client.close();
    } finally {
      expect(await server.stop()).toBe(0);
    }
    await expect(fs.stat(file!)).rejects.toThrow(/ENOENT/);
  }, 60_000);

  it("--token-file: refuses a file others can read, a symlink and another user's file; reads a private one", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-mcp-tf-"));
    try {
      const open = path.join(dir, "open.token");
      await fs.writeFile(open, `${TOKEN}\n`, { mode: 0o644 });
      await fs.chmod(open, 0o644);
      const readable = await runCli(["mcp", "--http", "--token-file", open, "--root", skills, "--no-exec"], {
        cwd: repo,
        env,
      });
      expect(readable.code).toBe(2);
      expect(readable.stderr).toContain(
        `--token-file ${open} can be read or written by other users (mode 644)`,
      );
      expect(readable.stderr).not.toContain(TOKEN);

      const link = path.join(dir, "link.token");
      const mine = path.join(dir, "mine.token");
      await fs.writeFile(mine, `${TOKEN}\n`, { mode: 0o600 });
      await fs.symlink(mine, link);
      const linked = await runCli(["mcp", "--http", "--token-file", link, "--root", skills, "--no-exec"], {
        cwd: repo,
        env,
      });
      expect(linked.code).toBe(2);
      expect(linked.stderr).toContain("is a symlink");

      if (process.getuid?.() === 0) {
        const theirs = path.join(dir, "theirs.token");
        await fs.writeFile(theirs, `${TOKEN}\n`, { mode: 0o600 });
        await fs.chown(theirs, 65534, 65534);
        const owned = await runCli(["mcp", "--http", "--token-file", theirs, "--root", skills, "--no-exec"], {
          cwd: repo,
          env,
        });
        expect(owned.code).toBe(2);
        expect(owned.stderr).toContain("is owned by uid 65534, not by you");
      }

      const short = path.join(dir, "short.token");
      await fs.writeFile(short, "abc\n", { mode: 0o600 });
      const weak = await runCli(["mcp", "--http", "--token-file", short, "--root", skills, "--no-exec"], {
        cwd: repo,
        env,
      });
      expect(weak.code).toBe(2);
      expect(weak.stderr).toContain("shorter than 32 characters");

      const server = await startMcpHttp(["--root", skills, "--no-exec", "--token-file", mine], env);
      try {
        expect((await initialize(server.url, { Authorization: `Bearer ${TOKEN}` })).status).toBe(200);
        expect((await initialize(server.url, {})).status).toBe(401);
      } finally {
        expect(await server.stop()).toBe(0);
      }
      // A token file the user gave is the user's: it is left in place.
      expect((await fs.readFile(mine, "utf8")).trim()).toBe(TOKEN);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("--no-auth is explicit, warns, is refused off loopback, and caps sessions per remote address", async () => {
    const offLoopback = await runCli(
      ["mcp", "--http", "--no-auth", "--host", "0.0.0.0", "--root", skills, "--no-exec"],
      { cwd: repo, env },
    );
    expect(offLoopback.code).toBe(2);
    expect(offLoopback.stderr).toContain("--no-auth is for loopback only");
    const both = await runCli(["mcp", "--http", "--no-auth", "--token-env", "X", "--root", skills], {
      cwd: repo,
      env,
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--token-env and --no-auth exclude each other");

    const server = await startMcpHttp(
      ["--root", skills, "--no-exec", "--no-auth", "--sessions-per-client", "2"],
      env,
    );
    try {
      for (let i = 0; i < 50 && !server.stderr().includes("--no-auth"); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(server.stderr()).toContain(
        "warning: --no-auth: no credential is required. Every user and process on this machine can read these skills and run their scripts as you",
      );
      expect((await initialize(server.url, {}, "127.0.0.1")).status).toBe(200);
      expect((await initialize(server.url, {}, "127.0.0.1")).status).toBe(200);
      const third = await initialize(server.url, {}, "127.0.0.1");
      expect(third.status).toBe(429);
      expect(third.body).toContain(
        "Too many sessions for this client: 2 are open, the limit per address is 2",
      );
      // Another address (another client) still gets its sessions.
      expect((await initialize(server.url, {}, "127.0.0.2")).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);

  it("one token holder hitting its session cap gets 429 with the fix; closing a session frees a slot", async () => {
    const server = await startMcpHttp(["--root", skills, "--no-exec", "--sessions-per-client", "2"], env);
    try {
      const clients: Array<{ client: Client; transport: StreamableHTTPClientTransport }> = [];
      const connect = async () => {
        const client = new Client({ name: "e2e", version: "1" });
        const transport = new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: server.headers },
        });
        await client.connect(transport);
        clients.push({ client, transport });
        return client;
      };
      await connect();
      await connect();
      await expect(connect()).rejects.toThrow(/429|Too many sessions for this client/);
      // DELETE of one session gives its slot back.
      await clients[0]!.transport.terminateSession();
      await clients[0]!.client.close();
      const again = await connect();
      expect((await again.listResources()).resources.length).toBeGreaterThan(0);
      for (const { client } of clients.slice(1)) await client.close();
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);
});
