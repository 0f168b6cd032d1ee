import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { uiMessagesOfHistory } from "./ui-messages-of-history.js";

describe("uiMessagesOfHistory", () => {
  it("one user message per turn, one assistant message per answer with its steps, tools and their states", () => {
    const history: ModelMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "<matching skills>" },
          { type: "text", text: "summarise" },
        ],
      },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c1", toolName: "skill_load", input: { name: "x" } }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "skill_load",
            output: { type: "text", value: "body" },
          },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "hm" },
          { type: "text", text: "Done." },
        ],
      },
      { role: "user", content: "deploy" },
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "c2", toolName: "deploy", input: { env: "prod" } },
          { type: "tool-approval-request", approvalId: "ap2", toolCallId: "c2" },
          { type: "tool-call", toolCallId: "c3", toolName: "deploy", input: { env: "staging" } },
          { type: "tool-approval-request", approvalId: "ap3", toolCallId: "c3" },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c3",
            toolName: "deploy",
            output: { type: "execution-denied", reason: "no" },
          },
        ],
      },
    ];
    const messages = uiMessagesOfHistory("chat", history);
    expect(messages.map((m) => [m.id, m.role])).toEqual([
      ["chat-0", "user"],
      ["chat-1", "assistant"],
      ["chat-2", "user"],
      ["chat-3", "assistant"],
    ]);
    expect(messages[0]!.parts).toEqual([{ type: "text", text: "summarise" }]);
    expect(messages[1]!.parts).toEqual([
      { type: "step-start" },
      {
        type: "dynamic-tool",
        toolName: "skill_load",
        toolCallId: "c1",
        input: { name: "x" },
        state: "output-available",
        output: "body",
      },
      { type: "step-start" },
      { type: "reasoning", text: "hm", state: "done" },
      { type: "text", text: "Done.", state: "done" },
    ]);
    expect(messages[3]!.parts.slice(1)).toEqual([
      {
        type: "dynamic-tool",
        toolName: "deploy",
        toolCallId: "c2",
        input: { env: "prod" },
        state: "approval-requested",
        approval: { id: "ap2" },
      },
      {
        type: "dynamic-tool",
        toolName: "deploy",
        toolCallId: "c3",
        input: { env: "staging" },
        state: "output-denied",
        approval: { id: "ap3", approved: false, reason: "no" },
      },
    ]);
  });
});
