/** Plain text of conversation messages, for token counting and summaries. */
import type { ModelMessage } from "ai";

function partText(part: unknown): string {
  if (typeof part !== "object" || part === null || !("type" in part)) return "";
  switch (part.type) {
    case "text":
    case "reasoning":
      return "text" in part && typeof part.text === "string" ? part.text : "";
    case "tool-call":
      return `${"toolName" in part ? String(part.toolName) : ""}(${"input" in part ? JSON.stringify(part.input) : ""})`;
    case "tool-result": {
      const output = "output" in part ? part.output : undefined;
      if (typeof output === "object" && output !== null && "value" in output) {
        return typeof output.value === "string" ? output.value : JSON.stringify(output.value);
      }
      return JSON.stringify(output ?? "");
    }
    default:
      return "";
  }
}

/** The text a message carries (text parts, tool calls as `name(input)`, tool results' values). */
export function messageText(message: ModelMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content.map(partText).join("\n");
}

/** `role: text` lines of a conversation, each message's text capped at `maxChars` (default 4,000). */
export function transcript(messages: readonly ModelMessage[], maxChars = 4000): string {
  return messages
    .map((m) => {
      const text = messageText(m);
      return `${m.role}: ${text.length > maxChars ? `${text.slice(0, maxChars)}…` : text}`;
    })
    .join("\n\n");
}
