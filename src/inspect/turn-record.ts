/**
 * A compact record of each turn, kept beside a saved conversation for `skillrt inspect`: the session's
 * token ledger at the end of the turn (with the exact text of every block, stored once per distinct text),
 * the skill and tool events in order, and usage. `recordTurns` (record-turns.ts) calls
 * {@link createTurnRecorder} at each `turn-start` and {@link appendTurnRecord} at its `turn-end`.
 */
import { createHash } from "node:crypto";
import type { ModelMessage } from "ai";
import { z } from "zod";
import type { SkillSession } from "../context/skill-session.js";
import type { EngineEvent, EngineEventListener, EngineUsage } from "../engine/engine-event.js";
import { createRedactor, NO_REDACTION, type Redactor } from "../exec/redact.js";
import type { SessionStore } from "../store/session-store.js";
import type { ToolTokens } from "../tools/tool-definition-tokens.js";
import { builtOnce } from "../util/built-once.js";

/** Store namespace of turn logs (same ids as the conversations they describe). */
export const TURN_LOG_NAMESPACE = "conversation-turns";

/** Longest tool input or output text kept in a record, in characters (the rest is cut with a marker). */
export const TURN_TEXT_LIMIT = 8_000;

/**
 * The schemas of a turn log, built on first use (reading a log, at a turn's end or in the inspector): they
 * are zod objects whose set-up would otherwise fall on every `skillrt ask` before its first request.
 */
function turnLogSchemas() {
  /** One ledger entry as the turn ended, with a reference to its exact text. */
  const TurnSegment = z.object({
    key: z.string(),
    kind: z.string(),
    skill: z.string().optional(),
    placement: z.string().optional(),
    tokens: z.number().int().nonnegative(),
    /** Key into the log's `texts` (absent for `history`: its text is the conversation itself). */
    textId: z.string().optional(),
  });

  /** An engine event of the turn (`text-delta` left out: the answer is in the conversation). */
  const TurnEvent = z.looseObject({ type: z.string(), step: z.number(), at: z.number() });

  /** What one turn looked like to the model. */
  const TurnRecord = z.object({
    /** 1-based turn number. */
    turn: z.number().int().positive(),
    startedAt: z.string(),
    endedAt: z.string(),
    /** The user's message (cut at {@link TURN_TEXT_LIMIT}). */
    userText: z.string(),
    /** Number of conversation messages when the turn ended (the `history` segment's text is messages[0, messageEnd)). */
    messageEnd: z.number().int().nonnegative(),
    /** Tokenizer of every figure, e.g. `o200k_base`. */
    counter: z.string(),
    contextWindow: z.number(),
    contextWindowKnown: z.boolean(),
    /** Ledger total above which content is evicted. */
    threshold: z.number(),
    catalogBudget: z.number(),
    catalog: z.object({
      visible: z.number(),
      listed: z.number(),
      shortened: z.number(),
      bare: z.number(),
      omitted: z.number(),
      tokens: z.number(),
      searchOffered: z.boolean(),
    }),
    /** The session ledger's entries, in its order; their tokens add up to {@link ledgerTotal}. */
    segments: z.array(TurnSegment),
    ledgerTotal: z.number().int().nonnegative(),
    /** The host's instructions before the skill context (not part of the skill ledger). */
    host: z.object({ tokens: z.number().int().nonnegative(), textId: z.string() }).optional(),
    /**
     * Tokens of each tool definition the turn's last request carried (not part of the skill ledger). Absent in
     * records written before tools were counted.
     */
    tools: z.array(z.object({ name: z.string(), tokens: z.number().int().nonnegative() })).optional(),
    /** Part of the `history` segment that is tool results (not counted elsewhere in the ledger). */
    toolResultTokens: z.number().int().nonnegative(),
    events: z.array(TurnEvent),
    usage: z.object({ inputTokens: z.number(), outputTokens: z.number(), totalTokens: z.number() }),
    /** Set when the turn failed. */
    error: z.string().optional(),
    /** The OpenTelemetry trace id of the turn's `invoke_agent` span, when a tracer recorded it. */
    traceId: z.string().optional(),
  });

  /** Every turn of a conversation and the texts its segments point to. */
  const TurnLog = z.object({
    version: z.literal(1),
    turns: z.array(TurnRecord),
    texts: z.record(z.string(), z.string()),
  });
  return { TurnSegment, TurnEvent, TurnRecord, TurnLog };
}

