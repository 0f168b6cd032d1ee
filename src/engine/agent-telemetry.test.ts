import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { OpenTelemetry } from "@ai-sdk/otel";
import { context, SpanStatusCode } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import type { Catalog } from "../catalog/types.js";
import { createExecutor } from "../exec/create-executor.js";
import { scriptedModel } from "../testing/scripted-model.js";
import { trackerStdio } from "../tools/mcp-client/__fixtures__/tracker.js";
import { createSkillAgent } from "./create-skill-agent.js";
import type { EngineEvent } from "./engine-event.js";

const SECRET = "s3cr3t-report-token-4471";

let dir: string;
let root: string;
let catalog: Catalog;
let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  // Spans nest across awaits only with a context manager (an application's OpenTelemetry setup registers one).
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  context.disable();
});
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-otel-"));
  root = path.join(dir, "skills");
  await mkdir(path.join(root, "report", "scripts"), { recursive: true });
  await writeFile(
    path.join(root, "report", "SKILL.md"),
    "---\nname: report\ndescription: Writes the weekly report with the reporting service token.\n---\n" +
      "Run `sh scripts/report.sh` to write the report.\n",
  );
  // The script prints its secret: the run's output shown to the model is redacted, and no span may carry it.
  await writeFile(
    path.join(root, "report", "scripts", "report.sh"),
    'echo "report written with token $REPORT_TOKEN"\n',
  );
  catalog = await createCatalog({ roots: [root] });
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});
afterEach(async () => {
  await provider.shutdown();
  await rm(dir, { recursive: true, force: true });
});

/** The spans as `name` → span (the first of each name), and a parent lookup. */
function tree(spans: ReadableSpan[]) {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const named = (name: string): ReadableSpan => {
    const span = spans.find((s) => s.name === name);
    if (span === undefined) throw new Error(`no span '${name}' among ${spans.map((s) => s.name).join(", ")}`);
    return span;
  };
  const parentOf = (span: ReadableSpan): ReadableSpan | undefined => {
    const id = span.parentSpanContext?.spanId;
    return id === undefined ? undefined : byId.get(id);
  };
  return { named, parentOf };
}

