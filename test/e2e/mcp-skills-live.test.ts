/**
 * Skills a server adds or removes while `skillrt chat` runs: `skillrt mcp --http --watch` (a real process,
 * behind its bearer token) sends `notifications/resources/list_changed`, chat re-reads that server's
 * `skills/list` in the running process, says so, and the next model request's catalog has the change —
 * with the origin named as before.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LoopbackProvider, loopbackEnv, startLoopbackProvider } from "./support/loopback-provider.js";
import { type McpHttpProcess, startMcpHttp } from "./support/mcp-http-server.js";
import { startTerminalChat } from "./support/terminal-chat.js";

let cwd: string;
let root: string;
let server: McpHttpProcess | undefined;
let provider: LoopbackProvider | undefined;

beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-mcp-live-"));
  root = path.join(cwd, "served");
  await mkdir(root);
});
afterEach(async () => {
  await provider?.close();
  await server?.stop();
  provider = undefined;
  server = undefined;
  await rm(cwd, { recursive: true, force: true });
});

async function skill(name: string, description: string): Promise<void> {
  await mkdir(path.join(root, name), { recursive: true });
  await writeFile(
    path.join(root, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`,
  );
}

const systemText = (body: any): string =>
  body.messages
    .filter((m: any) => m.role === "system")
    .map((m: any) => String(m.content))
    .join("\n");

describe("skills a server adds or removes while chat runs", { timeout: 120_000 }, () => {
  it("reach the next model request: an added skill joins the catalog, a removed one leaves it", async () => {
    await skill("alpha", "Alpha does the first thing.");
    // The server has a home of its own (the chat's state is not among what it watches).
    const serverHome = path.join(cwd, "server-home");
    await mkdir(serverHome);
    server = await startMcpHttp(["--root", root, "--no-exec", "--watch"], {
      PATH: process.env["PATH"] ?? "/usr/bin:/bin",
      HOME: serverHome,
      NO_COLOR: "1",
    });
    await mkdir(path.join(cwd, ".skillrt"), { recursive: true });
    await writeFile(
      path.join(cwd, ".skillrt", "config.json"),
      JSON.stringify({ mcpServers: { live: { type: "http", url: server.url, headers: server.headers } } }),
    );
    provider = await startLoopbackProvider("openai", [{ text: "one" }, { text: "two" }, { text: "three" }]);
    const chat = startTerminalChat([], { cwd, env: { ...loopbackEnv(provider), HOME: cwd, NO_COLOR: "1" } });
    await chat.waitFor(() => chat.output().includes("/help for commands"));
    chat.stdin.write("first\r");
    await chat.waitFor(() => provider!.requests.length === 1 && chat.output().includes("one"));

    await skill("beta", "Beta does the second thing.");
    await chat.waitFor(() => /Skills changed: added beta/.test(chat.output()), 2000);
    expect(chat.output()).toMatch(/Skills changed: added beta/);
    chat.stdin.write("second\r");
    await chat.waitFor(() => provider!.requests.length === 2 && chat.output().includes("two"));

    await rm(path.join(root, "alpha"), { recursive: true });
    await chat.waitFor(() => /Skills changed: removed alpha/.test(chat.output()), 2000);
    expect(chat.output()).toMatch(/Skills changed: removed alpha/);
    chat.stdin.write("third\r");
    await chat.waitFor(() => provider!.requests.length === 3 && chat.output().includes("three"));

    const [first, second, third] = provider.requests.map((r) => systemText(r.body));
    expect(first).toMatch(/alpha.*Alpha does the first thing\. \(from MCP server live\)/);
    expect(first).not.toContain("beta");
    expect(second).toMatch(/beta.*Beta does the second thing\. \(from MCP server live\)/);
    expect(second).toContain("alpha");
    expect(third).toContain("beta");
    expect(third).not.toContain("Alpha does the first thing");
    chat.stdin.write("/exit\r");
    expect(await chat.done).toBe(0);
  });
});
