import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { asSchema, type Tool } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { McpServerConfig, McpServersConfig } from "../../config/mcp-servers-config.js";
import { createToolRegistry, type ToolRegistry } from "../tool-registry.js";
import { type HttpTracker, startHttpTracker, trackerStdio } from "./__fixtures__/tracker.js";
import { createMcpToolSource, type McpSourceEvent, type McpToolSource } from "./create-mcp-tool-source.js";
import { type McpToolResult, mcpResultText } from "./mcp-tool-result.js";

/** `${env:NAME}`, built so the literal placeholder is not mistaken for a template. */
const envRef = (name: string): string => ["$", "{env:", name, "}"].join("");

let dir: string;
let source: McpToolSource | undefined;
let http: HttpTracker | undefined;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-mcp-"));
});
afterEach(async () => {
  await source?.close();
  await http?.stop();
  source = undefined;
  http = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function open(servers: McpServersConfig, env: Record<string, string | undefined> = {}) {
  const registry = createToolRegistry();
  const events: McpSourceEvent[] = [];
  source = createMcpToolSource({ servers, registry, env, onEvent: (e) => events.push(e) });
  await source.start();
  return { registry, events, source };
}

async function call(registry: ToolRegistry, name: string, input: unknown): Promise<McpToolResult> {
  const t = registry.get(name)?.tool as Tool;
  const parsed = await asSchema(t.inputSchema).validate?.(input);
  if (parsed !== undefined && !parsed.success) throw parsed.error;
  return (await t.execute?.(input, {
    toolCallId: "c1",
    messages: [],
    context: undefined,
  } as never)) as McpToolResult;
}

async function calls(file: string): Promise<unknown[]> {
  const text = await readFile(file, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

describe("MCP servers as a tool source", { timeout: 60_000 }, () => {
  it("stdio: registers mcp__<server>__<tool> with the server's schema, description and annotations; calls reach the server", async () => {
    const log = path.join(dir, "calls.jsonl");
    const { registry, events } = await open(
      { tracker: trackerStdio({ TRACKER_LOG: log, TRACKER_TOKEN: envRef("SECRET") }) },
      { SECRET: "s3cr3t" },
    );
    expect(registry.all().map((t) => [t.name, t.server])).toEqual([
      ["mcp__tracker__create_issue", "tracker"],
      ["mcp__tracker__delete_repo", "tracker"],
      ["mcp__tracker__snapshot", "tracker"],
      ["mcp__tracker__shutdown", "tracker"],
    ]);
    expect(events[0]).toMatchObject({ type: "mcp-server-start", server: "tracker", transport: "stdio" });
    const create = registry.get("mcp__tracker__create_issue")?.tool as Tool;
    expect(create.description).toContain("Create an issue in the tracker.");
    expect(registry.get("mcp__tracker__delete_repo")?.tool.description).toContain("(destructive)");
    expect(JSON.stringify(await asSchema(create.inputSchema).jsonSchema)).toContain('"required":["title"]');

    const result = await call(registry, "mcp__tracker__create_issue", { title: "Crash on save" });
    expect(result).toMatchObject({ isError: false, structuredContent: { id: 1, title: "Crash on save" } });
    // The secret reached the server's environment, not the model: the server only says it is set.
    expect(mcpResultText(result)).toBe("Created issue #1: Crash on save (token-set)");
    expect(await calls(log)).toEqual([
      { tool: "create_issue", input: { title: "Crash on save" }, authorization: null },
    ]);
  });

  it("validates arguments against the server's schema before the call", async () => {
    const log = path.join(dir, "calls.jsonl");
    const { registry } = await open({ tracker: trackerStdio({ TRACKER_LOG: log }) });
    await expect(call(registry, "mcp__tracker__create_issue", { priority: "urgent" })).rejects.toThrow(
      /arguments do not match the input schema of mcp__tracker__create_issue: .*title.*Fix the arguments/,
    );
    expect(await calls(log)).toEqual([]);
  });

  it("images and links become metadata, never bytes", async () => {
    const { registry } = await open({ tracker: trackerStdio() });
    const result = await call(registry, "mcp__tracker__snapshot", {});
    expect(mcpResultText(result)).toBe("[image, image/png, 14 B; not shown]\n[link, board, tracker://board]");
  });

  it("Streamable HTTP: headers with env references reach the server; tools work the same", async () => {
    const log = path.join(dir, "calls.jsonl");
    http = await startHttpTracker({ TRACKER_LOG: log });
    const { registry, events } = await open(
      { remote: http.config({ Authorization: `Bearer ${envRef("REMOTE_KEY")}` }) },
      { REMOTE_KEY: "k-123" },
    );
    expect(events[0]).toMatchObject({ type: "mcp-server-start", transport: "streamable-http" });
    const result = await call(registry, "mcp__remote__create_issue", {
      title: "From HTTP",
      priority: "high",
    });
    expect(mcpResultText(result)).toMatch(/^Created issue #1: From HTTP/);
    expect(await calls(log)).toEqual([
      {
        tool: "create_issue",
        input: { title: "From HTTP", priority: "high" },
        authorization: "Bearer k-123",
      },
    ]);
  });

  it("an HTTP server that only speaks SSE: the url alone falls back to SSE, and type sse goes straight to it", async () => {
    const log = path.join(dir, "calls.jsonl");
    http = await startHttpTracker({ TRACKER_LOG: log }, "sse");
    const { registry, events } = await open(
      {
        fallback: http.config({ Authorization: `Bearer ${envRef("KEY")}` }),
        direct: { type: "sse", url: http.url },
      },
      { KEY: "k-sse" },
    );
    expect(
      events
        .filter((e) => e.type === "mcp-server-start")
        .map((e) => [e.server, e.type === "mcp-server-start" && e.transport]),
    ).toEqual(
      expect.arrayContaining([
        ["fallback", "sse"],
        ["direct", "sse"],
      ]),
    );
    const result = await call(registry, "mcp__fallback__create_issue", { title: "Over SSE" });
    expect(mcpResultText(result)).toMatch(/^Created issue #1: Over SSE/);
    expect(await calls(log)).toEqual([
      { tool: "create_issue", input: { title: "Over SSE" }, authorization: "Bearer k-sse" },
    ]);
  });

  it("a server that cannot start is reported once with its output; the others still start", async () => {
    const { registry, events, source } = await open({
      broken: trackerStdio({}, ["--fail"]),
      missing: { command: path.join(dir, "no-such-server") },
      tracker: trackerStdio(),
    });
    const errors = events.filter((e) => e.type === "mcp-server-error");
    expect(errors).toHaveLength(2);
    expect(errors.find((e) => e.server === "broken")?.message).toMatch(
      /MCP server 'broken' .* could not start: .*cannot open database/,
    );
    expect(errors.find((e) => e.server === "missing")?.message).toMatch(/could not start/);
    expect(registry.all().every((t) => t.server === "tracker")).toBe(true);
    expect(source.servers().map((s) => [s.name, s.state])).toEqual([
      ["broken", "failed"],
      ["missing", "failed"],
      ["tracker", "running"],
    ]);
  });

  it("a server that dies mid-conversation: the call gets a clear result, one event, tools withdrawn", async () => {
    const { registry, events, source } = await open({ tracker: trackerStdio() });
    const result = await call(registry, "mcp__tracker__shutdown", {});
    expect(result.isError).toBe(true);
    expect(mcpResultText(result)).toMatch(/MCP server 'tracker' stopped during the call/);
    await expect.poll(() => events.filter((e) => e.type === "mcp-server-error").length).toBe(1);
    expect(events.find((e) => e.type === "mcp-server-error")).toMatchObject({
      phase: "exit",
      message: expect.stringMatching(/MCP server 'tracker' stopped \(tracker: shutting down on request\)/),
    });
    expect(registry.all()).toEqual([]);
    expect(source.servers()[0]).toMatchObject({ state: "stopped" });
  });

  it("a missing env reference variable is a warning and the value is left out; close() stops the process", async () => {
    const { registry, events, source } = await open({
      tracker: trackerStdio({ TRACKER_TOKEN: envRef("NOPE") }),
    });
    expect(events).toContainEqual({
      type: "mcp-server-warning",
      server: "tracker",
      message: `mcpServers.tracker.env.TRACKER_TOKEN uses ${envRef("NOPE")}, which is not set; left out`,
    });
    const result = await call(registry, "mcp__tracker__create_issue", { title: "x" });
    expect(result.text).toContain("(no-token)");
    await source.close();
    expect(registry.all()).toEqual([]);
    expect(source.servers()[0]?.state).toBe("stopped");
    expect(events.filter((e) => e.type === "mcp-server-error")).toEqual([]);
  });

  describe("a hostile server", () => {
    const TOKEN = "hostile-secret-9431";
    const hostile = (): McpServerConfig => ({
      command: process.execPath,
      args: [path.join(import.meta.dirname, "__fixtures__", "hostile-server.mjs")],
      env: { HOSTILE_TOKEN: envRef("HOSTILE_TOKEN") },
    });

    it("odd tool names become valid mcp__ names; huge descriptions are cut; a huge schema is left out, with a warning", async () => {
      const { registry, events } = await open({ evil: hostile() }, { HOSTILE_TOKEN: TOKEN });
      const names = registry.all().map((t) => t.name);
      expect(names).toEqual([
        "mcp__evil__flood",
        "mcp__evil__leak",
        "mcp__evil__crash",
        "mcp__evil__we_rd_n_me____x",
      ]);
      for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(registry.get("mcp__evil__flood")?.tool.description?.length).toBeLessThan(2_300);
      expect(registry.get("mcp__evil__flood")?.tool.description).toMatch(
        /description cut: the first 2,048 of/,
      );
      expect(events).toContainEqual({
        type: "mcp-server-warning",
        server: "evil",
        message: expect.stringMatching(
          /tool mcp__evil__giant_schema of MCP server 'evil' is left out: its input schema has \d+ bytes \(most 65536\)/,
        ),
      });
      expect(mcpResultText(await call(registry, "mcp__evil__we_rd_n_me____x", {}))).toBe("odd ok");
    });

    it("a 2,000,000-character answer is cut to 50,000 with a note", async () => {
      const { registry } = await open({ evil: hostile() }, { HOSTILE_TOKEN: TOKEN });
      const text = mcpResultText(await call(registry, "mcp__evil__flood", {}));
      expect(text.length).toBeLessThan(50_200);
      expect(text).toMatch(/\n\[output cut: the first 50,000 of 2,000,000 characters are shown\]$/);
    });

    it("its env secret never reaches the model or the user: text, structured content, links and its crash output are redacted", async () => {
      const { registry, events } = await open({ evil: hostile() }, { HOSTILE_TOKEN: TOKEN });
      const leak = await call(registry, "mcp__evil__leak", {});
      const shown = JSON.stringify(leak) + mcpResultText(leak);
      expect(shown).not.toContain(TOKEN);
      expect(leak.text).toBe("token=[redacted]"); // terminal escapes removed too
      expect(leak.structuredContent).toEqual({ token: "[redacted]", nested: { again: "x[redacted]x" } });
      expect(leak.attachments[0]?.uri).toBe("https://evil.example/?t=[redacted]");
      const crash = await call(registry, "mcp__evil__crash", {});
      expect(crash.isError).toBe(true);
      await expect.poll(() => events.filter((e) => e.type === "mcp-server-error").length).toBe(1);
      const exit = events.find((e) => e.type === "mcp-server-error");
      expect(exit?.message).toMatch(/stopped \(fatal: cannot authenticate with \[redacted\]\)/);
      expect(JSON.stringify(events) + JSON.stringify(crash)).not.toContain(TOKEN);
    });
  });
});