describe("OpenTelemetry spans of a turn", () => {
  it("one turn that loads a skill, runs its script, calls an MCP tool and delegates yields the GenAI span tree, without the skill's secret", async () => {
    const parentModel = scriptedModel([
      { toolCalls: [{ id: "call-load", name: "skill_load", input: '{"name":"report"}' }] },
      {
        toolCalls: [
          {
            id: "call-run",
            name: "skill_run",
            input: JSON.stringify({ name: "report", command: "sh scripts/report.sh" }),
          },
        ],
      },
      { toolCalls: [{ id: "call-mcp", name: "mcp__tracker__create_issue", input: '{"title":"report"}' }] },
      {
        toolCalls: [
          {
            id: "call-agent",
            name: "agent_run",
            input: JSON.stringify({ agent: "helper", task: "Check it." }),
          },
        ],
      },
      { text: "Report written, issue filed, checked." },
    ]);
    const childModel = scriptedModel([{ text: "Looks fine." }]);
    const { executor } = createExecutor({ kind: "sandbox" });
    const agent = await createSkillAgent({
      model: parentModel,
      catalog,
      executor,
      run: { environment: { skillEnv: { report: { REPORT_TOKEN: SECRET } } } },
      mcpServers: { tracker: trackerStdio() },
      toolGating: "open",
      approval: { onApproval: () => "always" },
      agents: { helper: { description: "Checks work.", skills: [], model: "child-model", maxSteps: 3 } },
      delegation: { models: { "child-model": childModel } },
      tracerProvider: provider,
    });
    const events: EngineEvent[] = [];
    agent.subscribe((e) => events.push(e));
    try {
      const result = await agent.send("Write the report, file an issue and have it checked.");
      expect(result.text).toBe("Report written, issue filed, checked.");
    } finally {
      await agent.close();
    }
    const spans = exporter.getFinishedSpans();
    const { named, parentOf } = tree(spans);

    // The turn: invoke_agent, the root of one trace.
    const turn = named("invoke_agent skillrt");
    expect(parentOf(turn)).toBeUndefined();
    expect(turn.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "skillrt",
      "gen_ai.conversation.id": agent.sessionId,
      "gen_ai.usage.input_tokens": 50,
      "gen_ai.usage.output_tokens": 25,
    });
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([turn.spanContext().traceId]));
    // The inspector's link: turn-start carries the trace id.
    expect(events.find((e) => e.type === "turn-start")).toMatchObject({
      traceId: turn.spanContext().traceId,
    });

    // Five model calls of the parent, each a chat span under the turn, with usage and finish reason.
    const chats = spans.filter((s) => s.name.startsWith("chat ") && parentOf(s) === turn);
    expect(chats).toHaveLength(5);
    expect(chats.map((s) => s.attributes["gen_ai.response.finish_reasons"])).toEqual([
      ["tool-calls"],
      ["tool-calls"],
      ["tool-calls"],
      ["tool-calls"],
      ["stop"],
    ]);
    expect(chats[0]?.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": parentModel.modelId,
      "gen_ai.usage.input_tokens": 10,
      "gen_ai.usage.output_tokens": 5,
    });

    // The load: its tool span named as the skill proposal names it, with the skill's name, origin and URI.
    const load = named("skill_load report");
    expect(parentOf(load)).toBe(turn);
    expect(load.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "skill_load",
      "gen_ai.tool.call.id": "call-load",
      "gen_ai.skill.name": "report",
      "gen_ai.skill.source.uri": `file://${path.join(root, "report")}`,
      "skillrt.skill.origin": `fs:${root}`,
    });
    expect(parentOf(named("skill.load report"))).toBe(load);

    // The run: execute_tool skill_run → skill_run report (exit code, duration, sandbox kind).
    const runTool = named("execute_tool skill_run");
    expect(parentOf(runTool)).toBe(turn);
    expect(runTool.attributes).toMatchObject({
      "gen_ai.tool.call.id": "call-run",
      "gen_ai.skill.name": "report",
    });
    const run = named("skill_run report");
    expect(parentOf(run)).toBe(runTool);
    expect(run.attributes).toMatchObject({
      "process.exit.code": 0,
      "skillrt.run.timed_out": false,
      "skillrt.run.executor": "sandbox",
      "gen_ai.skill.name": "report",
    });
    expect(run.attributes["skillrt.run.duration_ms"]).toBeTypeOf("number");
    expect(run.status.code).not.toBe(SpanStatusCode.ERROR);

    // The MCP call: execute_tool → the MCP client span tools/call.
    const mcpTool = named("execute_tool mcp__tracker__create_issue");
    expect(parentOf(mcpTool)).toBe(turn);
    expect(mcpTool.attributes).toMatchObject({
      "gen_ai.tool.type": "extension",
      "gen_ai.tool.call.id": "call-mcp",
    });
    const call = named("tools/call create_issue");
    expect(parentOf(call)).toBe(mcpTool);
    expect(call.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "skillrt.mcp.server": "tracker",
    });

    // The subagent: invoke_agent helper under the delegating tool span, with its own chat span.
    const delegating = named("execute_tool agent_run");
    expect(parentOf(delegating)).toBe(turn);
    const child = named("invoke_agent helper");
    expect(parentOf(child)).toBe(delegating);
    expect(child.attributes).toMatchObject({ "gen_ai.agent.name": "helper" });
    const childChat = spans.find((s) => s.name.startsWith("chat ") && parentOf(s) === child);
    expect(childChat?.attributes).toMatchObject({ "gen_ai.request.model": childModel.modelId });

    // The secret is in no attribute, no status message and no event of any span.
    expect(spans.length).toBeGreaterThan(12);
    for (const span of spans) {
      const text = JSON.stringify([span.name, span.attributes, span.status, span.events]);
      expect(text).not.toContain(SECRET);
    }
  });

  it("with no context manager registered, tool calls and a subagent's turn still nest under the turn", async () => {
    context.disable();
    try {
      const agent = await createSkillAgent({
        model: scriptedModel([
          {
            toolCalls: [
              { id: "d1", name: "agent_run", input: JSON.stringify({ agent: "helper", task: "Check." }) },
            ],
          },
          { text: "checked" },
        ]),
        catalog,
        agents: { helper: { description: "Checks work.", skills: [], model: "child-model", maxSteps: 2 } },
        delegation: { models: { "child-model": scriptedModel([{ text: "fine" }]) } },
        tracerProvider: provider,
      });
      try {
        await agent.send("check it");
      } finally {
        await agent.close();
      }
    } finally {
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    }
    const { named, parentOf } = tree(exporter.getFinishedSpans());
    const turn = named("invoke_agent skillrt");
    const delegating = named("execute_tool agent_run");
    expect(parentOf(delegating)).toBe(turn);
    expect(parentOf(named("invoke_agent helper"))).toBe(delegating);
  });

  it("the AI SDK's own spans (experimental_telemetry) nest under skillrt's turn span", async () => {
    const model = scriptedModel([{ text: "hello" }]);
    const agent = await createSkillAgent({
      model,
      catalog,
      tracerProvider: provider,
      callOptions: {
        experimental_telemetry: { integrations: [new OpenTelemetry({ tracer: provider.getTracer("ai") })] },
      },
    });
    try {
      await agent.send("hi");
    } finally {
      await agent.close();
    }
    const spans = exporter.getFinishedSpans();
    const { named, parentOf } = tree(spans);
    const turn = named("invoke_agent skillrt");
    const sdk = spans.filter((s) => s.instrumentationScope.name === "ai");
    expect(sdk.length).toBeGreaterThan(0);
    // Every AI SDK span is in the turn's trace, its topmost one a child of the turn span.
    for (const span of sdk) expect(span.spanContext().traceId).toBe(turn.spanContext().traceId);
    expect(sdk.some((s) => parentOf(s) === turn)).toBe(true);
  });

  it("a tool call that fails sets the error status of its span", async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: "c1", name: "skill_load", input: '{"name":"nope"}' }] },
      { text: "sorry" },
    ]);
    const agent = await createSkillAgent({ model, catalog, tracerProvider: provider });
    try {
      await agent.send("load nope");
    } finally {
      await agent.close();
    }
    const failed = tree(exporter.getFinishedSpans()).named("execute_tool skill_load");
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed.attributes["error.type"]).toBe("tool_error");
  });
});
