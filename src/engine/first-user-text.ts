/**
 * The first thing the user said in a conversation, on one line: what session lists show beside an id so
 * a person can tell their conversations apart.
 */
import { SUMMARY_PREFIX } from "../context/summary-prefix.js";

/** Texts of a message's content: a string, or the `text` parts of an array (anything else: none). */
function textsOf(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((p: unknown) =>
    typeof p === "object" && p !== null && "type" in p && p.type === "text" && "text" in p
      ? typeof p.text === "string"
        ? [p.text]
        : []
      : [],
  );
}

/**
 * Text of the first user message (its last text part: a turn's catalog matches come before the user's
 * words), whitespace folded, cut to `max` characters with `…`. A compaction summary is not the user's;
 * after one, the first user message after it is used. `undefined` when the user has said nothing yet.
 * Takes stored messages as they are (`unknown`): anything not shaped like a message is passed over.
 */
export function firstUserText(messages: readonly unknown[], max = 80): string | undefined {
  for (const message of messages) {
    if (typeof message !== "object" || message === null || !("role" in message)) continue;
    if (message.role !== "user" || !("content" in message)) continue;
    const text = textsOf(message.content).at(-1)?.replace(/\s+/g, " ").trim();
    if (text === undefined || text === "" || text.startsWith(SUMMARY_PREFIX)) continue;
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
  }
  return undefined;
}
