import type { ModelMessage } from "ai";
import { APICallError, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedModel, systemOf, toolNamesOf } from "../test-kit.js";
import { tinySession } from "./__fixtures__/tiny-session.js";
import type { EngineEvent } from "./engine-event.js";
import { ProviderError } from "./provider-error.js";
import { runAgent } from "./run-agent.js";

const user = (text: string): ModelMessage[] => [{ role: "user", content: text }];

describe("runAgent", () => {
  it("re-renders the catalog every step, shows the body only after a load, and re-gates tools", async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: "skill_load", input: '{"name":"pdf"}' }] },
      { text: "Done with pdf." },
    ]);
    const { session, skillTools } = await tinySession({ pdf: "PDF BODY", csv: "CSV BODY" });
    // A gating policy that depends on the state: the engine asks for it again every step.
    skillTools.activeToolNames = () =>
      session.loadedSkills().length > 0 ? ["skill_load", "skill_unload"] : ["skill_load"];
    const events: EngineEvent[] = [];
    const result = await runAgent({
      model,
      session,
      skillTools,
      messages: user("read a pdf"),
      onEvent: (e) => events.push(e),
    });

    expect(result.text).toBe("Done with pdf.");
    expect(result.steps).toBe(2);
    expect(model.calls).toHaveLength(2);
    const [first, second] = model.calls;
    expect(systemOf(first!)).toContain("- pdf: about pdf");
    expect(systemOf(first!)).not.toContain("PDF BODY");
    expect(toolNamesOf(first!)).toEqual(["skill_load"]);
    expect(systemOf(second!)).toContain("PDF BODY");
    expect(toolNamesOf(second!).sort()).toEqual(["skill_load", "skill_unload"]);

    const types = events.map((e) => e.type);
    expect(types).toEqual([
      "step-start",
      "tool-call",
      "skill-load",
      "tool-result",
      "step-end",
      "step-start",
      ...Array(types.filter((t) => t === "text-delta").length).fill("text-delta"),
      "step-end",
    ]);
    const end = events.find((e) => e.type === "step-end");
    expect(end).toMatchObject({ usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } });
    expect(result.usage.totalTokens).toBe(30);
    // assistant tool call, tool result, final assistant text
    expect(result.messages.map((m) => m.role)).toEqual(["assistant", "tool", "assistant"]);
  });

  it("turns malformed tool input into an error result the model sees, and goes on", async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: "skill_load", input: '{"name": "pdf"' }] },
      { toolCalls: [{ name: "skill_load", input: '{"name":"pdf"}' }] },
      { text: "recovered" },
    ]);
    const events: EngineEvent[] = [];
    const result = await runAgent({
      model,
      ...(await tinySession({ pdf: "PDF BODY" })),
      messages: user("go"),
      onEvent: (e) => events.push(e),
    });
    expect(result.text).toBe("recovered");
    const results = events.filter((e) => e.type === "tool-result");
    expect(results[0]).toMatchObject({ isError: true, toolName: "skill_load" });
    expect(results[1]).toMatchObject({ isError: false, toolName: "skill_load" });
    expect(JSON.stringify(results[1])).toContain("pdf");
    const secondPrompt = JSON.stringify(model.calls[1]!.prompt);
    expect(secondPrompt).toMatch(/error/i);
  });

  it("runs the tool calls of one step in parallel", async () => {
    let running = 0;
    let peak = 0;
    const slow = tool({
      description: "slow",
      inputSchema: z.object({ n: z.number() }),
      execute: async ({ n }) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 30));
        running--;
        return n;
      },
    });
    const model = scriptedModel([
      {
        toolCalls: [
          { name: "slow", input: '{"n":1}' },
          { name: "slow", input: '{"n":2}' },
          { name: "slow", input: '{"n":3}' },
        ],
      },
      { text: "ok" },
    ]);
    await runAgent({ model, tools: { slow }, messages: user("go") });
    expect(peak).toBe(3);
  });

  it("stops at the step limit", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: "skill_load", input: '{"name":"x"}' }] }]);
    const events: EngineEvent[] = [];
    const result = await runAgent({
      model,
      ...(await tinySession({ x: "X" })),
      messages: user("loop"),
      maxSteps: 3,
      onEvent: (e) => events.push(e),
    });
    expect(model.calls).toHaveLength(3);
    expect(result.steps).toBe(3);
    expect(result.stepLimitReached).toBe(true);
    expect(events.at(-1)).toEqual({ type: "step-limit", step: 2, maxSteps: 3 });
  });

  it("an abort cancels the current step and keeps the completed ones", async () => {
    const controller = new AbortController();
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const model = scriptedModel([
      { toolCalls: [{ name: "skill_load", input: '{"name":"pdf"}' }] },
      { text: "never", gate },
    ]);
    const run = runAgent({
      model,
      ...(await tinySession({ pdf: "PDF BODY" })),
      messages: user("go"),
      abortSignal: controller.signal,
      onEvent: (e) => {
        if (e.type === "step-end" && e.step === 0) setTimeout(() => controller.abort(), 20);
      },
    });
    const result = await run;
    release();
    expect(result.aborted).toBe(true);
    expect(result.messages.map((m) => m.role)).toEqual(["assistant", "tool"]);
  });

  it("a provider failure throws a ProviderError with status, what failed and a hint", async () => {
    const error = new APICallError({
      message: "Internal Server Error",
      url: "http://x/v1/chat/completions",
      requestBodyValues: {},
      statusCode: 500,
      responseBody: "boom",
    });
    const model = scriptedModel([{ error }]);
    const events: EngineEvent[] = [];
    const failure = await runAgent({ model, messages: user("hi"), onEvent: (e) => events.push(e) }).catch(
      (e) => e,
    );
    expect(ProviderError.isInstance(failure)).toBe(true);
    expect(failure.status).toBe(500);
    expect(failure.message).toContain("HTTP 500");
    expect(failure.message).toContain("try again later");
    expect(events.at(-1)).toMatchObject({ type: "error", fatal: true });
  });
});

describe("runAgent with a growing tool set", () => {
  it("offers tools the skill layer adds mid-run (e.g. script tools of a newly loaded skill)", async () => {
    const { session, skillTools } = await tinySession({ pdf: "PDF BODY" });
    const live = skillTools.tools;
    const baseActive = skillTools.activeToolNames;
    let ran = false;
    const loadTool = live["skill_load"]!;
    live["skill_load"] = tool({
      description: "Load a skill",
      inputSchema: z.object({ name: z.string() }),
      execute: async (input, options) => {
        live["pdf_extract"] = tool({
          description: "Extract text",
          inputSchema: z.object({}),
          execute: async () => {
            ran = true;
            return "text";
          },
        });
        return loadTool.execute!(input, options);
      },
    });
    skillTools.activeToolNames = () => [...baseActive(), ...("pdf_extract" in live ? ["pdf_extract"] : [])];
    const model = scriptedModel([
      { toolCalls: [{ name: "skill_load", input: '{"name":"pdf"}' }] },
      { toolCalls: [{ name: "pdf_extract", input: "{}" }] },
      { text: "extracted" },
    ]);
    const result = await runAgent({ model, session, skillTools, messages: user("extract") });
    expect(toolNamesOf(model.calls[0]!)).not.toContain("pdf_extract");
    expect(toolNamesOf(model.calls[1]!)).toContain("pdf_extract");
    expect(ran).toBe(true);
    expect(result.text).toBe("extracted");
  });
});
