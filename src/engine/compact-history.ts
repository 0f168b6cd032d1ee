/**
 * History compaction: when the conversation passes a token threshold, older turns are summarised by
 * the model into one message, and the skill context re-materialises what is still loaded.
 */
import { generateText, type LanguageModel, type ModelMessage } from "ai";
import type { SkillSession } from "../context/skill-session.js";
import { SUMMARY_PREFIX } from "../context/summary-prefix.js";
import { messageText, transcript } from "./message-text.js";

/** Options of {@link compactHistory}. */
export interface CompactHistoryOptions {
  model: LanguageModel;
  messages: ModelMessage[];
  /** Token count of a text (use the session's tokenizer). */
  countTokens: (text: string) => number;
  /** Compact when the history's tokens exceed this. */
  threshold: number;
  /** Most recent user turns kept verbatim. Default 2. */
  keepTurns?: number;
  /** The skill session: what is still loaded is re-materialised after the summary (history placement). */
  session?: SkillSession;
  abortSignal?: AbortSignal;
}

/** What {@link compactHistory} did. */
export interface CompactHistoryResult {
  messages: ModelMessage[];
  compacted: boolean;
  removedMessages: number;
  tokensBefore: number;
  tokensAfter: number;
}

export { SUMMARY_PREFIX } from "../context/summary-prefix.js";

/** Tokens of a conversation's text. */
export function historyTokens(
  messages: readonly ModelMessage[],
  countTokens: (text: string) => number,
): number {
  let total = 0;
  for (const m of messages) total += countTokens(messageText(m)) + 4;
  return total;
}

/**
 * Compacts when `historyTokens(messages) > threshold`: everything before the last `keepTurns` user
 * messages is summarised with one `generateText` call, and replaced by a user message starting with
 * {@link SUMMARY_PREFIX}, followed by `session.history.rematerialize()` (loaded skills, history placement),
 * then the kept turns. Turns are cut at user messages so tool calls never lose their results.
 */
export async function compactHistory(options: CompactHistoryOptions): Promise<CompactHistoryResult> {
  const { messages, countTokens } = options;
  const tokensBefore = historyTokens(messages, countTokens);
  const unchanged = {
    messages,
    compacted: false,
    removedMessages: 0,
    tokensBefore,
    tokensAfter: tokensBefore,
  };
  if (tokensBefore <= options.threshold) return unchanged;
  const userIndexes = messages.flatMap((m, i) => (m.role === "user" ? [i] : []));
  const keepTurns = Math.max(1, options.keepTurns ?? 2);
  const cut = userIndexes.at(-keepTurns);
  if (cut === undefined || cut === 0) return unchanged;
  const older = messages.slice(0, cut);
  const kept = messages.slice(cut);
  const { text } = await generateText({
    model: options.model,
    maxRetries: 0,
    instructions:
      "Summarise this conversation so it can continue without it: the user's goals, decisions, facts, file names, " +
      "results of tool runs, and open questions. Leave out skill instructions (they are re-supplied). Be concise.",
    prompt: transcript(older),
    ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
  });
  const summary: ModelMessage = { role: "user", content: `${SUMMARY_PREFIX}\n${text.trim()}` };
  const loaded = options.session?.history.rematerialize() ?? "";
  const rematerialized: ModelMessage[] = loaded === "" ? [] : [{ role: "user", content: loaded }];
  const next: ModelMessage[] = [summary, ...rematerialized, ...kept];
  return {
    messages: next,
    compacted: true,
    removedMessages: older.length,
    tokensBefore,
    tokensAfter: historyTokens(next, countTokens),
  };
}
