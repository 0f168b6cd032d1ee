/**
 * What the inspector shows of stored conversations: a summary per session for the list, and one
 * session in full (messages as text, skill state, the turn log with block texts).
 */
import { SessionSnapshot } from "../context/session-snapshot.js";
import { CONVERSATION_NAMESPACE } from "../engine/create-skill-agent.js";
import { firstUserText } from "../engine/first-user-text.js";
import { SavedConversation } from "../engine/saved-conversation.js";
import type { SessionStore } from "../store/session-store.js";
import { readTurnLog, TURN_LOG_NAMESPACE, type TurnRecord } from "./turn-record.js";

/** One row of the sessions list. */
export interface SessionSummary {
  id: string;
  createdAt: string;
  updatedAt: string;
  /** Store version of the conversation (changes on every save). */
  version: number;
  turns: number;
  model?: string;
  loaded: string[];
  /** Ledger total at the end of the last recorded turn (0 without a turn log). */
  tokens: number;
  contextWindow?: number;
  messages: number;
  /** The first thing the user said, on one line (absent before the first message). */
  firstMessage?: string;
  /** Set when the stored value is not a readable conversation. */
  problem?: string;
}

/** One part of a message, flattened for display. */
export type MessagePart =
  | { type: "text"; text: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: string }
  | { type: "tool-result"; toolCallId: string; toolName: string; output: string };

/** A message, flattened for display. */
export interface MessageView {
  role: string;
  parts: MessagePart[];
}

/** A session in full. */
export interface SessionDetail extends SessionSummary {
  placement?: string;
  messagesView: MessageView[];
  turnRecords: TurnRecord[];
  /** Texts the turn records' segments point to. */
  texts: Record<string, string>;
}

function modelLabel(model: SavedConversation["model"]): string | undefined {
  return model === undefined ? undefined : `${model.provider}:${model.modelId}`;
}

function textOf(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? "");
}

function outputText(output: unknown): string {
  if (typeof output !== "object" || output === null) return textOf(output);
  const o = output as { type?: unknown; value?: unknown };
  if ((o.type === "text" || o.type === "error-text") && typeof o.value === "string") return o.value;
  if (o.type === "content" && Array.isArray(o.value))
    return o.value
      .map((c: unknown) =>
        typeof c === "object" && c !== null && "text" in c ? String((c as { text: unknown }).text) : "",
      )
      .join("\n");
  return textOf(o.value ?? output);
}

/** Flattens AI SDK messages (as stored, already validated JSON) for display. */
export function viewMessages(messages: readonly unknown[]): MessageView[] {
  return messages.map((raw) => {
    const m = (typeof raw === "object" && raw !== null ? raw : {}) as { role?: unknown; content?: unknown };
    const role = typeof m.role === "string" ? m.role : "unknown";
    if (typeof m.content === "string") return { role, parts: [{ type: "text", text: m.content }] };
    const parts: MessagePart[] = [];
    for (const p of Array.isArray(m.content) ? m.content : []) {
      const part = (typeof p === "object" && p !== null ? p : {}) as Record<string, unknown>;
      if ((part["type"] === "text" || part["type"] === "reasoning") && typeof part["text"] === "string")
        parts.push({ type: "text", text: part["text"] });
      else if (part["type"] === "tool-call")
        parts.push({
          type: "tool-call",
          toolCallId: String(part["toolCallId"]),
          toolName: String(part["toolName"]),
          input: textOf(part["input"]),
        });
      else if (part["type"] === "tool-result")
        parts.push({
          type: "tool-result",
          toolCallId: String(part["toolCallId"]),
          toolName: String(part["toolName"]),
          output: outputText(part["output"]),
        });
    }
    return { role, parts };
  });
}

async function readOne(
  store: SessionStore,
  id: string,
): Promise<{ summary: SessionSummary; detail: Omit<SessionDetail, keyof SessionSummary> } | undefined> {
  let stored: Awaited<ReturnType<SessionStore["get"]>>;
  try {
    stored = await store.get(id, CONVERSATION_NAMESPACE);
  } catch (error) {
    return {
      summary: {
        id,
        createdAt: "",
        updatedAt: "",
        version: 0,
        turns: 0,
        loaded: [],
        tokens: 0,
        messages: 0,
        problem: error instanceof Error ? error.message : String(error),
      },
      detail: { messagesView: [], turnRecords: [], texts: {} },
    };
  }
  if (stored === undefined) return undefined;
  const log = await readTurnLog(store, id);
  const parsed = SavedConversation.safeParse(stored.data);
  const snapshot = SessionSnapshot.safeParse(parsed.success ? parsed.data.skills : undefined);
  const last = log.turns.at(-1);
  const model = parsed.success ? modelLabel(parsed.data.model) : undefined;
  const first = parsed.success ? firstUserText(parsed.data.messages) : undefined;
  const summary: SessionSummary = {
    id,
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
    version: stored.version,
    turns: log.turns.length,
    ...(model === undefined ? {} : { model }),
    loaded: snapshot.success ? snapshot.data.loaded.map((s) => s.name) : [],
    tokens: last?.ledgerTotal ?? 0,
    ...(last === undefined ? {} : { contextWindow: last.contextWindow }),
    messages: parsed.success ? parsed.data.messages.length : 0,
    ...(first === undefined ? {} : { firstMessage: first }),
    ...(parsed.success ? {} : { problem: "not a saved skillrt conversation (version 1)" }),
  };
  return {
    summary,
    detail: {
      ...(snapshot.success ? { placement: snapshot.data.placement } : {}),
      messagesView: parsed.success ? viewMessages(parsed.data.messages) : [],
      turnRecords: log.turns,
      texts: log.texts,
    },
  };
}

/** Summaries of the most recently written conversations (default 500), newest first. */
export async function listSessions(store: SessionStore, limit = 500): Promise<SessionSummary[]> {
  const infos = await store.list({ namespace: CONVERSATION_NAMESPACE, limit });
  const rows = await Promise.all(infos.map((info) => readOne(store, info.id)));
  return rows.flatMap((row) => (row === undefined ? [] : [row.summary]));
}

/** One conversation in full; undefined when none is stored under `id`. */
export async function readSession(store: SessionStore, id: string): Promise<SessionDetail | undefined> {
  const row = await readOne(store, id);
  return row === undefined ? undefined : { ...row.summary, ...row.detail };
}

/**
 * A fingerprint of the stored conversations and turn logs (ids and versions): it changes whenever one is
 * written, which is what the live view polls for.
 */
export async function storeFingerprint(store: SessionStore): Promise<Map<string, string>> {
  const [conversations, turns] = await Promise.all([
    store.list({ namespace: CONVERSATION_NAMESPACE, limit: 500 }),
    store.list({ namespace: TURN_LOG_NAMESPACE, limit: 500 }),
  ]);
  const result = new Map<string, string>();
  for (const c of conversations) result.set(c.id, `${c.version}`);
  for (const t of turns) result.set(t.id, `${result.get(t.id) ?? "0"}/${t.version}`);
  return result;
}
