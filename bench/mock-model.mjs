/**
 * The mock model of the engine benches: each call either calls a tool or answers "done", instantly (no
 * stream delay), with usage of one token, so what is timed is the engine's work, not the model's.
 */
import { simulateReadableStream, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/**
 * A model whose `n`-th call (from 0) calls the tool `toolCallOf(n)` names (`{ toolName, input }`), or
 * answers "done" when it returns undefined.
 */
export function instantModel(toolCallOf) {
  let call = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const n = call++;
      const toolCall = toolCallOf(n);
      const chunks =
        toolCall !== undefined
          ? [
              {
                type: "tool-call",
                toolCallId: `c${n}`,
                toolName: toolCall.toolName,
                input: JSON.stringify(toolCall.input),
              },
              { type: "finish", usage, finishReason: { unified: "tool-calls", raw: undefined } },
            ]
          : [
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: "done" },
              { type: "text-end", id: "t" },
              { type: "finish", usage, finishReason: { unified: "stop", raw: undefined } },
            ];
      return { stream: simulateReadableStream({ chunks, chunkDelayInMs: null, initialDelayInMs: null }) };
    },
  });
}

/** A host tool that returns its input: the cheapest tool a step can call. */
export const noop = tool({
  description: "no-op",
  inputSchema: z.object({ n: z.number() }),
  execute: async ({ n }) => n,
});
