/**
 * The loads `init()` made (`active: true` skills, `activeSkills`), as messages for `history` placement:
 * one assistant message with a load call per skill and one tool message with their results, so the
 * model sees an active skill's body exactly as if it had loaded it itself.
 */
import type { ModelMessage, ToolCallPart, ToolResultPart } from "ai";
import type { SessionState } from "./session-state.js";
import type { ToolCallShape } from "./tool-call-shape.js";

/** Prefix of the tool call ids under which `init()` records its loads (`init-load-<name>`). */
export const INIT_LOAD_CALL_PREFIX = "init-load-";

/**
 * The opening messages of `state` (see `SkillSession.openingMessages`), `[]` in system placement or when
 * `init()` loaded nothing. `loadCall` gives the profile's load call; `rewrite` stubs what left the context.
 */
export function openingMessages(
  state: SessionState,
  loadCall: (name: string) => ToolCallShape,
  rewrite: (messages: ModelMessage[]) => ModelMessage[],
): ModelMessage[] {
  if (state.placement !== "history") return [];
  const calls: ToolCallPart[] = [];
  const results: ToolResultPart[] = [];
  for (const [toolCallId, items] of state.calls) {
    if (!toolCallId.startsWith(INIT_LOAD_CALL_PREFIX)) continue;
    const skill = items[0]?.skill ?? toolCallId.slice(INIT_LOAD_CALL_PREFIX.length);
    const { toolName, input } = loadCall(skill);
    const value = items.map((c) => state.live.get(c.id)?.text ?? "").join("");
    calls.push({ type: "tool-call", toolCallId, toolName, input });
    results.push({ type: "tool-result", toolCallId, toolName, output: { type: "text", value } });
  }
  if (calls.length === 0) return [];
  // Unloaded or evicted since: the result becomes the same stub a model load gets.
  return rewrite([
    { role: "assistant", content: calls },
    { role: "tool", content: results },
  ]);
}
