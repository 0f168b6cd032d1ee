/**
 * The agent loop: `streamText` with per-step re-rendering of the skill context (`prepareStep`), tool
 * gating (`activeTools`), a step limit, and typed events.
 */
import {
  type LanguageModel,
  type ModelMessage,
  type StopCondition,
  stepCountIs,
  streamText,
  type ToolSet,
} from "ai";
import type { SessionEvent } from "../context/session-event.js";
import type { SkillSession } from "../context/skill-session.js";
import { createSkillTools, type SkillTools } from "../tools/create-skill-tools.js";
import { capToolCallInputs } from "../tools/guard-tool-input.js";
import { toolOutputSeen } from "../tools/skill-tool-result.js";
import { type ToolTokens, toolDefinitionTokens } from "../tools/tool-definition-tokens.js";
import type { AgentTelemetry } from "./agent-telemetry.js";
import { type CallOptions, mergeProviderOptions } from "./call-options.js";
import type { EngineEvent, EngineEventListener, EngineUsage } from "./engine-event.js";
import { cachedInstructions, promptCacheControl } from "./prompt-cache.js";
import { toProviderError } from "./provider-error.js";
import { addToolsOnce } from "./schema-once.js";
import { createSkillStep, onSessionEvents, type SkillStep } from "./skill-step.js";
import {
  DEFAULT_MAX_OUTPUT_TOKENS,
  OUTPUT_CHARS_PER_TOKEN,
  outputCapError,
  outputCutLimit,
  type TurnLimit,
  TurnLimitError,
} from "./turn-limit-error.js";

/** Options of {@link runAgent}. */
export interface RunAgentOptions {
  model: LanguageModel;
  /** The skill session; re-rendered before every step. Optional: without it the loop is a plain chat. */
  session?: SkillSession;
  /** The session's tools (profile, `skill_run`, gating). Default `createSkillTools(session)`. */
  skillTools?: SkillTools;
  /** Extra tools of the host; always active. */
  tools?: ToolSet;
  /** The whole conversation so far, ending with the new user message. */
  messages: ModelMessage[];
  /** Host instructions placed before the skill context in the system prompt. */
  system?: string;
  /** Extra stop conditions (any of them stops the loop). The step limit always applies. */
  stopWhen?: StopCondition<ToolSet> | Array<StopCondition<ToolSet>>;
  /** Most model calls in this run. Default 20. */
  maxSteps?: number;
  /**
   * Cancels the current step: the run resolves with `aborted: true` and the steps completed before. Aborted
   * with a `TurnLimitError` (the turn's deadline), it resolves with `limitReached` instead, keeping the text
   * the stopped step streamed.
   */
  abortSignal?: AbortSignal;
  /**
   * Most output tokens of one model call. Given, it is asked of the provider (`max_tokens`); given or not,
   * a call that streams more than {@link OUTPUT_CHARS_PER_TOKEN} characters per token of it (default cap
   * {@link DEFAULT_MAX_OUTPUT_TOKENS}) is stopped by skillrt, since an endpoint may ignore `max_tokens`.
   * Unset, the provider's own default applies (a cap above some models' maximum would be refused).
   */
  maxOutputTokens?: number;
  onEvent?: EngineEventListener;
  /** Names the model in error messages. Default the model's provider and id. */
  modelLabel?: string;
  /**
   * AI SDK call options given to every model call as they are (`abortSignal` and `maxOutputTokens` are
   * this function's own options: the caller merges them there).
   */
  callOptions?: Omit<CallOptions, "abortSignal" | "maxOutputTokens">;
  /** The agent's spans: each tool wrapped in its `execute_tool` span, and each model call's `chat` span started. */
  tracing?: RunTracing;
  /**
   * Mark the prompt for Anthropic's cache in `history` placement (see `prompt-cache.ts`): the system prompt
   * and the history. Default false (the `SkillAgent` turns it on unless told not to).
   */
  promptCache?: boolean;
}

/** What {@link runAgent} asks of an agent's spans. */
export interface RunTracing {
  tool: AgentTelemetry["tool"];
  modelCall(step: number): void;
}

/** What {@link runAgent} returns. */
export interface RunAgentResult {
  /** Text of the final step. */
  text: string;
  /** Response messages to append to the conversation (assistant and tool messages of completed steps). */
  messages: ModelMessage[];
  /** Usage summed over the steps. */
  usage: EngineUsage;
  /** Number of model calls made. */
  steps: number;
  finishReason: string;
  /** True when `abortSignal` cancelled the run. */
  aborted: boolean;
  /** True when the run stopped at `maxSteps` with the model still calling tools (a `step-limit` event was emitted). */
  stepLimitReached: boolean;
  /**
   * Set when a limit stopped the run (a `turn-limit` event was emitted): the output cap of a call, or the
   * turn's deadline (`abortSignal` aborted with a `TurnLimitError`). `text` and `messages` then end with
   * what the stopped step streamed.
   */
  limitReached?: TurnLimit;
}

