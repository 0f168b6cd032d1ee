/**
 * One user turn of a `SkillAgent`: `$name` loads, `triggerPattern` activation, the selection pre-pass,
 * compaction, the model loop, then the history is saved (also when the provider fails).
 */
import type { LanguageModel, ModelMessage, ToolSet } from "ai";
import { describeModel, type ModelConfig } from "../config/model-config.js";
import { loadForUser, type UserLoadOutcome } from "../context/load-for-user.js";
import { beginTurn } from "../context/load-mode.js";
import { renderRequestSkills } from "../context/render-catalog.js";
import type { SkillSession } from "../context/skill-session.js";
import type { TokenCounter } from "../context/token-counter.js";
import { SkillrtError } from "../errors/skillrt-error.js";
import type { SkillTools } from "../tools/create-skill-tools.js";
import type { CallOptions } from "./call-options.js";
import { compactHistory, historyTokens } from "./compact-history.js";
import type { EngineEvent } from "./engine-event.js";
import { mentionedSkills } from "./mentioned-skills.js";
import { messageText } from "./message-text.js";
import {
  approvalMessage,
  pendingApprovals,
  refusedApprovals,
  type ToolApprovalResponse,
} from "./pending-approvals.js";
import { ProviderError } from "./provider-error.js";
import { type RunTracing, runAgent } from "./run-agent.js";
import { type AutoSelectMode, selectSkills } from "./select-skills.js";
import type { TurnResult, TurnToolCall } from "./skill-agent.js";
import { sessionTriggeredSkill } from "./triggered-skill.js";
import { DEFAULT_TURN_TIMEOUT_MS, turnDeadlineError } from "./turn-limit-error.js";

/** Share of the context window the history may take before it is compacted. */
const COMPACT_AT = 0.7;

/** What a turn works on and with. */
export interface RunTurnOptions {
  input: string;
  /**
   * The client's answers to the calls the previous turn left waiting for approval: the turn then runs (or
   * refuses) them and goes on, with no new user message (`input` must be empty).
   */
  approvals?: readonly ToolApprovalResponse[];
  conversation: { id: string; history: ModelMessage[]; session: SkillSession; skillTools: SkillTools };
  model: LanguageModel;
  modelConfig?: ModelConfig;
  contextWindow: number;
  instructions: string;
  select?: { mode: AutoSelectMode; maxActive?: number };
  maxSteps?: number;
  /** Most output tokens of one model call (see `RunAgentOptions.maxOutputTokens`). */
  maxOutputTokens?: number;
  /** Most ms the turn may take, from here to its save. Default {@link DEFAULT_TURN_TIMEOUT_MS}. */
  turnTimeoutMs?: number;
  tools?: ToolSet;
  abortSignal?: AbortSignal;
  emit: (event: EngineEvent) => void;
  save: () => Promise<void>;
  /**
   * AI SDK call options of every model call of the turn; their `maxOutputTokens` wins over the option's, and
   * their `abortSignal` cancels the turn as `abortSignal` does.
   */
  callOptions?: CallOptions;
  /** The agent's spans (see `runAgent`). */
  tracing?: RunTracing;
  /** Mark the prompt for the provider's cache (see `runAgent`). */
  promptCache?: boolean;
}

// Per counter, the tokens each history message counts for (`historyTokens`' per-message term).
const messageTokensOf = new WeakMap<TokenCounter, WeakMap<ModelMessage, number>>();
// Per message, an upper bound of that term: a token is at least one byte of UTF-8.
const messageBytesOf = new WeakMap<ModelMessage, number>();

/**
 * Whether `historyTokens(messages, counter.count)` is at most `threshold`. Each message is measured once;
 * a history whose bytes are under the threshold is under it without tokenising anything (a resumed
 * conversation's first turn then sends its request before the tokenizer loads).
 */
function historyWithin(messages: readonly ModelMessage[], counter: TokenCounter, threshold: number): boolean {
  let bound = 0;
  for (const message of messages) {
    let bytes = messageBytesOf.get(message);
    if (bytes === undefined) {
      bytes = Buffer.byteLength(messageText(message), "utf8") + 4;
      messageBytesOf.set(message, bytes);
    }
    bound += bytes;
  }
  return bound <= threshold || countedHistoryTokens(messages, counter) <= threshold;
}

