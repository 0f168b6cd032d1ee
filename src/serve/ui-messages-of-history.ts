/**
 * A saved conversation's history as the AI SDK's UI messages, so a chat client can show a conversation it
 * resumes by id (`useChat({ id, messages })`): one user message per user turn, one assistant message per
 * answer with its text, reasoning and tool parts (dynamic tools: the client knows no tool types), and a
 * call still waiting for approval in `approval-requested` state.
 */
import type { DynamicToolUIPart, ModelMessage, UIMessage } from "ai";

type Part = UIMessage["parts"][number];

/** The UI messages of `history` (ids `<conversationId>-<n>`). */
export function uiMessagesOfHistory(conversationId: string, history: readonly ModelMessage[]): UIMessage[] {
  const messages: UIMessage[] = [];
  const tools = new Map<string, DynamicToolUIPart>();
  const assistant = (): UIMessage => {
    const last = messages.at(-1);
    if (last?.role === "assistant") return last;
    const message: UIMessage = { id: `${conversationId}-${messages.length}`, role: "assistant", parts: [] };
    messages.push(message);
    return message;
  };
  const replace = (id: string, next: DynamicToolUIPart): void => {
    for (const message of messages) {
      const index = message.parts.indexOf(tools.get(id) as Part);
      if (index !== -1) message.parts[index] = next;
    }
    tools.set(id, next);
  };
  for (const message of history) {
    if (message.role === "system") continue;
    if (message.role === "user") {
      // A request's matching skills go first in its content; the user's own words are the last text part.
      const text =
        typeof message.content === "string"
          ? message.content
          : (message.content.filter((p) => p.type === "text").at(-1)?.text ?? "");
      messages.push({
        id: `${conversationId}-${messages.length}`,
        role: "user",
        parts: [{ type: "text", text }],
      });
      continue;
    }
    if (message.role === "assistant") {
      const target = assistant();
      target.parts.push({ type: "step-start" });
      if (typeof message.content === "string") {
        target.parts.push({ type: "text", text: message.content, state: "done" });
        continue;
      }
      for (const part of message.content) {
        if (part.type === "text") target.parts.push({ type: "text", text: part.text, state: "done" });
        else if (part.type === "reasoning")
          target.parts.push({ type: "reasoning", text: part.text, state: "done" });
        else if (part.type === "tool-call") {
          const tool: DynamicToolUIPart = {
            type: "dynamic-tool",
            toolName: part.toolName,
            toolCallId: part.toolCallId,
            state: "input-available",
            input: part.input,
          };
          target.parts.push(tool);
          tools.set(part.toolCallId, tool);
        } else if (part.type === "tool-approval-request") {
          const tool = tools.get(part.toolCallId);
          if (tool !== undefined)
            replace(part.toolCallId, {
              type: "dynamic-tool",
              toolName: tool.toolName,
              toolCallId: tool.toolCallId,
              input: tool.input,
              state: "approval-requested",
              approval: { id: part.approvalId },
            });
        }
      }
      continue;
    }
    // Tool results complete the calls of the assistant message before them.
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const tool = tools.get(part.toolCallId);
      if (tool === undefined) continue;
      const base = { type: "dynamic-tool" as const, toolName: tool.toolName, toolCallId: tool.toolCallId };
      const output = part.output;
      if (output.type === "execution-denied")
        replace(part.toolCallId, {
          ...base,
          input: tool.input,
          state: "output-denied",
          approval: {
            id: "approval" in tool && tool.approval !== undefined ? tool.approval.id : part.toolCallId,
            approved: false,
            ...(output.reason === undefined ? {} : { reason: output.reason }),
          },
        });
      else if (output.type === "error-text" || output.type === "error-json")
        replace(part.toolCallId, {
          ...base,
          input: tool.input,
          state: "output-error",
          errorText: typeof output.value === "string" ? output.value : JSON.stringify(output.value),
        });
      else
        replace(part.toolCallId, {
          ...base,
          input: tool.input,
          state: "output-available",
          output: "value" in output ? output.value : output,
        });
    }
  }
  return messages;
}
