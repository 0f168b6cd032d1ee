/**
 * A turn as the AI SDK's UI message stream, read back by the `ai` package's own reader
 * (`readUIMessageStream`, what `useChat` runs): text, reasoning, dynamic tool parts, skill activity as
 * data parts, usage and the conversation id; an approval request; an error without internals.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { readUIMessageStream, tool, type UIMessage } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createCatalog } from "../catalog/create-catalog.js";
import type { Catalog } from "../catalog/types.js";
import { createMemoryStore } from "../store/create-memory-store.js";
import { createMemoryCatalog, scriptedModel } from "../test-kit.js";
import { createToolRegistry } from "../tools/tool-registry.js";
import { examples, loadReadRun } from "./__fixtures__/load-read-run.js";
import { createSkillAgent } from "./create-skill-agent.js";
import { streamUITurn, uiTurnResponse } from "./stream-ui-turn.js";

let cwd: string;
let catalog: Catalog;
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-ui-turn-"));
  catalog = await createCatalog({ roots: [examples] });
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

async function lastMessage(stream: ReadableStream<never> | ReadableStream<unknown>): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream: stream as never })) last = message;
  if (last === undefined) throw new Error("no message");
  return last;
}

describe("streamUITurn", () => {
  it("carries the skill load, read and run, the tool results and the final text as the protocol's parts", async () => {
    const agent = await createSkillAgent({
      model: scriptedModel(loadReadRun),
      catalog,
      cwd,
      store: createMemoryStore(),
      sessionId: "chat-1",
      executor: "auto",
    });
    try {
      const message = await lastMessage(streamUITurn(agent, "summarise my csv"));
      expect(message.metadata).toMatchObject({ conversationId: "chat-1", usage: { totalTokens: 60 } });
      const types = message.parts.map((p) => p.type);
      expect(types[0]).toBe("data-conversation");
      expect(
        message.parts.filter((p) => p.type === "data-skill").map((p) => (p as { data: unknown }).data),
      ).toEqual([
        { type: "skill-load", name: "csv-summary", tokens: expect.any(Number), by: "model" },
        { type: "file-read", name: "csv-summary", path: "references/format.md", tokens: expect.any(Number) },
      ]);
      const tools = message.parts.filter((p) => p.type === "dynamic-tool");
      expect(tools.map((t) => [t.toolName, t.state])).toEqual([
        ["skill_load", "output-available"],
        ["skill_read", "output-available"],
        ["skill_run", "output-available"],
      ]);
      expect(JSON.stringify(tools[2])).toContain("min=27 max=31 mean=29");
      expect(message.parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text)).toEqual(
        ["2 rows; age from 27 to 31."],
      );
      expect(message.parts.find((p) => p.type === "data-usage")).toMatchObject({ data: { totalTokens: 60 } });
    } finally {
      await agent.close();
    }
  });

  it("streams reasoning as reasoning parts, and the Response has the stream's headers", async () => {
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream({
          start(controller) {
            const parts: LanguageModelV4StreamPart[] = [
              { type: "stream-start", warnings: [] },
              { type: "reasoning-start", id: "r" },
              { type: "reasoning-delta", id: "r", delta: "thinking it over" },
              { type: "reasoning-end", id: "r" },
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: "Hello." },
              { type: "text-end", id: "t" },
              {
                type: "finish",
                finishReason: { unified: "stop", raw: undefined },
                usage: {
                  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
                  outputTokens: { total: 2, text: 2, reasoning: undefined },
                },
              },
            ];
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      }),
    });
    const agent = await createSkillAgent({ model, catalog: await createMemoryCatalog([]), sessionId: "r-1" });
    try {
      const response = uiTurnResponse(agent, "hi");
      expect(response.headers.get("content-type")).toContain("text/event-stream");
      expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
      expect(response.headers.get("x-skillrt-conversation-id")).toBe("r-1");
      const text = await response.text();
      expect(text).toContain('"type":"reasoning-delta"');
      expect(text).toContain('"delta":"thinking it over"');
      expect(text).toContain('"type":"text-delta"');
    } finally {
      await agent.close();
    }
  });

  it("a call needing approval ends the stream with a tool-approval-request part, and nothing runs", async () => {
    const ran: string[] = [];
    const registry = createToolRegistry();
    registry.register(
      "deploy",
      tool({
        description: "Deploy.",
        inputSchema: z.object({ env: z.string() }),
        execute: async ({ env }) => {
          ran.push(env);
          return "ok";
        },
      }),
    );
    const agent = await createSkillAgent({
      model: scriptedModel([{ toolCalls: [{ name: "deploy", input: '{"env":"prod"}' }] }]),
      catalog: await createMemoryCatalog([]),
      toolRegistry: registry,
      approval: { mode: "always", defer: true },
    });
    try {
      const message = await lastMessage(streamUITurn(agent, "ship"));
      const call = message.parts.find((p) => p.type === "dynamic-tool");
      expect(call).toMatchObject({ toolName: "deploy", state: "approval-requested", input: { env: "prod" } });
      expect(ran).toEqual([]);
    } finally {
      await agent.close();
    }
  });

  it("an internal failure reaches the client as 'internal error', never its text", async () => {
    const model = scriptedModel([{ text: "x" }]);
    const agent = await createSkillAgent({ model, catalog: await createMemoryCatalog([]) });
    // A second send while the first runs fails with a skillrt error; a thrown non-skillrt error is masked.
    const failing = {
      ...agent,
      send: () => Promise.reject(new Error("db password=hunter2 leaked")),
    } as never;
    try {
      const chunks: unknown[] = [];
      const reader = streamUITurn(failing, "hi").getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
      }
      expect(JSON.stringify(chunks)).not.toContain("hunter2");
      expect(chunks.at(-1)).toEqual({ type: "error", errorText: expect.stringContaining("internal error") });
    } finally {
      await agent.close();
    }
  });

  it("a running call's progress goes into its own turn's stream, another conversation's never", async () => {
    const agent = await createSkillAgent({
      model: scriptedModel([{ text: "x" }]),
      catalog: await createMemoryCatalog([]),
    });
    // Tool sources shared by the agents of one server report every call's progress to each of them.
    const progress = (toolCallId: string) =>
      ({
        type: "tool-progress",
        step: 0,
        toolCallId,
        toolName: "mcp__a__b",
        message: `for ${toolCallId}`,
        elapsedMs: 1,
      }) as const;
    const scripted = {
      ...agent,
      sessionId: "mine",
      send: async (_input: string, options: { onEvent?: (e: unknown) => void }) => {
        options.onEvent?.({
          type: "tool-call",
          step: 0,
          toolCallId: "own",
          toolName: "mcp__a__b",
          input: {},
        });
        options.onEvent?.(progress("other-conversation"));
        options.onEvent?.(progress("own"));
        return {
          sessionId: "mine",
          text: "",
          toolCalls: [],
          usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
          steps: 1,
          finishReason: "stop",
          aborted: false,
          stepLimitReached: false,
          messages: [],
        };
      },
    } as never;
    try {
      const chunks: Array<{ type: string; data?: { toolCallId?: string } }> = [];
      const reader = streamUITurn(scripted, "hi").getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value as never);
      }
      expect(chunks.filter((c) => c.type === "data-progress").map((c) => c.data?.toolCallId)).toEqual([
        "own",
      ]);
    } finally {
      await agent.close();
    }
  });
});
