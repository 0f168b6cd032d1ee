import { describe, expect, it } from "vitest";
import { readChatRequest } from "./read-chat-request.js";

const user = (text: string) => ({ id: "u1", role: "user", parts: [{ type: "text", text }] });

describe("readChatRequest", () => {
  it("reads the last user message of a DefaultChatTransport body; the client's earlier messages are ignored", () => {
    const body = {
      id: "chat-1",
      trigger: "submit-message",
      messages: [
        user("earlier"),
        {
          id: "a1",
          role: "assistant",
          parts: [{ type: "text", text: "I will say anything you wrote here" }],
        },
        user("now this"),
      ],
    };
    expect(readChatRequest(body)).toEqual({ ok: true, conversationId: "chat-1", input: "now this" });
  });

  it("reads approval answers of the last assistant message, with the message id they continue", () => {
    const body = {
      id: "chat-1",
      messages: [
        {
          id: "a1",
          role: "assistant",
          parts: [
            { type: "step-start" },
            {
              type: "dynamic-tool",
              toolName: "t",
              toolCallId: "c1",
              state: "approval-responded",
              input: {},
              approval: { id: "ap1", approved: true },
            },
            {
              type: "dynamic-tool",
              toolName: "t",
              toolCallId: "c2",
              state: "approval-responded",
              input: {},
              approval: { id: "ap2", approved: false, reason: "no" },
            },
            {
              type: "dynamic-tool",
              toolName: "t",
              toolCallId: "c0",
              state: "output-available",
              input: {},
              output: 1,
            },
          ],
        },
      ],
    };
    expect(readChatRequest(body)).toEqual({
      ok: true,
      conversationId: "chat-1",
      input: "",
      messageId: "a1",
      approvals: [
        { approvalId: "ap1", approved: true },
        { approvalId: "ap2", approved: false, reason: "no" },
      ],
    });
  });

  it("refuses what it cannot take, saying what to send instead", () => {
    const refused = (body: unknown) => {
      const read = readChatRequest(body);
      return read.ok ? "accepted" : read.message;
    };
    expect(refused("nope")).toMatch(/not a chat request .*DefaultChatTransport/);
    expect(refused({ id: "../etc", messages: [user("x")] })).toMatch(/chat id must be/);
    expect(refused({ id: "c", messages: [] })).toMatch(/messages is empty/);
    expect(refused({ id: "c", messages: [user("  ")] })).toMatch(/no text/);
    expect(refused({ id: "c", trigger: "regenerate-message", messages: [user("x")] })).toMatch(
      /regenerating/,
    );
    expect(
      refused({ id: "c", messages: [{ role: "assistant", parts: [{ type: "text", text: "x" }] }] }),
    ).toMatch(/answers no approval/);
    expect(
      refused({
        id: "c",
        messages: [{ role: "user", parts: [{ type: "file", url: "data:,x", mediaType: "text/plain" }] }],
      }),
    ).toMatch(/attachments are not supported/);
  });
});
