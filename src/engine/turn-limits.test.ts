/**
 * The limits that always end a turn, in the library: a model that streams forever is stopped at the output
 * cap (the one asked of the provider, or the default when none is) and at the turn's deadline; the turn
 * resolves with `limitReached`, a `turn-limit` event says why, and what was streamed is saved and resumed.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { type ModelMessage, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Catalog } from "../catalog/types.js";
import { createMemoryStore } from "../store/create-memory-store.js";
import { createMemoryCatalog, scriptedModel } from "../test-kit.js";
import { createSkillAgent } from "./create-skill-agent.js";
import type { EngineEvent } from "./engine-event.js";
import { DEFAULT_MAX_OUTPUT_TOKENS, OUTPUT_CHARS_PER_TOKEN } from "./turn-limit-error.js";

const PIECE = "and more "; // 9 characters a delta

/**
 * A model that never finishes its answer: `PIECE` after `PIECE`, every `everyMs` (0: as fast as the
 * consumer reads), ignoring `maxOutputTokens`. Counts the characters it got to send.
 */
function endlessModel(everyMs: number) {
  const calls: LanguageModelV4CallOptions[] = [];
  const sent = { chars: 0, cancelled: false };
  const model = new MockLanguageModelV4({
    doStream: async (options) => {
      calls.push(options);
      let started = false;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          if (!started) {
            started = true;
            controller.enqueue({ type: "stream-start", warnings: [] });
            controller.enqueue({ type: "text-start", id: "t" });
            return;
          }
          if (everyMs > 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
          if (sent.cancelled) return;
          sent.chars += PIECE.length;
          controller.enqueue({ type: "text-delta", id: "t", delta: PIECE });
        },
        cancel() {
          sent.cancelled = true;
        },
      });
      return { stream };
    },
  });
  return Object.assign(model, { calls, sent });
}

let catalog: Catalog;
beforeAll(async () => {
  catalog = await createMemoryCatalog([]);
});

