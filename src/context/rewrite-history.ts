/**
 * History placement helpers: stub the tool results whose skill content has left the context (unloaded,
 * evicted, replaced), and measure the rest of the conversation for the ledger. Both work on AI SDK
 * `ModelMessage[]` and never modify the input.
 */
import type { ModelMessage, ToolResultPart } from "ai";
import type { CallItem } from "./session-snapshot.js";

/** Describes removed content for the model; `load` / `read` are the profile's tool names. */
export function stubText(removed: CallItem[], names: { load: string }): string {
  const skills = [...new Set(removed.map((c) => c.skill))];
  const what = removed.every((c) => c.kind !== "skill") ? "Content of skill" : "Skill";
  return `[${what} ${skills.map((s) => `'${s}'`).join(", ")} was removed from the context (unloaded or evicted). Call ${names.load} again if you need it.]`;
}

/**
 * Messages with every tool result that carried content no longer in context replaced by a short stub.
 * A result whose items are all still live is kept byte for byte; a partly live one keeps the live blocks.
 */
export function rewriteHistory(
  messages: readonly ModelMessage[],
  calls: ReadonlyMap<string, CallItem[]>,
  liveText: (id: string) => string | undefined,
  names: { load: string },
): ModelMessage[] {
  return messages.map((message) => {
    if (message.role !== "tool") return message;
    let changed = false;
    const content = message.content.map((part) => {
      if (part.type !== "tool-result") return part;
      const items = calls.get(part.toolCallId);
      if (items === undefined) return part;
      const dead = items.filter((c) => liveText(c.id) === undefined);
      if (dead.length === 0) return part;
      changed = true;
      const kept = items.map((c) => liveText(c.id)).filter((t): t is string => t !== undefined);
      const value = `${kept.join("")}${stubText(dead, names)}`;
      const replaced: ToolResultPart = {
        type: "tool-result",
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        output: { type: "text", value },
      };
      return replaced;
    });
    return changed ? { ...message, content } : message;
  });
}

/** Text of every message part, except tool results for which `skip(toolCallId)` is true. */
export function historyText(
  messages: readonly ModelMessage[],
  skip: (toolCallId: string) => boolean,
): string[] {
  const texts: string[] = [];
  for (const message of messages) {
    if (typeof message.content === "string") {
      texts.push(message.content);
      continue;
    }
    for (const part of message.content) {
      switch (part.type) {
        case "text":
        case "reasoning":
          texts.push(part.text);
          break;
        case "tool-call":
          texts.push(JSON.stringify(part.input) ?? "");
          break;
        case "tool-result": {
          if (skip(part.toolCallId)) break;
          const out = part.output;
          if (out.type === "text" || out.type === "error-text") texts.push(out.value);
          else if (out.type === "json" || out.type === "error-json")
            texts.push(JSON.stringify(out.value) ?? "");
          else if (out.type === "content")
            for (const c of out.value) if (c.type === "text") texts.push(c.text);
          break;
        }
        default:
          break;
      }
    }
  }
  return texts;
}
