/**
 * A `SkillAgent` turn as the AI SDK's UI message stream — what `useChat` and `DefaultChatTransport` read:
 * text and reasoning, tool calls and results (dynamic tool parts), approval requests, skill and subagent
 * activity as data parts, usage and the conversation id. For a route of one's own (Next.js, Hono,
 * Express): `return uiTurnResponse(agent, input)`; `skillrt serve` answers with the same stream.
 */
import { randomUUID } from "node:crypto";
import { createUIMessageStream, createUIMessageStreamResponse, type UIMessageChunk } from "ai";
import { SkillrtError } from "../errors/skillrt-error.js";
import { type EngineEvent, type EngineUsage, innermostEvent } from "./engine-event.js";
import { ProviderError } from "./provider-error.js";
import type { SendOptions, SkillAgent, TurnResult } from "./skill-agent.js";

/** Options of {@link streamUITurn}: those of `send`, and what to do when the turn has settled. */
export interface UITurnOptions extends Omit<SendOptions, "onEvent"> {
  /** Id of the assistant message the stream builds. Default a random UUID. */
  messageId?: string;
  /** Receives every engine event of the turn too. */
  onEvent?: (event: EngineEvent) => void;
  /**
   * Called once the turn has settled (saved, or failed), before the stream closes: e.g. `agent.close()`
   * for an agent made for this request.
   */
  onSettled?: (outcome: { result?: TurnResult; error?: unknown }) => void | Promise<void>;
}

/** What the finish part's and the start part's `messageMetadata` carry. */
export interface UITurnMetadata {
  /** The conversation the turn belongs to: the chat id to continue it with. */
  conversationId: string;
  /** Tokens of the turn (on the finish part). */
  usage?: EngineUsage;
}

type FinishReason = "stop" | "length" | "content-filter" | "tool-calls" | "error" | "other";

/**
 * Runs `agent.send(input, options)` and returns its events as a UI message stream. Data parts:
 * `data-skill` (a skill loaded, unloaded, read from, its docs selected, evicted: the session's event),
 * `data-agent` (a subagent started or ended), `data-notice` (limits, compaction, tools offered or withdrawn,
 * a tool source failing, a save retried: `{ kind, message }`), `data-usage` (the turn's tokens) and
 * `data-conversation` (`{ id }`, first); transient `data-progress` (a running tool's latest output) and
 * `data-agent-activity` (a subagent's own events). An error ends the stream with an `error` part: a
 * skillrt or provider error's message, "internal error" for anything else.
 */
