/**
 * Progress of long tool calls reaches the user, not the model: a real MCP server (stdio, the MCP SDK) that
 * sends progress notifications during its tool call, shown on chat's status line on a terminal and as
 * `tool-progress` JSON lines by `ask --json`; and a `skill_run` whose script prints as it goes. The
 * scripted model's requests hold only the results.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LoopbackProvider, loopbackEnv, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, runCli } from "./support/run-cli.js";
import { startTerminalChat } from "./support/terminal-chat.js";

const PROGRESS_SERVER = path.resolve(
  import.meta.dirname,
  "../../src/tools/mcp-client/__fixtures__/progress-server.mjs",
);

let cwd: string;
let provider: LoopbackProvider | undefined;

beforeAll(() => assertBuilt());
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-progress-"));
  const skill = path.join(cwd, "skills", "slow-report");
  await mkdir(path.join(skill, "scripts"), { recursive: true });
  await writeFile(
    path.join(skill, "SKILL.md"),
    "---\nname: slow-report\ndescription: Build the weekly report (slow).\n---\n\nRun `sh scripts/report.sh`.\n",
  );
  await writeFile(
    path.join(skill, "scripts", "report.sh"),
    "echo 'reading 3 files'\nsleep 1\necho 'summing columns'\nsleep 1\necho 'writing report.md'\n",
  );
  await chmod(path.join(skill, "scripts", "report.sh"), 0o755);
  // The user's own config (HOME is the cwd): an untrusted project's file could not set these.
  await mkdir(path.join(cwd, ".skillrt"), { recursive: true });
  await writeFile(
    path.join(cwd, ".skillrt", "config.json"),
    JSON.stringify({
      mcpServers: { build: { command: process.execPath, args: [PROGRESS_SERVER] } },
      tools: { gating: "open", allow: ["mcp__build__compile"] },
    }),
  );
});
afterEach(async () => {
  await provider?.close();
  provider = undefined;
  await rm(cwd, { recursive: true, force: true });
});

describe("progress of long tool calls", { timeout: 60_000 }, () => {
  it("chat on a terminal shows the MCP server's progress messages on its status line", async () => {
    provider = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "mcp__build__compile", input: {} }] },
      { text: "Built." },
    ]);
    const { stdin, output, waitFor, done } = startTerminalChat(["--root", "skills"], {
      cwd,
      env: {
        ...loopbackEnv(provider),
        HOME: cwd,
        NO_COLOR: "1",
        PATH: process.env["PATH"] ?? "/usr/bin:/bin",
      },
      columns: 120,
    });
    await waitFor(() => output().includes("/help for commands"));
    stdin.write("build the project\n");
    await waitFor(() => output().includes("Built."));
    stdin.write("/exit\n");
    expect(await done).toBe(0);
    const out = output();
    // The first report always shows. (A notification that reaches the client in one read with the result
    // is dropped by the MCP SDK, which forgets the call's progress handler with the result: under load the
    // last one may be missing.)
    expect(out).toContain("running mcp__build__compile… 1/3 compiling lexer.ts");
    expect(out.indexOf("1/3 compiling lexer.ts")).toBeLessThan(out.indexOf("✓ mcp__build__compile"));
    // The model saw the result, never the progress.
    const second = JSON.stringify(provider.requests[1]?.body.messages);
    expect(second).toContain("compiled 3 files");
    expect(second).not.toContain("(progress token: none)");
    expect(second).not.toContain("compiling lexer.ts");
  });

  it("ask --json carries tool-progress lines for an MCP call and for a skill_run that prints as it goes", async () => {
    provider = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "mcp__build__compile", input: {} }] },
      { toolCalls: [{ name: "skill_load", input: { name: "slow-report" } }] },
      { toolCalls: [{ name: "skill_run", input: { name: "slow-report", command: "sh scripts/report.sh" } }] },
      { text: "Report written." },
    ]);
    const run = await runCli(["ask", "--root", "skills", "--executor", "local", "--json", "weekly report"], {
      cwd,
      env: loopbackEnv(provider),
      timeoutMs: 50_000,
    });
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.code).toBe(0);
    const events = run.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l));
    const progress = events.filter((e) => e.type === "tool-progress");
    const mcp = progress.filter((e) => e.toolName === "mcp__build__compile");
    // The server reports 300 ms apart: the first report always arrives, the rest in order (reports closer
    // than 250 ms are thinned, and the SDK drops one that arrives in one read with the result).
    const reported = mcp.map((e) => `${e.progress}/${e.total} ${e.message}`);
    const sent = ["1/3 compiling lexer.ts", "2/3 compiling parser.ts", "3/3 linking"];
    expect(reported[0]).toBe(sent[0]);
    expect(reported.map((r) => sent.indexOf(r))).toEqual([...reported.map((r) => sent.indexOf(r))].sort());
    expect(sent).toEqual(expect.arrayContaining(reported));
    // The script's lines, as it printed them a second apart.
    const runs = progress.filter((e) => e.toolName === "skill_run").map((e) => e.message);
    expect(runs[0]).toBe("reading 3 files");
    expect(runs.at(-1)).toBe("writing report.md");
    expect(runs).toContain("summing columns");
    // Every progress event belongs to a call of this turn and comes before its result.
    for (const event of progress) {
      const call = events.findIndex((e) => e.type === "tool-call" && e.toolCallId === event.toolCallId);
      const result = events.findIndex((e) => e.type === "tool-result" && e.toolCallId === event.toolCallId);
      expect(call).toBeGreaterThanOrEqual(0);
      expect(events.indexOf(event)).toBeGreaterThan(call);
      expect(events.indexOf(event)).toBeLessThan(result);
    }
    const last = JSON.stringify(provider.requests.at(-1)?.body.messages);
    expect(last).toContain("writing report.md");
    expect(last).not.toContain("tool-progress");
  });
});
