/**
 * The real `bin/skillrt.js mcp` in a child process, driven by the real MCP SDK client over stdio:
 * tools answer, `skill_run` runs in the bubblewrap sandbox, stdout carries only protocol messages and
 * the process exits 0 when the client goes away.
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeSandbox } from "../../exec/create-executor.js";
import { compileDist } from "../__fixtures__/compile-dist.js";
import { fm, makeTempDir, writeSkill } from "../__fixtures__/skill-tree.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = path.join(repo, "bin", "skillrt.js");

let tmp: { dir: string; cleanup: () => Promise<void> };
let root: string;

beforeAll(async () => {
  await compileDist("mcp/create-skill-mcp-server.js");
  tmp = await makeTempDir("skillrt-mcp-");
  root = path.join(tmp.dir, "skills");
  await writeSkill(
    root,
    "greet",
    fm("greet", "Greets people by name."),
    "# Greet\n\nRun scripts/echo.sh NAME.\n",
    {
      "scripts/echo.sh": '#!/bin/sh\necho "hello $1 from $(pwd)"\n',
    },
  );
}, 120_000);

afterAll(async () => {
  await tmp.cleanup();
});

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === "text" ? first.text : "";
}

describe("skillrt mcp over stdio", () => {
  it.runIf(probeSandbox().ok)("loads a skill and runs its script in the sandbox", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, "mcp", "--root", root, "--executor", "sandbox"],
      cwd: tmp.dir,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    await client.connect(transport);
    let workspace: string | undefined;
    try {
      expect(client.getServerVersion()?.name).toBe("skillrt");
      const loaded = (await client.callTool({
        name: "skill_load",
        arguments: { name: "greet" },
      })) as CallToolResult;
      expect(loaded.isError).not.toBe(true);
      expect(textOf(loaded)).toMatch(/^<skill_content name="greet">/);
      expect(textOf(loaded)).toContain("Run scripts/echo.sh NAME.");

      const ran = (await client.callTool({
        name: "skill_run",
        arguments: { name: "greet", command: ["sh", "scripts/echo.sh", "sandbox"] },
      })) as CallToolResult;
      expect(ran.isError).not.toBe(true);
      expect(textOf(ran)).toContain("exit code: 0");
      // The sandbox runs the command in the workspace's view of the skill, not in the skill itself.
      expect(textOf(ran)).toMatch(/hello sandbox from \S*skillrt-ws-\S*\/skills\/greet/);
      workspace = /(\/\S*skillrt-ws-[^/\s]+)\/skills\/greet/.exec(textOf(ran))?.[1];
      expect(workspace).toBeDefined();
    } finally {
      await client.close();
    }
    expect(stderr).toContain("skillrt mcp: serving 1 skill(s)");
    expect(stderr).toContain("skill_run: sandbox");
    // The server (not the command) made the workspace, and deleted it before the process ended.
    const gone = async (): Promise<boolean> =>
      fs.stat(workspace ?? "").then(
        () => false,
        () => true,
      );
    for (let i = 0; i < 50 && !(await gone()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await gone()).toBe(true);
  });

  it("writes only protocol messages to stdout and exits 0 when the client closes stdin", async () => {
    const child = spawn(process.execPath, [bin, "mcp", "--root", root, "--no-exec"], {
      cwd: tmp.dir,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = once(child, "exit");
    const lines = createInterface({ input: child.stdout });
    const received: unknown[] = [];
    const send = (message: object): void => {
      child.stdin.write(`${JSON.stringify(message)}\n`);
    };
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    for await (const line of lines) {
      received.push(JSON.parse(line));
      if (received.length === 1) {
        send({ jsonrpc: "2.0", method: "notifications/initialized" });
        send({ jsonrpc: "2.0", id: 2, method: "prompts/list" });
      } else {
        child.stdin.end();
      }
    }
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(received).toMatchObject([
      { jsonrpc: "2.0", id: 1, result: { serverInfo: { name: "skillrt" } } },
      {
        jsonrpc: "2.0",
        id: 2,
        result: { prompts: [{ name: "greet", description: "Greets people by name." }] },
      },
    ]);
  });

  it("reports a bad option as a usage error", async () => {
    const child = spawn(process.execPath, [bin, "mcp", "--executor", "vm"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
    expect(stderr).toContain("skillrt mcp: --executor must be one of auto, sandbox, local, container");
  });

  it.each([
    [["--port", "80"], "--port needs --http"],
    [["--http", "--port", "70000"], "--port must be a whole number from 0 to 65535"],
    [["--http", "--host", "10.0.0.5"], "--host 10.0.0.5 is reachable from other machines"],
    [
      ["--http", "--token-env", "NO_SUCH_TOKEN_VAR"],
      "--token-env NO_SUCH_TOKEN_VAR: that environment variable is not set",
    ],
    [["--no-auth"], "--no-auth needs --http"],
    [["--token-file", "/tmp/x"], "--token-file needs --http"],
    [["--http", "--no-auth", "--token-file", "/tmp/x"], "--token-file and --no-auth exclude each other"],
    [["--http", "--sessions-per-client", "0"], "--sessions-per-client expects a positive integer, got '0'"],
    [["--http", "--host", "10.0.0.5", "--no-auth"], "--no-auth is for loopback only"],
  ])("reports HTTP option misuse %j as a usage error", async (args, message) => {
    const child = spawn(process.execPath, [bin, "mcp", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it("takes session filters and execution settings from skillrt.config.json in its cwd", async () => {
    const project = path.join(tmp.dir, "configured");
    await fs.mkdir(project);
    await writeSkill(path.join(project, "skills"), "hidden-one", fm("hidden-one", "Not for clients."));
    await writeSkill(path.join(project, "skills"), "other", fm("other", "Not loaded."));
    await fs.writeFile(
      path.join(project, "skillrt.config.json"),
      JSON.stringify({
        session: { deny: ["hidden-*"], activeSkills: ["greet"] },
        exec: { executor: "local", denyCommands: ["rm"], requireLoaded: true },
      }),
    );
    // The project's config may choose the local executor only once the user trusted the project.
    const env = { ...getDefaultEnvironment(), SKILLRT_STATE_DIR: path.join(tmp.dir, "state") };
    const trusted = spawnSync(process.execPath, [bin, "trust", project], { env, encoding: "utf8" });
    expect(trusted.stdout).toContain("skillrt.config.json");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, "mcp", "--root", root, "--root", path.join(project, "skills")],
      cwd: project,
      env,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    await client.connect(transport);
    const call = async (name: string, args: Record<string, unknown>): Promise<string> =>
      textOf((await client.callTool({ name, arguments: args })) as CallToolResult);
    try {
      expect(await call("skill_load", { name: "hidden-one" })).toMatch(/not found/i);
      expect(await call("skill_run", { name: "other", command: ["true"] })).toContain(
        "requires skill_load first",
      );
      expect(await call("skill_run", { name: "greet", command: ["rm", "-rf", "x"] })).toContain(
        "'rm' is on the deny list",
      );
      // greet is active (loaded at start), so requireLoaded lets it run; the output is saved as an artifact.
      const saved = await call("skill_run", {
        name: "greet",
        command: 'echo v > "$OUTPUT_DIR/v.txt"',
        outputs: { globs: ["out/v.txt"], save: true },
      });
      expect(saved).toContain("exit code: 0");
      expect(await fs.readdir(path.join(project, ".skillrt", "artifacts"))).toEqual(["out%2Fv%2Etxt"]);
    } finally {
      await client.close();
    }
    expect(stderr).toContain("skill_run: local");
  });
});
