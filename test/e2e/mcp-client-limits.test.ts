/**
 * MCP servers configured in skillrt.config.json, through the built `ask`: a stdio server gets the
 * launcher's registry variables (NODE_EXTRA_CA_CERTS), a call that never answers reaches the model as a
 * tool error at the server's timeoutMs, and a server that cannot start is reported with the variable
 * names it got. Then the built client in a process of its own against servers that flood it with
 * notifications (stdio and Streamable HTTP), its peak memory against the same run without the flood.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
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

const floodClient = path.resolve(import.meta.dirname, "support", "mcp-flood-client.mjs");

/**
 * Runs the built client in a child process against `server` (twice: one run's peak varies by 10-15 MB
 * with the garbage collector's timing); the result and the mean of the two peak RSS, in MB.
 */
async function floodRun(server: object): Promise<{ text: string; warnings: string[]; peakMb: number }> {
  const once = async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [floodClient, JSON.stringify(server)], {
      timeout: 90_000,
    });
    return JSON.parse(stdout) as { text: string; warnings: string[]; maxRssKb: number };
  };
  const first = await once();
  const second = await once();
  expect(second.text).toBe(first.text);
  return {
    text: first.text,
    warnings: first.warnings,
    peakMb: (first.maxRssKb + second.maxRssKb) / 2 / 1024,
  };
}

/** Starts the raw HTTP flood server with $FLOOD = `count`; its URL and the child. */
async function floodServer(count: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(fixtures, "flood-http-server.mjs")], {
    env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", FLOOD: String(count) },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
    });
    child.once("exit", (code) => reject(new Error(`flood server exited (${code})`)));
  });
  return { url, child };
}

describe("a flood of 100,000 notifications, the client in a process of its own", () => {
  const WARNING =
    "MCP server 'flood' sends more notifications than skillrt takes (50 a second after a burst of 200); the rest are dropped";

  it("over stdio: peak RSS at most 1.5x the same call without the flood, one warning", async () => {
    const rogue = (count: number) => ({
      command: process.execPath,
      args: [path.join(fixtures, "rogue-server.mjs")],
      env: { ROGUE_FLOOD: String(count) },
    });
    const baseline = await floodRun(rogue(0));
    const flooded = await floodRun(rogue(100_000));
    expect(baseline.text).toBe("flood done");
    expect(flooded.text).toBe("flood done");
    expect(baseline.warnings).toEqual([]);
    expect(flooded.warnings).toEqual([WARNING]);
    console.log(
      `stdio flood: peak RSS ${flooded.peakMb.toFixed(0)} MB, without it ${baseline.peakMb.toFixed(0)} MB`,
    );
    expect(flooded.peakMb).toBeLessThanOrEqual(baseline.peakMb * 1.5);
  }, 120_000);

  it("over Streamable HTTP (an event stream): peak RSS at most 1.5x the same call without the flood, one warning", async () => {
    const quiet = await floodServer(0);
    const loud = await floodServer(100_000);
    try {
      const baseline = await floodRun({ url: quiet.url });
      const flooded = await floodRun({ url: loud.url });
      expect(baseline.text).toBe("flood done");
      expect(flooded.text).toBe("flood done");
      expect(baseline.warnings).toEqual([]);
      expect(flooded.warnings).toEqual([WARNING]);
      console.log(
        `HTTP flood: peak RSS ${flooded.peakMb.toFixed(0)} MB, without it ${baseline.peakMb.toFixed(0)} MB`,
      );
      // Without the event-stream filter this run peaked at 284 MB against 110 MB (2.6x).
      expect(flooded.peakMb).toBeLessThanOrEqual(baseline.peakMb * 1.5);
    } finally {
      quiet.child.kill("SIGTERM");
      loud.child.kill("SIGTERM");
    }
  }, 120_000);
});
