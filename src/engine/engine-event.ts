/**
 * Typed events of one agent run (DESIGN decision 11). The engine never prints; the CLI (or a library
 * user) renders these. Every event carries the 0-based `step` it belongs to.
 */

import type { ModelMessage } from "ai";
import type { SessionEvent } from "../context/session-event.js";
import type { SkillSession } from "../context/skill-session.js";
import type { ToolTokens } from "../tools/tool-definition-tokens.js";
import type { ToolProgress } from "../tools/tool-progress.js";

/** Token usage of one step or of a whole run. Figures the provider did not report are 0. */
export interface EngineUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/**
 * Every event of a turn, discriminated by `type` (noun-verb names): the skill session's own events
 * (`skill-load`, `skill-unload`, `docs-select`, `file-read`, `budget-evict`, as the session emits them)
 * and the loop's, each with the 0-based `step` it belongs to.
 */
export type EngineEvent =
  | (SessionEvent & { step: number })
  /** A model call is about to be made; `activeTools` are the tools offered this step. */
  | {
      type: "step-start";
      step: number;
      activeTools: string[];
      systemTokens: number;
      /** Tokens of each active tool's definition this step's request carries (when a session counts them). */
      tools?: ToolTokens[];
    }
  /** A piece of the answer text, in arrival order. */
  | { type: "text-delta"; step: number; text: string }
  /** A piece of the model's reasoning (models that stream it), in arrival order. Not part of the answer. */
  | { type: "reasoning-delta"; step: number; text: string }
  /**
   * A call waits for the client's approval (deferred approvals, `approval.defer`): the turn ends after this
   * step without running it; a later turn sent with the answer (`SendOptions.approvals`, by `approvalId`)
   * runs it or refuses it.
   */
  | {
      type: "tool-approval-request";
      step: number;
      approvalId: string;
      toolCallId: string;
      toolName: string;
      input: unknown;
    }
  /** The model asked for a tool; `input` is the parsed input (or the raw text when it was not valid JSON). */
  | { type: "tool-call"; step: number; toolCallId: string; toolName: string; input: unknown }
  /**
   * A tool finished. `isError` is true for tool errors (including malformed input), which the model
   * also receives as the tool result; `output` is what the model saw.
   */
  | {
      type: "tool-result";
      step: number;
      toolCallId: string;
      toolName: string;
      output: unknown;
      isError: boolean;
      /** Size of the output as the model saw it, in bytes of UTF-8 JSON/text. */
      bytes: number;
    }
  /**
   * A running tool call reported progress: an MCP server's progress notification, or the latest output line
   * of a `skill_run` command. Throttled (at most four a second per call); never shown to the model.
   */
  | ({ type: "tool-progress"; step: number } & ToolProgress)
  /** Older history was summarised into one message. */
  | {
      type: "history-compact";
      step: number;
      removedMessages: number;
      tokensBefore: number;
      tokensAfter: number;
    }
  /**
   * The turn stopped because it made `maxSteps` model calls while the model still wanted tools: the
   * answer is unfinished. Comes after the last `step-end`.
   */
  | { type: "step-limit"; step: number; maxSteps: number }
  /**
   * The turn was stopped by one of its limits: a model call's output passed the output cap (`output`; the
   * provider cut it, or skillrt did when the provider kept streaming), or the turn ran past its deadline
   * (`deadline`). What was streamed so far is kept in the history and saved. `message` says which limit
   * and how to raise it. Comes after the last part of the stopped step.
   */
  | { type: "turn-limit"; step: number; limit: "output" | "deadline"; message: string }
  /**
   * Gated tools (MCP server tools, tools of skill-bound groups) offered or withdrawn since the previous step,
   * each with the reason (e.g. `granted by skill 'triage' (allowed-tools mcp__tracker__create_issue)`).
   * Emitted just before the `step-start` of the step it applies to.
   */
  | {
      type: "tools-change";
      step: number;
      offered: Array<{ name: string; reason: string }>;
      withdrawn: Array<{ name: string; reason: string }>;
    }
  /** A tool source (an MCP server) could not start or stopped; reported once, the conversation goes on. */
  | { type: "tool-source-error"; step: number; source: string; message: string }
  /** A model call finished, with its token usage and finish reason. */
  | { type: "step-end"; step: number; usage: EngineUsage; finishReason: string }
  /**
   * A subagent started on a delegated task (the delegation tool, a `context: fork` skill, or
   * `agent.delegate`). `parentCallId` is the parent's tool call (or `delegate:<n>` from code); `depth` is
   * the child's (1 for a child of the top agent).
   */
  | {
      type: "agent-start";
      step: number;
      agent: string;
      parentCallId: string;
      depth: number;
      sessionId: string;
      model: string;
      task: string;
      /**
       * What the agent's definition asked for that would widen its parent's settings (approval mode,
       * executor, pre-rendering), and the parent's it keeps instead: one sentence each.
       */
      narrowed?: string[];
    }
  /** An event of a running subagent, as its own stream had it, tagged with the agent and the parent call. */
  | {
      type: "agent-event";
      step: number;
      agent: string;
      parentCallId: string;
      depth: number;
      event: EngineEvent;
    }
  /** A subagent finished (or failed or was aborted): what it cost and what it did. */
  | {
      type: "agent-end";
      step: number;
      agent: string;
      parentCallId: string;
      depth: number;
      sessionId: string;
      usage: EngineUsage;
      steps: number;
      skillsLoaded: string[];
      files: string[];
      aborted: boolean;
      error?: string;
    }
  /**
   * The turn's save failed (the store unreachable, a SQLite file locked or unwritable) and is retried with
   * backoff for up to `retryMs`; the turn then ends saved, or fails with an `UnsavedTurnError`.
   */
  | { type: "save-retry"; step: number; message: string; retryMs: number }
  /**
   * Workspace files of the conversation that were not kept: the turn's save left them out (over a cap of
   * `workspaceFiles`, or not a regular file: a symlink, a FIFO), or files saved by an earlier turn could not
   * be restored when the conversation was opened. The turn itself is not affected; the model is told in a
   * note on its next message. `message` says which files, and why.
   */
  | { type: "files-not-kept"; step: number; files: Array<{ path: string; reason: string }>; message: string }
  /** Something failed; `fatal` errors end the run. */
  | { type: "error"; step: number; message: string; fatal: boolean }
  /**
   * A `SkillAgent` turn has its conversation (the store's session lock held) and is about to run. For the
   * agent's subscribers only (`subscribe`, `onEvent` of the agent): a turn's own stream (iterating `send`'s
   * turn, `send`'s `onEvent`) starts with its first step, since its caller knows when it starts.
   */
  | {
      type: "turn-start";
      step: number;
      sessionId: string;
      /** The user's message (without the note on files attached to it). */
      text: string;
      /**
       * What the user did to the context since the previous turn (`loadSkill`, `unloadSkill`: the session's
       * events, and a `context: fork` skill's `agent-start`/`agent-end`; step 0), which the caller had from
       * those calls' results.
       */
      between: EngineEvent[];
      /** The trace id of the turn's `invoke_agent` span, when a tracer records it. */
      traceId?: string;
    }
  /**
   * A `SkillAgent` turn that started is over (saved when the agent has a store; no subagent of it still
   * running), failed or not. For the agent's subscribers only, as `turn-start`. A listener may return a
   * promise for this event: the turn (`send`, or `delegate` for a subagent's turn) settles after it does.
   */
  | {
      type: "turn-end";
      step: number;
      sessionId: string;
      /** Message of the error the turn failed with (`send` rejects with the error itself). */
      error?: string;
      /**
       * The conversation as the turn left it: its history, skill session and the host instructions the
       * turn ran with. Live objects, to read in the listener; a function, so a serialised event stays small.
       */
      conversation: () => { history: readonly ModelMessage[]; session: SkillSession; instructions: string };
    };

/** Names of all event types. */
export type EngineEventType = EngineEvent["type"];

/**
 * Receives engine events. May be async; the engine does not wait for it, except for what it returns for a
 * `turn-end` (see there).
 */
export type EngineEventListener = (event: EngineEvent) => void;

/** The event an `agent-event` carries, through every level of nesting; any other event itself. */
export function innermostEvent(event: EngineEvent): EngineEvent {
  let inner = event;
  while (inner.type === "agent-event") inner = inner.event;
  return inner;
}
