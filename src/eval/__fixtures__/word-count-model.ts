/**
 * Mock models (AI SDK `MockLanguageModelV4`) for outcome eval tests: an agent model that solves the
 * word-count task only when the word-count skill is in its catalog (it loads it, runs its script, and
 * answers with the script's count; without the skill it guesses), and grader models. Each decides from
 * the prompt it gets, not from call order, so trials may run in any order and in parallel.
 */
import path from "node:path";
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";

/** The word-count fixture skill. */
export const wordCountSkill = path.resolve(import.meta.dirname, "word-count");

const usage = {
  inputTokens: { total: 40, noCache: 40, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

type Reply = { text: string } | { tool: string; input: object };

function stream(reply: Reply, n: number): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if ("text" in reply) {
    parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: reply.text });
    parts.push({ type: "text-end", id: "t" });
  } else {
    parts.push({
      type: "tool-call",
      toolCallId: `call-${n}`,
      toolName: reply.tool,
      input: JSON.stringify(reply.input),
    });
  }
  parts.push({
    type: "finish",
    usage,
    finishReason: { unified: "text" in reply ? "stop" : "tool-calls", raw: undefined },
  });
  return parts;
}

/** The last tool result of the prompt: its tool's name and output as text. */
function lastToolResult(options: LanguageModelV4CallOptions): { tool: string; output: string } | undefined {
  const last = options.prompt.at(-1);
  if (last?.role !== "tool") return undefined;
  const part = last.content.at(-1);
  if (part === undefined || part.type !== "tool-result") return undefined;
  return { tool: part.toolName, output: JSON.stringify(part.output) };
}

/** What the agent does next, read from the conversation so far. */
export function wordCountPolicy(options: LanguageModelV4CallOptions): Reply {
  const result = lastToolResult(options);
  if (result?.tool === "skill_run") {
    const count = /(\d+) words/.exec(result.output)?.[1];
    return {
      text: count === undefined ? "The script failed." : `The poem has ${count} words; the count is saved.`,
    };
  }
  if (result?.tool === "skill_load")
    return {
      tool: "skill_run",
      input: { name: "word-count", command: 'node scripts/count.mjs "$WORK_DIR/inputs/poem.txt"' },
    };
  const offered = (options.tools ?? []).some((t) => t.name === "skill_load");
  const system = options.prompt
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n");
  if (offered && system.includes("word-count")) return { tool: "skill_load", input: { name: "word-count" } };
  return { text: "It looks like a short poem of about a dozen words." };
}

/** The agent model: {@link wordCountPolicy}, recording every call. */
export function wordCountModel(): MockLanguageModelV4 & { calls: LanguageModelV4CallOptions[] } {
  const calls: LanguageModelV4CallOptions[] = [];
  const model = new MockLanguageModelV4({
    doStream: async (options) => {
      calls.push(options);
      return {
        stream: simulateReadableStream({
          chunks: stream(wordCountPolicy(options), calls.length),
          chunkDelayInMs: null,
        }),
      };
    },
  });
  return Object.assign(model, { calls });
}

/**
 * A grader model: `answer(prompt)` gives its reply text (or throws), recording the prompts it got. The
 * default passes when the prompt shows the exact count.
 */
export function graderModel(
  answer: (prompt: string) => string = (prompt) =>
    JSON.stringify({
      pass: /has 10 words/.test(prompt),
      reasons: /has 10 words/.test(prompt) ? "The answer gives the exact count, 10." : "No exact count.",
      expectations: [
        {
          text: "The answer states that the poem has 10 words",
          passed: /has 10 words/.test(prompt),
          evidence: "",
        },
      ],
    }),
): MockLanguageModelV4 & { prompts: string[] } {
  const prompts: string[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      const text = options.prompt
        .filter((m) => m.role === "user")
        .flatMap((m) => m.content.map((p) => (p.type === "text" ? p.text : "")))
        .join("\n");
      prompts.push(text);
      return {
        content: [{ type: "text", text: answer(text) }],
        finishReason: { unified: "stop", raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
  return Object.assign(model, { prompts });
}
