import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { createSkillSession } from "../context/create-skill-session.js";
import { scriptedModel } from "../test-kit.js";
import { createSkillTools } from "../tools/create-skill-tools.js";
import { historyTokens, SUMMARY_PREFIX } from "./compact-history.js";
import type { EngineEvent } from "./engine-event.js";
import { runTurn } from "./run-turn.js";

describe("runTurn", () => {
  it("compacts once the history, messages added since the last turn included, passes 70% of the window", async () => {
    const catalog = await createCatalog({
      roots: [],
      memory: [{ name: "alpha", description: "Alpha things. Use for alpha tasks.", body: "ALPHA BODY." }],
    });
    const session = createSkillSession({ catalog });
    const history: ModelMessage[] = [];
    const conversation = { id: "c1", history, session, skillTools: createSkillTools(session) };
    // Calls in order: three turns, the summary (generateText), the fourth turn.
    const model = scriptedModel([
      { text: "one" },
      { text: "two" },
      { text: "three" },
      { text: "We talked about words." },
      { text: "four" },
    ]);
    const events: EngineEvent[] = [];
    const turn = (input: string) =>
      runTurn({
        input,
        conversation,
        model,
        contextWindow: 1000,
        instructions: "",
        emit: (event) => events.push(event),
        save: async () => {},
      });
    const count = (t: string) => session.counter.count(t);

    await turn("hello");
    await turn("again");
    // Far under the threshold (700 tokens) so far: no summary call, one model call per turn.
    expect(model.calls).toHaveLength(2);
    // This message alone passes it; it is counted at the start of the next turn.
    await turn(`read this: ${"word ".repeat(1000)}`);
    expect(events.some((e) => e.type === "history-compact")).toBe(false);
    const before = [...history];
    expect(historyTokens(before, count)).toBeGreaterThan(700);

    await turn("and now?");
    expect(model.calls).toHaveLength(5);
    const compact = events.find((e) => e.type === "history-compact");
    expect(compact).toMatchObject({
      type: "history-compact",
      removedMessages: 2,
      tokensBefore: historyTokens(before, count),
    });
    // The first turn became the summary; the last two are kept verbatim, then the new one.
    expect(history[0]).toEqual({ role: "user", content: `${SUMMARY_PREFIX}\nWe talked about words.` });
    expect(history.filter((m) => m.role === "user").map((m) => m.content)).toEqual([
      `${SUMMARY_PREFIX}\nWe talked about words.`,
      "again",
      `read this: ${"word ".repeat(1000)}`,
      "and now?",
    ]);
  });

  it("decides a history under its threshold by its bytes, without counting a token of it", async () => {
    const catalog = await createCatalog({ roots: [], memory: [] });
    const counted: string[] = [];
    const session = createSkillSession({
      catalog,
      tokenCounter: {
        name: "spy",
        count: (t) => {
          counted.push(t);
          return Math.ceil(t.length / 4);
        },
      },
    });
    const history: ModelMessage[] = [
      { role: "user", content: "a resumed question" },
      { role: "assistant", content: "its answer" },
    ];
    const conversation = { id: "c2", history, session, skillTools: createSkillTools(session) };
    await runTurn({
      input: "next",
      conversation,
      model: scriptedModel([{ text: "ok" }]),
      contextWindow: 1000,
      instructions: "",
      emit: () => {},
      save: async () => {},
    });
    expect(counted.filter((t) => t.includes("a resumed question") || t.includes("its answer"))).toEqual([]);
  });
});