function toUsage(usage: {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
}): EngineUsage {
  const inputTokens = usage.inputTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

function byteLength(value: unknown): number {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  return Buffer.byteLength(text, "utf8");
}

// Each message capped once (`capToolCallInputs`, which sizes every tool call's input as JSON): a step's
// history is the earlier steps' and turns' message objects again, never modified, so only the new ones
// are measured.
const cappedOf = new WeakMap<ModelMessage, ModelMessage>();

function cappedOnce(messages: ModelMessage[]): ModelMessage[] {
  return messages.map((message) => {
    let capped = cappedOf.get(message);
    if (capped === undefined) {
      capped = capToolCallInputs([message])[0] ?? message;
      cappedOf.set(message, capped);
      cappedOf.set(capped, capped);
    }
    return capped;
  });
}

function describeModelOf(model: LanguageModel): string {
  if (typeof model === "string") return `model '${model}'`;
  return `${model.provider} model '${model.modelId}'`;
}

/**
 * Runs one user turn: as many model steps as it needs, up to `maxSteps` (default 20). Before every
 * step the skill context is re-rendered (system prompt per placement, catalog budget) and the active
 * tools re-gated; tool calls of one step run in parallel. Malformed tool input and tool failures
 * become error results the model sees, and the loop goes on. A provider failure throws a
 * `ProviderError` (carrying the messages of completed steps); an abort resolves with `aborted: true`.
 */
export async function runAgent(options: RunAgentOptions): Promise<RunAgentResult> {
  const { session } = options;
  const skillTools = session === undefined ? undefined : (options.skillTools ?? createSkillTools(session));
  const skills: SkillStep | undefined =
    session === undefined || skillTools === undefined
      ? undefined
      : createSkillStep(session, skillTools, {
          ...(options.system === undefined ? {} : { instructions: options.system }),
        });
  const emit = (event: EngineEvent): void => options.onEvent?.(event);
  const hostTools = options.tools ?? {};
  const tools: ToolSet = {};
  const wrap = options.tracing?.tool;
  addToolsOnce(tools, hostTools, wrap);
  const maxSteps = options.maxSteps ?? 20;
  const maxOutputChars = (options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS) * OUTPUT_CHARS_PER_TOKEN;
  // Stops the stream when a call passes the output cap; with the caller's signal (and its deadline).
  const outputStop = new AbortController();
  const abortSignal =
    options.abortSignal === undefined
      ? outputStop.signal
      : AbortSignal.any([options.abortSignal, outputStop.signal]);
  // What the step in progress streamed: its text (kept when a limit stops it) and all its output's length.
  let stepText = "";
  let stepChars = 0;
  // The last step whose messages are in `completed` (`onStepEnd` ran for it).
  let completedStep = -1;
  const extraStops = options.stopWhen === undefined ? [] : [options.stopWhen].flat();
  let step = 0;
  let streamStep = -1;
  // What each step was offered, kept from `prepareStep` until the step's first stream part.
  const rendered = new Map<
    number,
    { activeTools: string[]; instructions: string; toolsChange?: EngineEvent | undefined }
  >();
  // A step's context costs, counted when its first stream part arrives: the request is on the wire by
  // then, so loading the tokenizer (a few hundred ms in a fresh process) never delays the first model
  // request. Counted as the ledger counts (the session's tokenizer); a loop without a session estimates.
  const stepCosts = async (view: {
    activeTools: string[];
    instructions: string;
  }): Promise<{ activeTools: string[]; systemTokens: number; tools?: ToolTokens[] }> => ({
    activeTools: view.activeTools,
    systemTokens: session?.counter.count(view.instructions) ?? Math.ceil(view.instructions.length / 4),
    ...(session === undefined
      ? {}
      : { tools: await toolDefinitionTokens(tools, view.activeTools, session.counter) }),
  });
  // Gated host tools offered at the previous step, with the reason each was offered.
  let offeredGated = new Map<string, string>();
  const toolsChange = (at: number, activeTools: readonly string[]): EngineEvent | undefined => {
    if (skills === undefined) return undefined;
    const gating = skills.gating();
    const now = new Map<string, string>();
    for (const name of activeTools) {
      const reason = gating.granted?.[name];
      if (reason !== undefined) now.set(name, reason);
    }
    const offered = [...now]
      .filter(([n]) => !offeredGated.has(n))
      .map(([name, reason]) => ({ name, reason }));
    const withdrawn = [...offeredGated.keys()]
      .filter((n) => !now.has(n))
      .map((name) => ({ name, reason: gating.reasons[name] ?? "no longer available" }));
    offeredGated = now;
    if (offered.length === 0 && withdrawn.length === 0) return undefined;
    return { type: "tools-change", step: at, offered, withdrawn };
  };
  let completed: ModelMessage[] = [];
  let ended: { messages: ModelMessage[]; text: string } | undefined;
  let failure: unknown;
  let lastText = "";
  let finishReason = "stop";
  const usage: EngineUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  // Cancelled (by an abort part, an aborted signal after the stream, or an error thrown on abort): the
  // steps completed so far, no text.
  const aborted = (): RunAgentResult => ({
    text: "",
    messages: completed,
    usage,
    steps: streamStep + 1,
    finishReason: "aborted",
    aborted: true,
    stepLimitReached: false,
  });

  // Stopped by a limit: the completed steps and what the stopped step wrote, as an assistant message (its
  // unfinished tool calls are left out: they have no results).
  const limited = (limit: TurnLimit): RunAgentResult => {
    flush(streamStep);
    emit({ type: "turn-limit", step: Math.max(streamStep, 0), ...limit });
    return {
      text: stepText,
      messages:
        stepText === "" || completedStep >= streamStep
          ? completed
          : [...completed, { role: "assistant", content: [{ type: "text", text: stepText }] }],
      usage,
      steps: streamStep + 1,
      finishReason: limit.limit === "output" ? "length" : "aborted",
      aborted: false,
      stepLimitReached: false,
      limitReached: { limit: limit.limit, message: limit.message },
    };
  };
  const stopped = (): RunAgentResult => {
    const reason: unknown = abortSignal.reason;
    return TurnLimitError.isInstance(reason) ? limited(reason) : aborted();
  };
  // Counts a call's output; past the cap the stream is stopped (the caller then returns `stopped()`).
  const overCap = (chars: number): boolean => {
    stepChars += chars;
    if (stepChars <= maxOutputChars || abortSignal.aborted) return abortSignal.aborted;
    outputStop.abort(outputCapError(options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS));
    return true;
  };

  // Skill events happen inside tool execution, before the stream consumer has seen the tool call; they
  // are held back and emitted just before the next tool result (or step boundary) to keep the order.
  let pending: SessionEvent[] = [];
  const unsubscribe =
    session === undefined
      ? undefined
      : onSessionEvents(session, (event) => {
          pending.push(event);
        });
  const flush = (at: number): void => {
    const events = pending;
    pending = [];
    for (const event of events) emit({ ...event, step: Math.max(at, 0) });
  };

  // A tool's result or error, after the skill events its execution raised.
  const emitToolResult = (
    at: number,
    call: { toolCallId: string; toolName: string },
    output: unknown,
    isError: boolean,
  ): void => {
    flush(at);
    emit({
      type: "tool-result",
      step: at,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output,
      isError,
      bytes: byteLength(output),
    });
  };

  // The skill layer's tool set can grow (script tools of newly loaded skills): copy new entries into the
  // object streamText holds before each step.
  const syncTools = (): void => {
    addToolsOnce(tools, skills?.tools ?? {}, wrap);
  };
  const render = (history: readonly ModelMessage[]): { instructions: string; activeTools: string[] } => {
    const view = skills?.render(history);
    return {
      instructions: view?.instructions ?? options.system ?? "",
      activeTools: [...new Set([...(view?.activeTools ?? []), ...Object.keys(hostTools)])].filter(
        (n) => n in tools,
      ),
    };
  };
  const prepare = async (history?: ModelMessage[]): Promise<void> => {
    await skills?.prepare(history);
    syncTools();
  };
  const rewrite = (messages: ModelMessage[]): ModelMessage[] => skills?.messages(messages) ?? messages;
  await prepare(options.messages);
  const initial = render(options.messages);
  const cache = promptCacheControl(
    options.model,
    session?.placement,
    options.callOptions,
    options.promptCache === true,
  );
  const callOptions =
    cache === undefined
      ? options.callOptions
      : {
          ...options.callOptions,
          providerOptions: mergeProviderOptions(options.callOptions?.providerOptions ?? {}, {
            anthropic: { cacheControl: { ...cache } },
          }),
        };

  try {
    const result = streamText({
      model: options.model,
      tools,
      messages: rewrite(options.messages),
      instructions: cachedInstructions(initial.instructions, cache),
      activeTools: initial.activeTools,
      ...callOptions,
      maxRetries: 0,
      stopWhen: [stepCountIs(maxSteps), ...extraStops],
      abortSignal,
      ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
      // Deferred approvals: a host tool nothing pre-approves waits for the client (the AI SDK's approval flow).
      ...(skillTools?.defersApprovals !== true
        ? {}
        : {
            toolApproval: ({ toolCall }: { toolCall: { toolName: string } }) =>
              skillTools.deferredApproval(toolCall.toolName),
          }),
      prepareStep: async ({ stepNumber, initialMessages, responseMessages }) => {
        step = stepNumber;
        options.tracing?.modelCall(stepNumber);
        const history: ModelMessage[] = cappedOnce([...initialMessages, ...responseMessages]);
        if (stepNumber > 0) await prepare(history);
        const view = stepNumber === 0 ? initial : render(history);
        const messages = rewrite(history);
        rendered.set(stepNumber, {
          activeTools: view.activeTools,
          instructions: view.instructions,
          toolsChange: toolsChange(stepNumber, view.activeTools),
        });
        return {
          instructions: cachedInstructions(view.instructions, cache),
          activeTools: view.activeTools,
          messages,
        };
      },
      onStepEnd: (stepResult) => {
        completed = capToolCallInputs([...stepResult.response.messages]);
        completedStep = stepResult.stepNumber;
      },
      onEnd: (event) => {
        ended = { messages: event.responseMessages, text: event.text };
      },
      onError: ({ error }) => {
        failure ??= error;
      },
    });

    for await (const part of result.fullStream) {
      const step = streamStep;
      switch (part.type) {
        case "start-step": {
          streamStep += 1;
          stepText = "";
          stepChars = 0;
          const view = rendered.get(streamStep);
          rendered.delete(streamStep);
          if (view?.toolsChange !== undefined) emit(view.toolsChange);
          const costs = view === undefined ? { activeTools: [], systemTokens: 0 } : await stepCosts(view);
          emit({ type: "step-start", step: streamStep, ...costs });
          flush(streamStep);
          break;
        }
        case "text-delta":
          if (overCap(part.text.length)) return stopped();
          stepText += part.text;
          emit({ type: "text-delta", step, text: part.text });
          break;
        case "reasoning-delta":
          if (overCap(part.text.length)) return stopped();
          emit({ type: "reasoning-delta", step, text: part.text });
          break;
        case "tool-input-delta":
          if (overCap(part.delta.length)) return stopped();
          break;
        case "tool-call":
          emit({
            type: "tool-call",
            step,
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
          });
          break;
        case "tool-result": {
          const seen = toolOutputSeen(part.output);
          emitToolResult(step, part, seen.output, seen.isError);
          break;
        }
        case "tool-approval-request":
          emit({
            type: "tool-approval-request",
            step,
            approvalId: part.approvalId,
            toolCallId: part.toolCall.toolCallId,
            toolName: part.toolCall.toolName,
            input: part.toolCall.input,
          });
          break;
        case "tool-output-denied":
          emitToolResult(step, part, "The user did not approve this call; it did not run.", true);
          break;
        case "tool-error":
          emitToolResult(
            step,
            part,
            part.error instanceof Error ? part.error.message : String(part.error),
            true,
          );
          break;
        case "finish-step": {
          flush(step);
          const stepUsage = toUsage(part.usage);
          usage.inputTokens += stepUsage.inputTokens;
          usage.outputTokens += stepUsage.outputTokens;
          usage.totalTokens += stepUsage.totalTokens;
          finishReason = part.finishReason;
          emit({ type: "step-end", step, usage: stepUsage, finishReason: part.finishReason });
          break;
        }
        case "error":
          failure ??= part.error;
          break;
        case "abort":
          return stopped();
        default:
          break;
      }
    }
    if (abortSignal.aborted) return stopped();
    if (failure !== undefined) throw failure;
    // The end event carries what `result.responseMessages` and `result.text` give; each of those getters
    // tees the finished stream once more and replays every part of every step through it (two replays a
    // turn, ~1 ms, which ran on into the host's next turn). The getters stay the fallback.
    const [messages, text] =
      ended === undefined
        ? await Promise.all([result.responseMessages, result.text])
        : [ended.messages, ended.text];
    lastText = text;
    const steps = streamStep + 1;
    const stepLimitReached = steps >= maxSteps && finishReason === "tool-calls";
    if (stepLimitReached) emit({ type: "step-limit", step: streamStep, maxSteps });
    // The provider cut the last call at its output cap: the answer is unfinished.
    const cut = finishReason === "length" ? outputCutLimit(options.maxOutputTokens) : undefined;
    if (cut !== undefined) emit({ type: "turn-limit", step: streamStep, ...cut });
    return {
      text: lastText,
      messages: capToolCallInputs([...messages]),
      usage,
      steps,
      finishReason,
      aborted: false,
      stepLimitReached,
      ...(cut === undefined ? {} : { limitReached: cut }),
    };
  } catch (error) {
    if (abortSignal.aborted) return stopped();
    const providerError = toProviderError(
      error,
      options.modelLabel ?? describeModelOf(options.model),
      completed,
    );
    emit({ type: "error", step, message: providerError.message, fatal: true });
    throw providerError;
  } finally {
    flush(streamStep);
    unsubscribe?.();
  }
}