/** `historyTokens(messages, counter.count)`, each message counted once per counter. */
function countedHistoryTokens(messages: readonly ModelMessage[], counter: TokenCounter): number {
  let counted = messageTokensOf.get(counter);
  if (counted === undefined) {
    counted = new WeakMap();
    messageTokensOf.set(counter, counted);
  }
  let total = 0;
  for (const message of messages) {
    let tokens = counted.get(message);
    if (tokens === undefined) {
      tokens = historyTokens([message], (t) => counter.count(t));
      counted.set(message, tokens);
    }
    total += tokens;
  }
  return total;
}

/**
 * Runs the turn; `conversation.history` is updated in place. Past `turnTimeoutMs` everything the turn
 * is doing is aborted (with a `TurnLimitError` as the reason) and the turn resolves with `limitReached`,
 * what was streamed so far saved.
 */
export async function runTurn(options: RunTurnOptions): Promise<TurnResult> {
  const timeoutMs = options.turnTimeoutMs ?? DEFAULT_TURN_TIMEOUT_MS;
  const deadline = new AbortController();
  // setTimeout fires at once past 2^31-1 ms (~24.8 days): a longer deadline is that one.
  const timer = setTimeout(
    () => deadline.abort(turnDeadlineError(timeoutMs)),
    Math.min(timeoutMs, 2 ** 31 - 1),
  );
  try {
    const signals = [options.abortSignal, options.callOptions?.abortSignal, deadline.signal].filter(
      (signal): signal is AbortSignal => signal !== undefined,
    );
    return await runTurnWithin(options, signals.length === 1 ? deadline.signal : AbortSignal.any(signals));
  } finally {
    clearTimeout(timer);
  }
}

async function runTurnWithin(options: RunTurnOptions, abortSignal: AbortSignal): Promise<TurnResult> {
  const { conversation, emit, input } = options;
  const { session } = conversation;
  const start = conversation.history.length;
  const signal = { abortSignal };
  const emitLoads = (outcomes: UserLoadOutcome[], by: "user" | "select"): void => {
    for (const outcome of outcomes) {
      if (outcome.ok) {
        conversation.history.push(...outcome.messages);
        emit({ type: "skill-load", step: 0, name: outcome.name, tokens: outcome.tokens, by });
      } else {
        emit({ type: "error", step: 0, message: outcome.message, fatal: false });
      }
    }
  };

  const pending = pendingApprovals(conversation.history);
  if (options.approvals !== undefined) {
    if (input.trim() !== "")
      throw new SkillrtError({
        code: "invalid-argument",
        message: "A turn answering approvals carries no new message: send the message in the next turn",
      });
    const answers = approvalMessage(pending, options.approvals);
    for (const answer of options.approvals)
      if (answer.approved) {
        const call = pending.find((p) => p.approvalId === answer.approvalId);
        if (call !== undefined) conversation.skillTools.grantApproval(call.toolCallId);
      }
    conversation.history.push(answers);
    return runLoop(options, abortSignal, start);
  }
  // Calls left waiting when the user moves on are refused (every call needs its result).
  if (pending.length > 0) conversation.history.push(refusedApprovals(pending));

  // The load mode's turn boundary (trpc's `turn` default unloads what earlier turns loaded).
  beginTurn(session);

  // `$name` is the user asking for a skill: only user-invocable ones (like `/skill`).
  const known = { has: (name: string) => session.findSkill(name)?.userInvocable === true };
  const mentions = mentionedSkills(input, known).filter((n) => session.loadedSkill(n) === undefined);
  const mentionLoads: UserLoadOutcome[] = [];
  for (const name of mentions) mentionLoads.push(await loadForUser(session, name, { by: "user" }));
  emitLoads(mentionLoads, "user");

  // `triggerPattern`: the first skill whose pattern matches the message is loaded before the pre-pass
  // (as the pre-pass loads: only skills the model may see).
  const triggered = sessionTriggeredSkill(input, session);
  if (triggered !== undefined && session.loadedSkill(triggered) === undefined) {
    emitLoads([await loadForUser(session, triggered, { by: "select" })], "select");
  }

  if (options.select !== undefined && options.select.mode !== "off") {
    const selection = await selectSkills({
      mode: options.select.mode,
      session,
      message: input,
      model: options.model,
      ...(options.select.maxActive === undefined ? {} : { maxActive: options.select.maxActive }),
      ...signal,
    });
    emitLoads(selection.loads, "select");
  }

  // Compaction is asked for only when the history passes its threshold, counted as `historyTokens` counts
  // it but once per message (the history's messages are kept from turn to turn, never modified), so a turn
  // does not re-tokenise the whole conversation to find it is under.
  const threshold = Math.floor(options.contextWindow * COMPACT_AT);
  const compaction = historyWithin(conversation.history, session.counter, threshold)
    ? undefined
    : await compactHistory({
        model: options.model,
        messages: conversation.history,
        countTokens: (t) => session.counter.count(t),
        threshold,
        session,
        ...signal,
      }).catch(() => undefined);
  if (compaction?.compacted === true) {
    conversation.history.splice(0, conversation.history.length, ...compaction.messages);
    session.renderer.refreshCatalog();
    emit({
      type: "history-compact",
      step: 0,
      removedMessages: compaction.removedMessages,
      tokensBefore: compaction.tokensBefore,
      tokensAfter: compaction.tokensAfter,
    });
  }
  const turnStart = compaction?.compacted === true ? 0 : start;

  // When the catalog could not show every skill in full, the skills matching this request go with it
  // (not into the system prompt, which stays the same from turn to turn for prompt caches).
  const matches = await renderRequestSkills(session, input);
  conversation.history.push(
    matches.text === ""
      ? { role: "user", content: input }
      : {
          role: "user",
          content: [
            { type: "text", text: matches.text },
            { type: "text", text: input },
          ],
        },
  );
  return runLoop(options, abortSignal, turnStart);
}

