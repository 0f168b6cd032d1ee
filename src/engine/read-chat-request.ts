/**
 * The body `DefaultChatTransport` (`useChat`) posts — `{ id, messages, trigger }` — read as a turn: the
 * chat id is the conversation, and only the last message counts. The history is the server's (the store),
 * never the client's copy: a client cannot put words in the assistant's mouth or approve a call it was not
 * asked about.
 */
import { z } from "zod";
import type { ToolApprovalResponse } from "./pending-approvals.js";

/** A conversation id a client may name: 1–128 letters, digits and `_ . : -`. */
export const CONVERSATION_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** The request body of `DefaultChatTransport`, as far as a turn needs it. */
export const ChatRequest = z.looseObject({
  id: z.string().regex(CONVERSATION_ID, "the chat id must be 1–128 letters, digits, '_', '.', ':' or '-'"),
  trigger: z.enum(["submit-message", "regenerate-message"]).optional(),
  messages: z
    .array(
      z.looseObject({
        id: z.string().max(256).optional(),
        role: z.enum(["user", "assistant", "system"]),
        parts: z.array(z.looseObject({ type: z.string() })),
      }),
    )
    .min(1, "messages is empty: send the user's message"),
});
export type ChatRequest = z.infer<typeof ChatRequest>;

/** A turn asked for by a chat request: a user message, or answers to calls waiting for approval. */
export type ChatTurnRequest =
  | {
      ok: true;
      conversationId: string;
      input: string;
      /** Answers to calls waiting for approval (then `input` is empty). */
      approvals?: ToolApprovalResponse[];
      /** The id of the assistant message the answers continue (its stream goes on in the same message). */
      messageId?: string;
    }
  | { ok: false; message: string };

const ApprovalPart = z.looseObject({
  state: z.literal("approval-responded"),
  approval: z.looseObject({ id: z.string(), approved: z.boolean(), reason: z.string().optional() }),
});

/** Reads `body` (parsed JSON) as a turn, or says what is wrong with it. Never throws. */
export function readChatRequest(body: unknown): ChatTurnRequest {
  const parsed = ChatRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      message: `not a chat request (${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}); send what the AI SDK's DefaultChatTransport sends: { id, messages }`,
    };
  }
  const { id, trigger, messages } = parsed.data;
  if (trigger === "regenerate-message")
    return { ok: false, message: "regenerating an answer is not supported: send the message again" };
  const last = messages.at(-1)!;
  if (last.role === "user") {
    const text = last.parts
      .filter((p) => p.type === "text" && typeof p["text"] === "string")
      .map((p) => p["text"] as string)
      .join("\n");
    if (last.parts.some((p) => p.type === "file"))
      return { ok: false, message: "file attachments are not supported here yet: paste the text instead" };
    if (text.trim() === "") return { ok: false, message: "the message has no text" };
    return { ok: true, conversationId: id, input: text };
  }
  if (last.role === "assistant") {
    const approvals: ToolApprovalResponse[] = [];
    for (const part of last.parts) {
      const answered = ApprovalPart.safeParse(part);
      if (!answered.success) continue;
      const { approval } = answered.data;
      approvals.push({
        approvalId: approval.id,
        approved: approval.approved,
        ...(approval.reason === undefined ? {} : { reason: approval.reason }),
      });
    }
    if (approvals.length > 0)
      return {
        ok: true,
        conversationId: id,
        input: "",
        approvals,
        ...(last.id === undefined ? {} : { messageId: last.id }),
      };
    return {
      ok: false,
      message: "the last message is the assistant's and answers no approval: send a user message",
    };
  }
  return { ok: false, message: "the last message must be the user's (or answer an approval)" };
}
