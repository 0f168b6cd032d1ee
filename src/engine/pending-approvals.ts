/**
 * Calls that wait for the client's approval (deferred approvals, the AI SDK's approval flow): found in the
 * saved history, answered by the next turn, or refused when the user moves on without answering.
 */
import type { ModelMessage, ToolModelMessage } from "ai";
import { SkillrtError } from "../errors/skillrt-error.js";

/** The client's answer to a call that waits for approval, by the `approvalId` its request carried. */
export interface ToolApprovalResponse {
  approvalId: string;
  approved: boolean;
  /** Why (shown to the model with a refusal). */
  reason?: string;
}

/** A call of the history that waits for an approval. */
export interface PendingApproval {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** The calls of `history` with an approval request and no result yet, in order. */
export function pendingApprovals(history: readonly ModelMessage[]): PendingApproval[] {
  const calls = new Map<string, { toolName: string; input: unknown }>();
  const requests: Array<{ approvalId: string; toolCallId: string }> = [];
  const results = new Set<string>();
  for (const message of history) {
    if (typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type === "tool-call")
        calls.set(part.toolCallId, { toolName: part.toolName, input: part.input });
      else if (part.type === "tool-approval-request")
        requests.push({ approvalId: part.approvalId, toolCallId: part.toolCallId });
      else if (part.type === "tool-result") results.add(part.toolCallId);
    }
  }
  return requests.flatMap((request) => {
    const call = calls.get(request.toolCallId);
    return call === undefined || results.has(request.toolCallId) ? [] : [{ ...request, ...call }];
  });
}

/**
 * The tool message answering `pending` with `answers` (a call left unanswered is refused). Throws
 * `invalid-argument` for an answer to no waiting call, or when nothing waits.
 */
export function approvalMessage(
  pending: readonly PendingApproval[],
  answers: readonly ToolApprovalResponse[],
): ToolModelMessage {
  if (pending.length === 0)
    throw new SkillrtError({
      code: "invalid-argument",
      message: "No tool call of this conversation waits for approval: send a message instead",
    });
  const byId = new Map(answers.map((a) => [a.approvalId, a]));
  for (const answer of answers)
    if (!pending.some((p) => p.approvalId === answer.approvalId))
      throw new SkillrtError({
        code: "invalid-argument",
        message: `No tool call waits for approval '${answer.approvalId}' (it was answered already, or never asked)`,
      });
  return {
    role: "tool",
    content: pending.map((p) => {
      const answer = byId.get(p.approvalId);
      return {
        type: "tool-approval-response" as const,
        approvalId: p.approvalId,
        approved: answer?.approved === true,
        ...(answer === undefined
          ? { reason: "the user did not answer" }
          : answer.reason === undefined
            ? {}
            : { reason: answer.reason }),
      };
    }),
  };
}

/** Results refusing `pending`: the user sent a new message instead of answering (a call needs its result). */
export function refusedApprovals(pending: readonly PendingApproval[]): ToolModelMessage {
  return {
    role: "tool",
    content: pending.map((p) => ({
      type: "tool-result" as const,
      toolCallId: p.toolCallId,
      toolName: p.toolName,
      output: {
        type: "execution-denied" as const,
        reason: "the user sent a new message instead of approving this call; it did not run",
      },
    })),
  };
}