type TurnLogSchemas = ReturnType<typeof turnLogSchemas>;
const schemas = builtOnce(turnLogSchemas);

/** One ledger entry as the turn ended, with a reference to its exact text. */
export type TurnSegment = z.infer<TurnLogSchemas["TurnSegment"]>;
/** An engine event of the turn (`text-delta` left out: the answer is in the conversation). */
export type TurnEvent = z.infer<TurnLogSchemas["TurnEvent"]>;
/** What one turn left (see the schema in {@link turnLogSchemas}). */
export type TurnRecord = z.infer<TurnLogSchemas["TurnRecord"]>;
/** Every turn of a conversation and the texts its segments point to. */
export type TurnLog = z.infer<TurnLogSchemas["TurnLog"]>;

/** A record being built, and the texts it refers to. */
export interface PendingTurn {
  /** The record; its number is given when it is appended. */
  record: Omit<TurnRecord, "turn">;
  texts: Record<string, string>;
}

/** Options of {@link createTurnRecorder}. */
export interface TurnRecorderOptions {
  userText: string;
  /** The turn's trace id (its `turn-start` event's), linking the record to the trace. */
  traceId?: string;
  /** Secret values (API keys, tokens) removed from recorded tool inputs and outputs. */
  secrets?: Iterable<string>;
  /** Clock. Default `Date.now`. */
  now?: () => number;
}

/** Collects one turn's events; `finish` measures the session and builds the record. */
export interface TurnRecorder {
  /** Wraps the turn's listener: every event goes to `listener` and into the record. */
  listen(listener: EngineEventListener): EngineEventListener;
  finish(options: {
    session: SkillSession;
    messages: readonly ModelMessage[];
    /** Host instructions placed before the skill context. */
    system?: string;
    error?: string;
  }): PendingTurn;
}

function cut(text: string): string {
  return text.length <= TURN_TEXT_LIMIT
    ? text
    : `${text.slice(0, TURN_TEXT_LIMIT)}… [${text.length - TURN_TEXT_LIMIT} more characters]`;
}

function textOf(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? "");
}

function textId(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** Ids of content items still in context, from a snapshot (to tell skill results from other tool results). */
function liveCallIds(session: SkillSession): Set<string> {
  const snap = session.snapshot();
  const live = new Set<string>();
  for (const skill of snap.loaded) {
    live.add(skill.id);
    for (const doc of skill.docs) live.add(doc.id);
  }
  for (const read of snap.reads) live.add(read.id);
  const calls = new Set<string>();
  for (const [callId, items] of Object.entries(snap.calls))
    if (items.some((item) => live.has(item.id))) calls.add(callId);
  return calls;
}

/** Tokens of tool results the ledger counts in `history` (those whose content the session does not hold). */
function toolResultTokens(messages: readonly ModelMessage[], session: SkillSession): number {
  const live = liveCallIds(session);
  let tokens = 0;
  // As sent: a result whose skill was unloaded or evicted went as its stub.
  for (const message of session.history.sent([...messages])) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result" || live.has(part.toolCallId)) continue;
      const out = part.output;
      if (out.type === "text" || out.type === "error-text") tokens += session.counter.count(out.value);
      else if (out.type === "json" || out.type === "error-json")
        tokens += session.counter.count(JSON.stringify(out.value) ?? "");
      else if (out.type === "content")
        for (const c of out.value) if (c.type === "text") tokens += session.counter.count(c.text);
    }
  }
  return tokens;
}