export function streamUITurn(
  agent: SkillAgent,
  input: string,
  options: UITurnOptions = {},
): ReadableStream<UIMessageChunk> {
  const { messageId = randomUUID(), onSettled, onEvent, ...send } = options;
  return createUIMessageStream({
    onError: errorText,
    execute: async ({ writer }) => {
      const conversationId = agent.sessionId;
      writer.write({ type: "start", messageId, messageMetadata: { conversationId } });
      writer.write({ type: "data-conversation", data: { id: conversationId } });
      // Tool sources shared by several agents report every call's progress to each of them: only this
      // turn's own calls' progress goes into its stream, never another conversation's.
      const calls = new Set<string>();
      let open: { kind: "text" | "reasoning"; id: string } | undefined;
      let parts = 0;
      const close = (): void => {
        if (open !== undefined) writer.write({ type: `${open.kind}-end`, id: open.id });
        open = undefined;
      };
      const delta = (kind: "text" | "reasoning", text: string): void => {
        if (open?.kind !== kind) {
          close();
          open = { kind, id: `${kind}-${++parts}` };
          writer.write({ type: `${kind}-start`, id: open.id });
        }
        writer.write({ type: `${kind}-delta`, id: open.id, delta: text });
      };
      const handle = (event: EngineEvent): void => {
        onEvent?.(event);
        switch (event.type) {
          case "step-start":
            writer.write({ type: "start-step" });
            break;
          case "text-delta":
            delta("text", event.text);
            break;
          case "reasoning-delta":
            delta("reasoning", event.text);
            break;
          case "tool-call":
            calls.add(event.toolCallId);
            close();
            writer.write({
              type: "tool-input-available",
              toolCallId: event.toolCallId,
              toolName: event.toolName,
              input: event.input,
              dynamic: true,
            });
            break;
          case "tool-result":
            close();
            writer.write(
              event.isError
                ? {
                    type: "tool-output-error",
                    toolCallId: event.toolCallId,
                    errorText: typeof event.output === "string" ? event.output : JSON.stringify(event.output),
                    dynamic: true,
                  }
                : {
                    type: "tool-output-available",
                    toolCallId: event.toolCallId,
                    output: event.output,
                    dynamic: true,
                  },
            );
            break;
          case "tool-approval-request":
            close();
            writer.write({
              type: "tool-approval-request",
              approvalId: event.approvalId,
              toolCallId: event.toolCallId,
            });
            break;
          case "step-end":
            close();
            writer.write({ type: "finish-step" });
            break;
          case "skill-load":
          case "skill-unload":
          case "docs-select":
          case "file-read":
          case "budget-evict": {
            const { step: _step, ...data } = event;
            writer.write({ type: "data-skill", data });
            break;
          }
          case "agent-start":
          case "agent-end": {
            const { step: _step, ...data } = event;
            writer.write({ type: "data-agent", data });
            break;
          }
          case "agent-event": {
            const inner = innermostEvent(event);
            writer.write({
              type: "data-agent-activity",
              data: {
                agent: event.agent,
                parentCallId: event.parentCallId,
                depth: event.depth,
                event: brief(inner),
              },
              transient: true,
            });
            break;
          }
          case "tool-progress": {
            if (!calls.has(event.toolCallId)) break;
            const { step: _step, ...data } = event;
            writer.write({ type: "data-progress", data, transient: true });
            break;
          }
          case "turn-limit":
          case "save-retry":
          case "tool-source-error":
            writer.write({ type: "data-notice", data: { kind: event.type, message: noticeText(event) } });
            break;
          case "step-limit":
            writer.write({
              type: "data-notice",
              data: {
                kind: event.type,
                message: `stopped after ${event.maxSteps} model calls (the step limit)`,
              },
            });
            break;
          case "history-compact":
            writer.write({
              type: "data-notice",
              data: {
                kind: event.type,
                message: `older history summarised (${event.removedMessages} messages, ${event.tokensBefore} → ${event.tokensAfter} tokens)`,
              },
            });
            break;
          case "tools-change":
            writer.write({
              type: "data-notice",
              data: {
                kind: event.type,
                message: [
                  ...event.offered.map((t) => `${t.name} offered: ${t.reason}`),
                  ...event.withdrawn.map((t) => `${t.name} withdrawn: ${t.reason}`),
                ].join("; "),
              },
            });
            break;
          case "files-not-kept":
            // A cap left files out of what the conversation keeps: the client hears it as the CLI does.
            writer.write({ type: "data-notice", data: { kind: event.type, message: event.message } });
            break;
          case "error":
            if (!event.fatal)
              writer.write({ type: "data-notice", data: { kind: "error", message: event.message } });
            break;
          default:
            break;
        }
      };
      let result: TurnResult | undefined;
      try {
        result = await agent.send(input, { ...send, onEvent: handle });
      } catch (error) {
        close();
        await onSettled?.({ error });
        throw error;
      }
      close();
      await onSettled?.({ result });
      writer.write({ type: "data-usage", data: result.usage });
      const metadata: UITurnMetadata = { conversationId: result.sessionId, usage: result.usage };
      writer.write({ type: "finish", finishReason: finishReasonOf(result), messageMetadata: metadata });
    },
  });
}

/**
 * {@link streamUITurn} as an HTTP `Response` (server-sent events, the headers `DefaultChatTransport`
 * expects, and `x-skillrt-conversation-id`).
 */
export function uiTurnResponse(
  agent: SkillAgent,
  input: string,
  options: UITurnOptions & { headers?: Record<string, string> } = {},
): Response {
  const { headers, ...turn } = options;
  return createUIMessageStreamResponse({
    stream: streamUITurn(agent, input, turn),
    headers: { "x-skillrt-conversation-id": agent.sessionId, ...headers },
  });
}

/** What a client is told about an error: messages written for people, never an internal one's text. */
function errorText(error: unknown): string {
  if (SkillrtError.isInstance(error) || ProviderError.isInstance(error)) return error.message;
  return "internal error (the server's log has the details)";
}

function finishReasonOf(result: TurnResult): FinishReason | "interrupted" {
  if (result.aborted) return "interrupted";
  switch (result.finishReason) {
    case "stop":
    case "length":
    case "content-filter":
    case "tool-calls":
    case "error":
      return result.finishReason;
    default:
      return "other";
  }
}

function noticeText(event: { message: string; source?: string }): string {
  return event.source === undefined ? event.message : `${event.source}: ${event.message}`;
}

/** A subagent's event without its bulk (text deltas stay; tool outputs are left out). */
function brief(event: EngineEvent): Record<string, unknown> {
  switch (event.type) {
    case "text-delta":
      return { type: event.type, text: event.text };
    case "tool-call":
      return { type: event.type, toolName: event.toolName, toolCallId: event.toolCallId };
    case "tool-result":
      return { type: event.type, toolName: event.toolName, isError: event.isError };
    case "skill-load":
    case "skill-unload":
    case "file-read":
      return { type: event.type, name: event.name };
    default:
      return { type: event.type };
  }
}