/** Text parts of the last message of `history`, joined. */
function lastText(history: readonly ModelMessage[]): string {
  const last = history.at(-1);
  if (last === undefined || typeof last.content === "string") return String(last?.content ?? "");
  return last.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

describe("a turn's limits", () => {
  it("a model streaming forever is stopped at maxOutputTokens (asked of the provider too); the partial answer is saved and resumed", async () => {
    const model = endlessModel(0);
    const store = createMemoryStore();
    const events: EngineEvent[] = [];
    const agent = await createSkillAgent({ model, catalog, store, maxOutputTokens: 50 });
    let result: Awaited<ReturnType<typeof agent.send>>;
    try {
      result = await agent.send("write forever", { onEvent: (e) => events.push(e) });
    } finally {
      await agent.close();
    }
    const cap = 50 * OUTPUT_CHARS_PER_TOKEN;
    expect(model.calls[0]?.maxOutputTokens).toBe(50);
    expect(result.limitReached?.limit).toBe("output");
    expect(result.limitReached?.message).toContain("output cap of 50 tokens");
    expect(result.limitReached?.message).toContain("model.maxOutputTokens");
    expect(result.aborted).toBe(false);
    // Stopped at the first delta past the cap; what was shown is the text of the result.
    expect(result.text.length).toBeGreaterThan(cap - PIECE.length);
    expect(result.text.length).toBeLessThanOrEqual(cap);
    expect(result.text.startsWith(PIECE)).toBe(true);
    // The SDK's pipeline reads a little ahead of the consumer, not on and on.
    expect(model.sent.chars).toBeLessThan(2 * cap);
    expect(model.sent.cancelled).toBe(true);
    const limit = events.find((e) => e.type === "turn-limit");
    expect(limit).toMatchObject({ type: "turn-limit", limit: "output" });
    expect(events.at(-1)?.type).toBe("turn-limit");
    const streamed = events.flatMap((e) => (e.type === "text-delta" ? [e.text] : [])).join("");
    expect(streamed).toBe(result.text);

    // Resumed from the store: the partial answer is in the history the next turn sends.
    const next = scriptedModel([{ text: "Picking up." }]);
    const resumed = await createSkillAgent({ model: next, catalog, store, sessionId: result.sessionId });
    try {
      expect(lastText(resumed.history())).toBe(result.text);
      await resumed.send("go on");
      const sentHistory = JSON.stringify(next.calls[0]?.prompt);
      expect(sentHistory).toContain(result.text.trim());
    } finally {
      await resumed.close();
    }
  });

  it("without maxOutputTokens nothing is asked of the provider, and skillrt still stops a call past the default cap", async () => {
    const model = endlessModel(0);
    const agent = await createSkillAgent({ model, catalog });
    try {
      const result = await agent.send("write forever");
      expect(model.calls[0]?.maxOutputTokens).toBeUndefined();
      expect(result.limitReached?.limit).toBe("output");
      expect(result.limitReached?.message).toContain(`output cap of ${DEFAULT_MAX_OUTPUT_TOKENS} tokens`);
      expect(result.text.length).toBeLessThanOrEqual(DEFAULT_MAX_OUTPUT_TOKENS * OUTPUT_CHARS_PER_TOKEN);
      expect(result.text.length).toBeGreaterThan(DEFAULT_MAX_OUTPUT_TOKENS * OUTPUT_CHARS_PER_TOKEN - 10);
    } finally {
      await agent.close();
    }
  });

  it("a model streaming forever is stopped at turnTimeoutMs; the partial answer is saved", async () => {
    const model = endlessModel(5);
    const store = createMemoryStore();
    const events: EngineEvent[] = [];
    const agent = await createSkillAgent({ model, catalog, store, turnTimeoutMs: 400 });
    const start = Date.now();
    try {
      const result = await agent.send("write forever", { onEvent: (e) => events.push(e) });
      const elapsed = Date.now() - start;
      expect(elapsed).toBeGreaterThanOrEqual(400 - 20);
      expect(elapsed).toBeLessThan(400 + 1_500);
      expect(result.limitReached?.limit).toBe("deadline");
      expect(result.limitReached?.message).toContain("deadline of 0.4 s");
      expect(result.limitReached?.message).toContain("--turn-timeout");
      expect(result.text.length).toBeGreaterThan(0);
      expect(model.sent.cancelled).toBe(true);
      expect(events.find((e) => e.type === "turn-limit")).toMatchObject({ limit: "deadline" });
      const saved = await store.get(result.sessionId, "conversation");
      const messages = (saved?.data as { messages?: ModelMessage[] } | undefined)?.messages ?? [];
      expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
      expect(lastText(messages)).toBe(result.text);
      // The stream stopped with the turn: nothing more was produced after it resolved.
      const after = model.sent.chars;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(model.sent.chars).toBe(after);
    } finally {
      await agent.close();
    }
  });

  it("the deadline also ends a turn stuck in a tool: the text before the call is kept, the tool is told to stop", async () => {
    const model = scriptedModel([
      { text: "Let me look that up.", toolCalls: [{ name: "lookup", input: "{}" }] },
      { text: "never reached" },
    ]);
    let toolAborted = false;
    const lookup = tool({
      description: "Looks something up (forever).",
      inputSchema: z.object({}),
      execute: (_input, { abortSignal }) =>
        new Promise<string>((_resolve, reject) => {
          abortSignal?.addEventListener("abort", () => {
            toolAborted = true;
            reject(new Error("stopped"));
          });
        }),
    });
    const store = createMemoryStore();
    const agent = await createSkillAgent({ model, catalog, store, tools: { lookup }, turnTimeoutMs: 300 });
    const start = Date.now();
    try {
      const result = await agent.send("look it up");
      expect(Date.now() - start).toBeLessThan(300 + 1_500);
      expect(result.limitReached?.limit).toBe("deadline");
      expect(toolAborted).toBe(true);
      expect(model.calls).toHaveLength(1);
      const saved = await store.get(result.sessionId, "conversation");
      const messages = (saved?.data as { messages?: ModelMessage[] } | undefined)?.messages ?? [];
      expect(JSON.stringify(messages)).toContain("Let me look that up.");
      // Saved once: the call's text is not there twice.
      expect(JSON.stringify(messages).split("Let me look that up.")).toHaveLength(2);
    } finally {
      await agent.close();
    }
  });

  it("a provider that cuts the answer at the cap (finish reason 'length') ends the turn with limitReached", async () => {
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            controller.enqueue({ type: "stream-start", warnings: [] });
            controller.enqueue({ type: "text-start", id: "t" });
            controller.enqueue({ type: "text-delta", id: "t", delta: "The first half" });
            controller.enqueue({ type: "text-end", id: "t" });
            controller.enqueue({
              type: "finish",
              usage: {
                inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
                outputTokens: { total: 20, text: 20, reasoning: undefined },
              },
              finishReason: { unified: "length", raw: "length" },
            });
            controller.close();
          },
        }),
      }),
    });
    const agent = await createSkillAgent({ model, catalog, maxOutputTokens: 20 });
    try {
      const result = await agent.send("write");
      expect(result.text).toBe("The first half");
      expect(result.limitReached?.limit).toBe("output");
      expect(result.limitReached?.message).toContain("cut at the output cap of 20 tokens");
    } finally {
      await agent.close();
    }
  });

  it("a subagent's calls have its parent's output cap, and its runaway answer is stopped", async () => {
    const endless = endlessModel(0);
    const calls: LanguageModelV4CallOptions[] = [];
    // Call 0: the parent delegates; call 1: the subagent runs away; call 2: the parent answers.
    const model = new MockLanguageModelV4({
      doStream: async (options) => {
        calls.push(options);
        if (calls.length === 2) return endless.doStream(options);
        const delegate = calls.length === 1;
        const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
        if (delegate)
          parts.push({
            type: "tool-call",
            toolCallId: "call-1",
            toolName: "agent_run",
            input: JSON.stringify({ agent: "writer", task: "write forever" }),
          });
        else parts.push({ type: "text-start", id: "a" }, { type: "text-delta", id: "a", delta: "Done." });
        parts.push({
          type: "finish",
          usage: {
            inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 5, text: 5, reasoning: undefined },
          },
          finishReason: { unified: delegate ? "tool-calls" : "stop", raw: undefined },
        });
        return {
          stream: new ReadableStream({
            start(controller) {
              for (const part of parts) controller.enqueue(part);
              controller.close();
            },
          }),
        };
      },
    });
    const agent = await createSkillAgent({
      model,
      catalog,
      maxOutputTokens: 30,
      agents: { writer: { description: "Writes." } },
    });
    try {
      const result = await agent.send("have the writer write");
      expect(calls).toHaveLength(3);
      expect(calls[1]?.maxOutputTokens).toBe(30);
      expect(endless.sent.cancelled).toBe(true);
      expect(result.text).toBe("Done.");
      // The parent's model read the subagent's partial answer.
      expect(JSON.stringify(calls[2]?.prompt)).toContain(PIECE.trim());
      expect(JSON.stringify(calls[2]?.prompt)).toContain(
        "stopped at its output cap; the answer is unfinished",
      );
    } finally {
      await agent.close();
    }
  });

  it("refuses a limit that is not a positive whole number", async () => {
    for (const bad of [{ maxOutputTokens: 0 }, { turnTimeoutMs: -1 }, { turnTimeoutMs: Number.NaN }]) {
      await expect(createSkillAgent({ model: scriptedModel([]), catalog, ...bad })).rejects.toThrow(
        /must be a positive whole number/,
      );
    }
  });
});
