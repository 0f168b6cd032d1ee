/**
 * Puts the user first: Anthropic's API (among others) rejects a conversation that starts with an
 * assistant message, yet skills can be loaded before anything is said (`active: true` skills by
 * `init()`, a `/skill NAME` or `$NAME` before the first message), and their synthetic load calls are
 * assistant and tool messages.
 */
import type { ModelMessage } from "ai";
import { SUMMARY_PREFIX } from "./summary-prefix.js";

/** Tool call ids of the assistant messages in `messages`. */
function callIds(messages: readonly ModelMessage[]): string[] {
  return messages.flatMap((m) =>
    m.role === "assistant" && typeof m.content !== "string"
      ? m.content.flatMap((p) => (p.type === "tool-call" ? [p.toolCallId] : []))
      : [],
  );
}

/**
 * `messages` as sent to the model, starting with the user:
 *
 * - assistant and tool messages before the first user message (a user load made while the history had
 *   no user message yet) move to right after it; system messages stay where they are;
 * - `opening` (the session's opening messages: the loads `init()` made) goes right after the first user
 *   message, before those moved loads (it happened first). Left out when the host already keeps them in
 *   its history, or after compaction (the summary comes first and the re-materialised context already
 *   carries every loaded skill); at the start when there is no user message at all.
 *
 * Pure and idempotent, so the same history gives the same bytes every step (prompt caches keep hitting).
 * Returns `messages` itself when nothing changes.
 */
export function userFirstHistory(
  messages: ModelMessage[],
  opening: readonly ModelMessage[] = [],
): ModelMessage[] {
  const at = messages.findIndex((m) => m.role === "user");
  const first = messages[at];
  const summarised =
    first !== undefined && typeof first.content === "string" && first.content.startsWith(SUMMARY_PREFIX);
  const openingIds = new Set(callIds(opening));
  const insert =
    summarised || opening.length === 0 || callIds(messages).some((id) => openingIds.has(id)) ? [] : opening;
  if (at < 0) return insert.length === 0 ? messages : [...insert, ...messages];
  const before = messages.slice(0, at);
  const moved = before.filter((m) => m.role !== "system");
  if (moved.length === 0 && insert.length === 0) return messages;
  return [
    ...before.filter((m) => m.role === "system"),
    messages[at] as ModelMessage,
    ...insert,
    ...moved,
    ...messages.slice(at + 1),
  ];
}
