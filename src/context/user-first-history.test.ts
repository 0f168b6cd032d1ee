import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { SUMMARY_PREFIX } from "./summary-prefix.js";
import { userFirstHistory } from "./user-first-history.js";

function load(id: string): ModelMessage[] {
  return [
    {
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: id, toolName: "skill_load", input: { name: id } }],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: id,
          toolName: "skill_load",
          output: { type: "text", value: `${id} body` },
        },
      ],
    },
  ];
}
const ids = (messages: ModelMessage[]): string[] =>
  messages.map((m) =>
    typeof m.content === "string"
      ? `${m.role}:${m.content.slice(0, 12)}`
      : `${m.role}:${m.content.map((p) => ("toolCallId" in p ? p.toolCallId : p.type)).join(",")}`,
  );

describe("userFirstHistory", () => {
  const user: ModelMessage = { role: "user", content: "hello" };
  const system: ModelMessage = { role: "system", content: "host rules" };

  it("moves loads made before the first user message after it, behind the opening messages; system stays first", () => {
    const history = [
      system,
      ...load("user-load-a"),
      user,
      { role: "assistant", content: "hi" } as ModelMessage,
    ];
    const sent = userFirstHistory(history, load("init-load-on"));
    expect(ids(sent)).toEqual([
      "system:host rules",
      "user:hello",
      "assistant:init-load-on",
      "tool:init-load-on",
      "assistant:user-load-a",
      "tool:user-load-a",
      "assistant:hi",
    ]);
    // Idempotent: the next step sends the same bytes.
    expect(JSON.stringify(userFirstHistory(sent, load("init-load-on")))).toBe(JSON.stringify(sent));
  });

  it("returns the history itself when it already starts with the user and there is nothing to open with", () => {
    const history = [user, ...load("model-call")];
    expect(userFirstHistory(history)).toBe(history);
  });

  it("adds no opening messages after compaction or when the host keeps them", () => {
    const summary: ModelMessage = { role: "user", content: `${SUMMARY_PREFIX}\nearlier` };
    expect(ids(userFirstHistory([summary], load("init-load-on")))).toEqual([
      `user:${SUMMARY_PREFIX.slice(0, 12)}`,
    ]);
    const kept = [user, ...load("init-load-on")];
    expect(userFirstHistory(kept, load("init-load-on"))).toBe(kept);
  });
});
