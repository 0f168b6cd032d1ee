/**
 * MCP servers configured in skillrt.config.json, through the built `ask`: a stdio server gets the
 * launcher's registry variables (NODE_EXTRA_CA_CERTS), a call that never answers reaches the model as a
 * tool error at the server's timeoutMs, and a server that cannot start is reported with the variable
 * names it got.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, runCli, writeTrustedConfig } from "./support/run-cli.js";

const fixtures = path.resolve(import.meta.dirname, "../../src/tools/mcp-client/__fixtures__");
const examples = path.resolve(import.meta.dirname, "../../examples/skills");
let cwd: string;
let server: LoopbackProvider | undefined;

beforeAll(() => assertBuilt());
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-mcp-limits-"));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(cwd, { recursive: true, force: true });
});

async function ask(mcpServers: object, env: Record<string, string> = {}) {
  await writeTrustedConfig(cwd, { mcpServers });
  return runCli(["ask", "--root", examples, "--yes", "go"], {
    cwd,
    env: { OPENAI_BASE_URL: server!.baseURL, OPENAI_API_KEY: "k", AGENT_MODEL: "m", ...env },
  });
}

/** The tool results the provider received in its last request. */
function toolText(): string {
  const body = server!.requests.at(-1)!.body;
  return body.messages
    .filter((m: any) => m.role === "tool")
    .map((m: any) => String(m.content))
    .join("\n");
}

describe("MCP servers from the config, through ask", () => {
  it("a stdio server gets NODE_EXTRA_CA_CERTS from the host (and not the host's other variables)", async () => {
    server = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "mcp__env__env_names", input: {} }] },
      { text: "done" },
    ]);
    const ca = path.join(cwd, "corp-ca.pem");
    const run = await ask(
      { env: { command: process.execPath, args: [path.join(fixtures, "env-report-server.mjs")] } },
      { NODE_EXTRA_CA_CERTS: ca, UNRELATED_SECRET: "s3cret" },
    );
    expect(run.code).toBe(0);
    const text = toolText();
    expect(text).toContain("NODE_EXTRA_CA_CERTS");
    expect(text).toContain(`CA=${ca}`);
    expect(text).not.toContain("UNRELATED_SECRET");
  }, 60_000);

  it("a call that never answers is a tool error at mcpServers.X.timeoutMs; the turn goes on", async () => {
    server = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "mcp__rogue__never", input: {} }] },
      { text: "It timed out." },
    ]);
    const run = await ask({
      rogue: { command: process.execPath, args: [path.join(fixtures, "rogue-server.mjs")], timeoutMs: 1_000 },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("It timed out.");
    expect(run.stderr).toContain("tool 'bad_schema' of MCP server 'rogue' is left out");
    expect(run.stderr).toContain("✗ mcp__rogue__never");
    // Open gating (the default profile's): the nine tools are one line, not nine.
    expect(run.stderr).toMatch(/^\+ 9 tools \(tool gating is open\): mcp__rogue__tool_0, /m);
    expect(run.stderr).not.toContain("+ tool mcp__rogue__");
    expect(toolText()).toContain("mcp__rogue__never did not answer within 1 s, so the call was cancelled");
    const offered = server.requests[0]!.body.tools.map((t: any) => t.function.name);
    expect(offered.filter((n: string) => n.startsWith("mcp__rogue__"))).toHaveLength(9);
  }, 60_000);

  it("a server that cannot start: one line naming the variables it got and how to pass more", async () => {
    server = await startLoopbackProvider("openai", [{ text: "fine without it" }]);
    const run = await ask(
      {
        broken: {
          command: process.execPath,
          args: ["-e", "console.error('E403 registry'); process.exit(1)"],
        },
      },
      { HTTPS_PROXY: "http://user:pw@proxy:3128" },
    );
    expect(run.code).toBe(0);
    const line = run.stderr.split("\n").find((l) => l.includes("MCP server 'broken'")) ?? "";
    expect(line).toContain("could not start");
    expect(line).toContain("its last output: E403 registry");
    expect(line).toMatch(/It got the environment variables .*HTTPS_PROXY/);
    expect(line).toContain('pass more with "env" in mcpServers.broken');
    expect(run.stderr).not.toContain("user:pw");
  }, 60_000);
});
