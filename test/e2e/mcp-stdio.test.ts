/**
 * `skillrt mcp` as a real process on stdio: the MCP SDK client over stdio gets structured results, and
 * oversized or malformed input is logged to stderr while the server keeps serving.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "./support/run-cli.js";

const repo = path.resolve(import.meta.dirname, "../..");
const bin = path.join(repo, "bin", "skillrt.js");
const skills = path.join(repo, "examples", "skills");
// HOME is the checkout (no user skills); the metadata cache is off so nothing is left in it.
const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: repo, NO_COLOR: "1", SKILLRT_CACHE: "0" };

beforeAll(() => assertBuilt());

describe("skillrt mcp over stdio", () => {
  it("answers the SDK client: isError for a failed call, structuredContent for skill_run", async () => {
    const client = new Client({ name: "e2e", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, "mcp", "--root", skills, "--executor", "local"],
        env,
        stderr: "ignore",
      }),
    );
    try {
      const failed = (await client.callTool({
        name: "skill_load",
        arguments: { name: "nope" },
      })) as CallToolResult;
      expect(failed.isError).toBe(true);
      const ran = (await client.callTool({
        name: "skill_run",
        arguments: { name: "csv-summary", command: "echo hi; exit 2" },
      })) as CallToolResult;
      expect(ran.isError).toBeFalsy();
      expect(ran.structuredContent).toMatchObject({ skill: "csv-summary", exit_code: 2, stdout: "hi\n" });
    } finally {
      await client.close();
    }
  }, 60_000);

  it("logs an oversized and a malformed message to stderr and keeps serving", async () => {
    const child = spawn(process.execPath, [bin, "mcp", "--root", skills, "--no-exec"], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    child.stdin.write(
      `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"x":"${"a".repeat(11 * 1024 * 1024)}"}}\n`,
    );
    child.stdin.write("this is not json\n");
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} })}\n`);
    for (let i = 0; i < 300 && !stdout.includes('"id":2'); i++) await new Promise((r) => setTimeout(r, 100));
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/skipped a message of 11\.0 MiB, over the 10\.0 MiB limit/);
    expect(stderr).toMatch(/skipped a malformed message .*not JSON/);
    const replies = stdout
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as { id?: number; result?: { tools?: unknown[] }; error?: { code: number } },
      );
    expect(replies.filter((r) => r.error !== undefined).map((r) => r.error?.code)).toEqual([-32600, -32700]);
    expect(replies.find((r) => r.id === 2)?.result?.tools?.length).toBeGreaterThan(0);
  }, 60_000);
});
