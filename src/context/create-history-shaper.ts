/**
 * The history-placement message shaper of a session: what the conversation's messages must look like for
 * the session's state. It writes the opening load messages of `init()`, the profile's synthetic load
 * calls, replaces tool results whose content has left the context with stubs, re-materialises loaded
 * content after compaction, and counts the conversation into the ledger's `history` entry.
 */
import type { ModelMessage } from "ai";
import { openingMessages } from "./opening-messages.js";
import { historyText, rewriteHistory } from "./rewrite-history.js";
import type { SessionProfile } from "./session-profile.js";
import type { SessionState } from "./session-state.js";
import type { TokenCounter } from "./token-counter.js";
import type { ToolCallShape } from "./tool-call-shape.js";
import { userFirstHistory } from "./user-first-history.js";

/** The session's view of the conversation's messages. */
export interface HistoryShaper {
  /**
   * History placement: the loads `init()` made (`active` skills), as one assistant message with a load call
   * per skill and one tool message with their results (`<skill_content>`, or a stub once unloaded). `[]` in
   * system placement or when `init()` loaded nothing. Hosts that own the message list put these after the
   * first user message; the engine (`createSkillStep`, used by `runAgent`) does it.
   */
  openingMessages(): ModelMessage[];
  /** The load call the model would make for `name` under the session's profile (for synthetic calls). */
  loadCall(name: string, args?: string): ToolCallShape;
  /** Replaces tool results whose content has left the context with short stubs (never mutates input). */
  rewrite(messages: readonly ModelMessage[]): ModelMessage[];
  /**
   * The history as sent to the model: {@link rewrite}, then the user first with the {@link openingMessages}
   * after the first user message (`userFirstHistory`). The engine builds every request from it.
   */
  sent(messages: ModelMessage[]): ModelMessage[];
  /**
   * Counts the conversation as {@link sent} (stubs, not unloaded bodies), minus the tool results the session
   * already counts as loaded content, into the ledger's `history`.
   */
  measure(messages: readonly ModelMessage[]): number;
  /** Sets the `history` ledger entry directly. */
  setTokens(tokens: number): void;
  /** Content to re-inject after history compaction for skills still loaded (history placement), else `""`. */
  rematerialize(): string;
}

/** Builds the shaper over a session's state. */
export function createHistoryShaper(
  state: SessionState,
  profile: SessionProfile,
  counter: TokenCounter,
): HistoryShaper {
  const shaper: HistoryShaper = {
    openingMessages: () =>
      openingMessages(
        state,
        (name) => shaper.loadCall(name),
        (messages) => shaper.rewrite(messages),
      ),
    loadCall: (name, args) => ({ toolName: profile.toolNames.load, input: profile.loadInput(name, args) }),
    rewrite: (messages) =>
      rewriteHistory(messages, state.calls, (id) => state.live.get(id)?.text, profile.toolNames),
    sent: (messages) => userFirstHistory(shaper.rewrite(messages), shaper.openingMessages()),
    measure(messages) {
      const isLive = (callId: string): boolean =>
        state.calls.get(callId)?.some((c) => state.live.has(c.id)) ?? false;
      const tokens = historyText(shaper.sent([...messages]), isLive).reduce(
        (sum, t) => sum + counter.count(t),
        0,
      );
      state.historyTokens = tokens;
      return tokens;
    },
    setTokens(tokens) {
      state.historyTokens = Math.max(0, Math.floor(tokens));
    },
    rematerialize() {
      if (state.placement === "system" || state.skills.size === 0) return "";
      let text = "Loaded skill context (skills still loaded from earlier in this conversation):\n\n";
      for (const entry of state.skills.values()) {
        text += entry.item.text;
        for (const path of [...entry.docs.keys()].sort()) text += entry.docs.get(path)?.text ?? "";
      }
      return text;
    },
  };
  return shaper;
}
