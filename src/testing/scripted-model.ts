/** A mock language model (AI SDK `MockLanguageModelV4`) that replays scripted steps and records calls. */
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";

/** One scripted model step: text and/or tool calls (`input` is the raw JSON text the model "wrote"). */
export interface ScriptedStep {
  text?: string;
  toolCalls?: Array<{ id?: string; name: string; input: string }>;
  /** Throw this instead of answering. */
  error?: unknown;
  /** Wait for this promise before streaming (to test aborts). */
  gate?: Promise<void>;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function partsOf(step: ScriptedStep, index: number): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (step.text !== undefined) {
    parts.push({ type: "text-start", id: `t${index}` });
    for (const piece of step.text.match(/.{1,8}/gs) ?? [])
      parts.push({ type: "text-delta", id: `t${index}`, delta: piece });
    parts.push({ type: "text-end", id: `t${index}` });
  }
  for (const [i, call] of (step.toolCalls ?? []).entries()) {
    parts.push({
      type: "tool-call",
      toolCallId: call.id ?? `call-${index}-${i}`,
      toolName: call.name,
      input: call.input,
    });
  }
  const calls = (step.toolCalls ?? []).length > 0;
  parts.push({
    type: "finish",
    usage,
    finishReason: { unified: calls ? "tool-calls" : "stop", raw: undefined },
  });
  return parts;
}

/** A model whose n-th call answers `steps[n]` (the last step repeats), recording every call's options. */
export function scriptedModel(
  steps: ScriptedStep[],
): MockLanguageModelV4 & { calls: LanguageModelV4CallOptions[] } {
  const calls: LanguageModelV4CallOptions[] = [];
  const model = new MockLanguageModelV4({
    doStream: async (options) => {
      const index = calls.length;
      calls.push(options);
      const step = steps[Math.min(index, steps.length - 1)] ?? { text: "" };
      if (step.gate !== undefined) {
        await new Promise<void>((resolve, reject) => {
          step.gate!.then(resolve, reject);
          options.abortSignal?.addEventListener("abort", () => reject(options.abortSignal?.reason), {
            once: true,
          });
        });
      }
      if (step.error !== undefined) throw step.error;
      return { stream: simulateReadableStream({ chunks: partsOf(step, index), chunkDelayInMs: null }) };
    },
    doGenerate: async (options) => {
      const index = calls.length;
      calls.push(options);
      const step = steps[Math.min(index, steps.length - 1)] ?? { text: "" };
      if (step.error !== undefined) throw step.error;
      const toolCalls = (step.toolCalls ?? []).map((call, i) => ({
        type: "tool-call" as const,
        toolCallId: call.id ?? `call-${index}-${i}`,
        toolName: call.name,
        input: call.input,
      }));
      return {
        content: [
          ...(step.text === undefined ? [] : [{ type: "text" as const, text: step.text }]),
          ...toolCalls,
        ],
        finishReason: { unified: toolCalls.length > 0 ? "tool-calls" : "stop", raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
  return Object.assign(model, { calls });
}

/** The system prompt text a recorded call carried. */
export function systemOf(call: LanguageModelV4CallOptions): string {
  return call.prompt
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n");
}

/** Names of the tools offered in a recorded call. */
export function toolNamesOf(call: LanguageModelV4CallOptions): string[] {
  return (call.tools ?? []).map((t) => t.name);
}