/** Starts recording a turn. */
export function createTurnRecorder(options: TurnRecorderOptions): TurnRecorder {
  const now = options.now ?? Date.now;
  const start = now();
  const redactor: Redactor = options.secrets === undefined ? NO_REDACTION : createRedactor(options.secrets);
  const clean = (value: unknown): string => cut(redactor.redact(textOf(value)));
  const events: TurnEvent[] = [];
  const usage: EngineUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  let tools: ToolTokens[] | undefined;
  const record = (event: EngineEvent): void => {
    const at = now() - start;
    switch (event.type) {
      case "text-delta":
      // Progress is for the screen while the call runs; its result is recorded.
      case "tool-progress":
      // A subagent's events are in its own session's record; this turn keeps its agent-start and agent-end.
      case "agent-event":
        return;
      case "tool-call":
        events.push({ ...event, at, input: clean(event.input) });
        return;
      case "tool-result":
        events.push({ ...event, at, output: clean(event.output) });
        return;
      case "error":
        events.push({ ...event, at, message: redactor.redact(event.message) });
        return;
      case "step-start": {
        // The definitions are kept once per turn (the last request's), not in every step's event.
        const { tools: stepTools, ...rest } = event;
        if (stepTools !== undefined) tools = stepTools;
        events.push({ ...rest, at });
        return;
      }
      case "step-end":
        usage.inputTokens += event.usage.inputTokens;
        usage.outputTokens += event.usage.outputTokens;
        usage.totalTokens += event.usage.totalTokens;
        events.push({ ...event, at });
        return;
      default:
        events.push({ ...event, at });
    }
  };
  return {
    listen: (listener) => (event) => {
      record(event);
      listener(event);
    },
    finish({ session, messages, system, error }) {
      session.history.measure(messages);
      const ledger = session.ledger();
      const texts: Record<string, string> = {};
      const keep = (text: string): string => {
        const id = textId(text);
        texts[id] = text;
        return id;
      };
      const blockText = new Map(session.renderer.render().blocks.map((b) => [b.key, b.text]));
      const segments: TurnSegment[] = ledger.entries.map((entry) => {
        const text = blockText.get(entry.key);
        return {
          key: entry.key,
          kind: entry.kind,
          ...(entry.skill === undefined ? {} : { skill: entry.skill }),
          placement: entry.placement,
          tokens: entry.tokens,
          ...(text === undefined ? {} : { textId: keep(text) }),
        };
      });
      const result: PendingTurn["record"] = {
        startedAt: new Date(start).toISOString(),
        endedAt: new Date(now()).toISOString(),
        userText: cut(options.userText),
        messageEnd: messages.length,
        counter: ledger.counter,
        contextWindow: ledger.contextWindow,
        contextWindowKnown: ledger.contextWindowKnown,
        threshold: ledger.threshold,
        catalogBudget: ledger.catalogBudget,
        catalog: ledger.catalog,
        segments,
        ledgerTotal: ledger.total,
        ...(system === undefined || system === ""
          ? {}
          : { host: { tokens: session.counter.count(system), textId: keep(system) } }),
        ...(tools === undefined ? {} : { tools }),
        toolResultTokens: toolResultTokens(messages, session),
        events,
        usage,
        ...(error === undefined ? {} : { error: redactor.redact(error) }),
        ...(options.traceId === undefined ? {} : { traceId: options.traceId }),
      };
      return { record: result, texts };
    },
  };
}

/** The turn log of conversation `id`: empty when none is stored or the stored one is not a version-1 log. */
export async function readTurnLog(store: SessionStore, id: string): Promise<TurnLog> {
  const stored = await store.get(id, TURN_LOG_NAMESPACE).catch(() => undefined);
  const parsed = schemas().TurnLog.safeParse(stored?.data);
  return parsed.success ? parsed.data : { version: 1, turns: [], texts: {} };
}

/**
 * Appends a turn to the log of conversation `id`, dropping texts no turn refers to any more. Last
 * writer wins (one conversation is driven by one process at a time).
 */
export async function appendTurnRecord(store: SessionStore, id: string, pending: PendingTurn): Promise<void> {
  const log = await readTurnLog(store, id);
  const turns = [...log.turns, { ...pending.record, turn: log.turns.length + 1 }];
  const all = { ...log.texts, ...pending.texts };
  const texts: Record<string, string> = {};
  for (const turn of turns) {
    for (const segment of turn.segments) {
      const text = segment.textId === undefined ? undefined : all[segment.textId];
      if (segment.textId !== undefined && text !== undefined) texts[segment.textId] = text;
    }
    const host = turn.host === undefined ? undefined : all[turn.host.textId];
    if (turn.host !== undefined && host !== undefined) texts[turn.host.textId] = host;
  }
  await store.put(id, { version: 1, turns, texts } satisfies TurnLog, { namespace: TURN_LOG_NAMESPACE });
}
