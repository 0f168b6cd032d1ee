import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { scriptedModel } from "../test-kit.js";
import { tinySession } from "./__fixtures__/tiny-session.js";
import { compactHistory, SUMMARY_PREFIX } from "./compact-history.js";

const count = (t: string): number => Math.ceil(t.length / 4);

function conversation(turns: number): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: "user", content: `question ${i} ${"x".repeat(400)}` });
    messages.push({ role: "assistant", content: `answer ${i} ${"y".repeat(400)}` });
  }
  return messages;
}

describe("compactHistory", () => {
  it("summarises older turns once the threshold is passed and re-materialises loaded skills", async () => {
    const model = scriptedModel([{ text: "The user asked six questions about x." }]);
    const { session } = await tinySession({ pdf: "PDF BODY" }, "history");
    await session.load("pdf");
    const messages = conversation(8);
    const result = await compactHistory({
      model,
      messages,
      countTokens: count,
      threshold: 500,
      keepTurns: 2,
      session,
    });
    expect(result.compacted).toBe(true);
    expect(result.removedMessages).toBe(12);
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
    expect(result.messages[0]).toEqual({
      role: "user",
      content: `${SUMMARY_PREFIX}\nThe user asked six questions about x.`,
    });
    expect(result.messages[1]).toEqual({ role: "user", content: session.history.rematerialize() });
    expect(result.messages[1]?.content).toContain("PDF BODY");
    expect(result.messages.slice(2)).toEqual(messages.slice(12));
    expect(JSON.stringify(model.calls[0]!.prompt)).toContain("question 0");
  });

  it("leaves a short history alone without calling the model", async () => {
    const model = scriptedModel([{ text: "unused" }]);
    const messages = conversation(2);
    const result = await compactHistory({ model, messages, countTokens: count, threshold: 10_000 });
    expect(result.compacted).toBe(false);
    expect(result.messages).toBe(messages);
    expect(model.calls).toHaveLength(0);
  });
});