/** The model loop of a turn whose messages are in the history, then the save. */
async function runLoop(
  options: RunTurnOptions,
  abortSignal: AbortSignal,
  turnStart: number,
): Promise<TurnResult> {
  const { conversation, emit } = options;
  const { session } = conversation;
  const signal = { abortSignal };
  const toolCalls = new Map<string, TurnToolCall>();
  const track = (event: EngineEvent): void => {
    if (event.type === "tool-call") {
      toolCalls.set(event.toolCallId, { ...event, isError: false });
    } else if (event.type === "tool-result") {
      const call = toolCalls.get(event.toolCallId);
      if (call !== undefined) Object.assign(call, { output: event.output, isError: event.isError });
    }
    emit(event);
  };
  const {
    abortSignal: _signal,
    maxOutputTokens: callMaxOutputTokens,
    ...callOptions
  } = options.callOptions ?? {};
  const maxOutputTokens = callMaxOutputTokens ?? options.maxOutputTokens;
  try {
    const result = await runAgent({
      model: options.model,
      ...(options.callOptions === undefined ? {} : { callOptions }),
      ...(options.tracing === undefined ? {} : { tracing: options.tracing }),
      ...(options.promptCache === undefined ? {} : { promptCache: options.promptCache }),
      session,
      skillTools: conversation.skillTools,
      system: options.instructions,
      messages: conversation.history,
      onEvent: track,
      ...(options.modelConfig === undefined ? {} : { modelLabel: describeModel(options.modelConfig) }),
      ...(options.tools === undefined ? {} : { tools: options.tools }),
      ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
      ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      ...signal,
    });
    conversation.history.push(...result.messages);
    await options.save();
    return {
      sessionId: conversation.id,
      text: result.text,
      toolCalls: [...toolCalls.values()],
      usage: result.usage,
      steps: result.steps,
      finishReason: result.finishReason,
      aborted: result.aborted,
      stepLimitReached: result.stepLimitReached,
      ...(result.limitReached === undefined ? {} : { limitReached: result.limitReached }),
      messages: conversation.history.slice(turnStart),
    };
  } catch (error) {
    if (ProviderError.isInstance(error)) conversation.history.push(...error.messages);
    await options.save();
    throw error;
  }
}
