/**
 * A rogue MCP server (a real stdio process speaking raw JSON-RPC): one invalid tool schema among ten tools,
 * a call that never answers, 100,000 notifications, and a skills listing longer than the cap.
 */
import path from "node:path";
import { asSchema, type Tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import type { McpServerConfig } from "../../config/mcp-servers-config.js";
import { openToolSources, type ToolSources } from "../../engine/open-tool-sources.js";
import { createToolRegistry, type ToolRegistry } from "../tool-registry.js";
import { createMcpToolSource, type McpSourceEvent, type McpToolSource } from "./create-mcp-tool-source.js";
import { type McpToolResult, mcpResultText } from "./mcp-tool-result.js";

const rogue = (extra: Partial<McpServerConfig> = {}, env: Record<string, string> = {}): McpServerConfig =>
  ({
    command: process.execPath,
    args: [path.join(import.meta.dirname, "__fixtures__", "rogue-server.mjs")],
    env,
    ...extra,
  }) as McpServerConfig;

let source: McpToolSource | undefined;
afterEach(async () => {
  await source?.close();
  source = undefined;
});

async function open(config: McpServerConfig) {
  const registry = createToolRegistry();
  const events: McpSourceEvent[] = [];
  source = createMcpToolSource({
    servers: { rogue: config },
    registry,
    env: {},
    onEvent: (e) => events.push(e),
  });
  await source.start();
  return { registry, events };
}

async function call(registry: ToolRegistry, name: string): Promise<McpToolResult> {
  const t = registry.get(name)?.tool as Tool;
  const parsed = await asSchema(t.inputSchema).validate?.({});
  if (parsed !== undefined && !parsed.success) throw parsed.error;
  return (await t.execute?.({}, {
    toolCallId: "c1",
    messages: [],
    context: undefined,
  } as never)) as McpToolResult;
}

describe("a rogue MCP server", { timeout: 120_000 }, () => {
  it("one invalid tool schema among ten: that tool is left out with a warning, the nine others are offered", async () => {
    const { registry, events } = await open(rogue());
    const names = registry.all().map((t) => t.name);
    expect(names).toHaveLength(9);
    expect(names).not.toContain("mcp__rogue__bad_schema");
    expect(names).toContain("mcp__rogue__tool_0");
    expect(events).toContainEqual({
      type: "mcp-server-warning",
      server: "rogue",
      message:
        "tool 'bad_schema' of MCP server 'rogue' is left out: its definition is invalid (inputSchema.type: Invalid input: expected \"object\"); its other tools are offered",
    });
    expect(mcpResultText(await call(registry, "mcp__rogue__tool_3"))).toBe("ok tool_3");
  });

  it("a call that never answers ends as a tool error at the server's timeoutMs, and the server stays usable", async () => {
    const { registry } = await open(rogue({ timeoutMs: 1_500 }));
    const start = Date.now();
    const result = await call(registry, "mcp__rogue__never");
    const elapsed = Date.now() - start;
    expect(result.isError).toBe(true);
    expect(mcpResultText(result)).toContain(
      "mcp__rogue__never did not answer within 1.5 s, so the call was cancelled (the limit is mcpServers.rogue.timeoutMs)",
    );
    expect(elapsed).toBeGreaterThanOrEqual(1_500);
    expect(elapsed).toBeLessThan(3_000);
    expect(mcpResultText(await call(registry, "mcp__rogue__tool_1"))).toBe("ok tool_1");
    console.log(`never-answering MCP call ended as a tool error after ${elapsed} ms (timeoutMs 1500)`);
  });

  it("100,000 notifications during a call: memory stays within 50 MB of the baseline, the excess is dropped with one warning", async () => {
    const { registry, events } = await open(rogue());
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const start = Date.now();
    const result = await call(registry, "mcp__rogue__flood");
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const elapsed = Date.now() - start;
    const deltaMb = (peak - baseline) / 1024 / 1024;
    expect(mcpResultText(result)).toBe("flood done");
    expect(deltaMb).toBeLessThan(50);
    const warnings = events.filter(
      (e) => e.type === "mcp-server-warning" && e.message.includes("notifications"),
    );
    expect(warnings).toHaveLength(1);
    expect(mcpResultText(await call(registry, "mcp__rogue__tool_2"))).toBe("ok tool_2");
    console.log(
      `100,000 notifications: peak RSS +${deltaMb.toFixed(1)} MB over ${(baseline / 1024 / 1024).toFixed(0)} MB, ${elapsed} ms`,
    );
  });

  it("a flood right after it starts does not stop its tools from being listed", async () => {
    const { registry } = await open(rogue({}, { ROGUE_FLOOD_AT_START: "1", ROGUE_FLOOD: "20000" }));
    expect(registry.all()).toHaveLength(9);
  });
});

describe("an MCP server listing more skills than the cap", { timeout: 60_000 }, () => {
  const server = (skills: number, extra: Partial<McpServerConfig> = {}): McpServerConfig =>
    ({
      command: process.execPath,
      args: [path.join(import.meta.dirname, "__fixtures__", "many-skills-server.mjs")],
      env: { SKILLS: String(skills), PAGE: "100" },
      ...extra,
    }) as McpServerConfig;
  let sources: ToolSources | undefined;
  afterEach(async () => {
    await sources?.close();
    sources = undefined;
  });
  const open = async (config: McpServerConfig, maxMcpSkills?: number) => {
    const warnings: string[] = [];
    sources = openToolSources(
      { onWarning: (message) => warnings.push(message) },
      {
        env: {},
        config: { mcpServers: { big: config } },
        ...(maxMcpSkills === undefined ? {} : { maxMcpSkills }),
      },
    );
    await sources.start();
    return { skills: sources.skills.skills(), warnings };
  };

  it("mcpServers.X.maxSkills: the listing stops at the cap, with one warning naming the server", async () => {
    const { skills, warnings } = await open(server(100_000, { maxSkills: 250 } as Partial<McpServerConfig>));
    expect(skills).toHaveLength(250);
    expect(skills.at(-1)?.entry.frontmatter.name).toBe("s249");
    expect(warnings).toEqual([
      "MCP server 'big' lists more than 250 skills; only the first 250 are offered (raise mcpServers.big.maxSkills to see more)",
    ]);
  });

  it("the global cap applies to a server without its own, and a listing under it is read whole without a warning", async () => {
    const capped = await open(server(1_000), 300);
    expect(capped.skills).toHaveLength(300);
    expect(capped.warnings).toEqual([
      "MCP server 'big' lists more than 300 skills; only the first 300 are offered (raise mcpServers.big.maxSkills to see more)",
    ]);
    await sources?.close();
    const whole = await open(server(1_000));
    expect(whole.skills).toHaveLength(1_000);
    expect(whole.warnings).toEqual([]);
  });
});
