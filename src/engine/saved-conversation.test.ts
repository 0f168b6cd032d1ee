import { describe, expect, it } from "vitest";
import { createMemoryStore } from "../store/create-memory-store.js";
import { loadConversation, saveConversation } from "./saved-conversation.js";

describe("saved conversations", () => {
  it("round-trips history, skills snapshot and model info through a store", async () => {
    const store = createMemoryStore();
    const messages = [
      { role: "user" as const, content: "hi" },
      {
        role: "assistant" as const,
        content: [
          { type: "tool-call" as const, toolCallId: "c1", toolName: "skill_load", input: { name: "pdf" } },
        ],
      },
      {
        role: "tool" as const,
        content: [
          {
            type: "tool-result" as const,
            toolCallId: "c1",
            toolName: "skill_load",
            output: { type: "text" as const, value: "body" },
          },
        ],
      },
    ];
    await saveConversation(store, "s1", {
      messages,
      skills: { loaded: ["pdf"] },
      model: { provider: "anthropic", modelId: "m" },
    });
    const loaded = await loadConversation(store, "s1");
    expect(loaded).toEqual({
      messages,
      skills: { loaded: ["pdf"] },
      model: { provider: "anthropic", modelId: "m" },
      version: 1,
    });
    expect(await loadConversation(store, "missing")).toBeUndefined();
  });

  it("refuses a stored value that is not a conversation, saying what to do", async () => {
    const store = createMemoryStore();
    await store.put("odd", { something: "else" });
    await expect(loadConversation(store, "odd")).rejects.toThrow(
      /not a saved skillrt conversation.*Start a new session/,
    );
  });
});
