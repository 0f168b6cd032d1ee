/**
 * An agent's spans, by the OpenTelemetry GenAI conventions (docs/telemetry.md): `invoke_agent` per turn,
 * `chat` per model call, `execute_tool` per tool call (with `gen_ai.skill.*`, a proposal, when the call names
 * a skill), and a short span per skill event of the session (`skill.load`, `skill.unload`, `skill.read`, …).
 * Spans come from the engine's typed events and the tools' executions, through the OpenTelemetry API only:
 * with no provider registered, every span is non-recording and nothing else is done. Nothing the user or a
 * skill's env put in a run is recorded: names, ids, counts and outcomes only.
 */
import {
  type Attributes,
  type Context,
  context,
  createContextKey,
  type Span,
  SpanKind,
  type Tracer,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import type { ToolSet } from "ai";
import { skillSpanAttributes } from "../catalog/skill-span-attributes.js";
import type { SessionEvent } from "../context/session-event.js";
import type { SkillSession } from "../context/skill-session.js";
import { toolOutputSeen } from "../tools/skill-tool-result.js";
import { failSpan, TRACER_NAME, tracerIn, withTracer } from "../util/trace-span.js";
import { SKILLRT_VERSION } from "../util/version.js";
import type { CallOptions } from "./call-options.js";
import type { EngineEvent } from "./engine-event.js";
import { onSessionEvents } from "./skill-step.js";

type AnyTool = ToolSet[string];

// The engine loads the API with the agent (its spans are made from every turn's events).
const API = { context, trace, createContextKey };

/** Where an agent's spans go. */
export interface TelemetryOptions {
  /** The tracer of skillrt's spans. Default: `tracerProvider`'s, else the global provider's (`skillrt`). */
  tracer?: Tracer;
  /** A provider to take the tracer from, instead of the global one. */
  tracerProvider?: TracerProvider;
}

/** What an agent's spans say about it. */
export interface AgentTelemetryInfo {
  /** `gen_ai.agent.name`. */
  agentName: string;
  /** The model's provider (`gen_ai.provider.name`, the part before the first `.`) and id. */
  model: { provider: string; modelId: string };
}

/** The spans of one running turn. */
export interface TurnSpans {
  /** The context of the turn's `invoke_agent` span (what runs in the turn runs under it). */
  readonly context: Context;
  /** The turn's trace id, when its span records. */
  readonly traceId: string | undefined;
  /** Maps one of the turn's events to spans. */
  onEvent(event: EngineEvent): void;
  /** A model call of `step` is about to be made: its `chat` span starts. */
  modelCall(step: number, callOptions: CallOptions | undefined): void;
  /** The context of tool call `toolCallId`'s span while it runs (a subagent's parent). */
  toolContext(toolCallId: string): Context | undefined;
  /** Ends every span the turn still has open, then the turn's; `error` sets its status. */
  end(error?: unknown): void;
}

/** An agent's tracer and tool wrapper; one turn at a time. */
export interface AgentTelemetry {
  /** Starts a turn's `invoke_agent` span under `parent` (default: the active context). */
  startTurn(input: { sessionId: string; session: SkillSession; parent?: Context | undefined }): TurnSpans;
  /**
   * `tool` whose executions get an `execute_tool` span (under the running turn's span, else the active
   * context's). The same wrapper for the same tool object, so per-tool caches keep hitting.
   */
  tool(name: string, tool: AnyTool): AnyTool;
}

/** The tracer of `options`: the given one, the given provider's, else the global provider's. */
export function telemetryTracer(options: TelemetryOptions): Tracer {
  return options.tracer ?? options.tracerProvider?.getTracer(TRACER_NAME, SKILLRT_VERSION) ?? tracerIn(API);
}

/** Whether `active` already has a recording span: then an inner span's parent is it, not the turn. */
function recordingParent(active: Context): boolean {
  return trace.getSpan(active)?.isRecording() === true;
}

/** The agent telemetry of an agent with `info`, spans going to `tracer`. */
export function createAgentTelemetry(tracer: Tracer, info: AgentTelemetryInfo): AgentTelemetry {
  const provider = info.model.provider.split(".")[0] ?? info.model.provider;
  const modelAttributes: Attributes = {
    "gen_ai.provider.name": provider,
    "gen_ai.request.model": info.model.modelId,
  };
  let current: TurnState | undefined;
  const wrapped = new WeakMap<AnyTool, AnyTool>();

  interface TurnState {
    spans: TurnSpans;
    session: SkillSession;
    tools: Map<string, { span: Span; context: Context }>;
  }

  const skillOf = (session: SkillSession, toolName: string, input: unknown): string | undefined => {
    if (typeof input === "object" && input !== null) {
      const named =
        (input as { name?: unknown; skill?: unknown }).name ?? (input as { skill?: unknown }).skill;
      if (typeof named === "string" && session.findSkill(named) !== undefined) return named;
    }
    // A script tool is `<skill>__<script>`.
    const prefix = toolName.startsWith("mcp__") ? undefined : toolName.split("__")[0];
    return prefix !== undefined && prefix !== toolName && session.findSkill(prefix) !== undefined
      ? prefix
      : undefined;
  };

  const startTurn: AgentTelemetry["startTurn"] = ({ sessionId, session, parent }) => {
    const parentContext = parent ?? context.active();
    const span = tracer.startSpan(
      `invoke_agent ${info.agentName}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          "gen_ai.operation.name": "invoke_agent",
          "gen_ai.agent.name": info.agentName,
          "gen_ai.conversation.id": sessionId,
          ...modelAttributes,
        },
      },
      parentContext,
    );
    const turnContext = withTracer(API, trace.setSpan(parentContext, span), tracer);
    const recording = span.isRecording();
    const models = new Map<number, Span>();
    const usage = { input: 0, output: 0 };
    const tools = new Map<string, { span: Span; context: Context }>();
    // A session event's span: under the tool span running it when the context says so, else the turn's.
    const unsubscribe = recording
      ? onSessionEvents(session, (event) => sessionSpan(event, session))
      : undefined;
    const sessionSpan = (event: SessionEvent, sessionOf: SkillSession): void => {
      const active = context.active();
      const parentOf = recordingParent(active) ? active : turnContext;
      const { name, attributes } = describeSessionEvent(event, sessionOf);
      tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, parentOf).end();
    };
    const spans: TurnSpans = {
      context: turnContext,
      traceId: recording ? span.spanContext().traceId : undefined,
      onEvent(event) {
        if (!recording) return;
        if (event.type === "step-end") {
          const model = models.get(event.step);
          models.delete(event.step);
          usage.input += event.usage.inputTokens;
          usage.output += event.usage.outputTokens;
          model?.setAttributes({
            "gen_ai.usage.input_tokens": event.usage.inputTokens,
            "gen_ai.usage.output_tokens": event.usage.outputTokens,
            "gen_ai.response.finish_reasons": [event.finishReason],
          });
          model?.end();
        } else if (event.type === "error") {
          for (const model of models.values()) failSpan(model, event.message, "provider_error");
          if (event.fatal) failSpan(span, event.message, "provider_error");
        } else if (event.type === "turn-limit") {
          span.setAttribute("skillrt.turn.limit", event.limit);
        }
      },
      modelCall(step, callOptions) {
        if (!recording) return;
        models.get(step)?.end();
        models.set(
          step,
          tracer.startSpan(
            `chat ${info.model.modelId}`,
            {
              kind: SpanKind.CLIENT,
              attributes: {
                "gen_ai.operation.name": "chat",
                ...modelAttributes,
                ...requestAttributes(callOptions),
                "skillrt.step": step,
              },
            },
            turnContext,
          ),
        );
      },
      toolContext: (toolCallId) => tools.get(toolCallId)?.context,
      end(error) {
        unsubscribe?.();
        if (current?.spans === spans) current = undefined;
        if (!recording) {
          span.end();
          return;
        }
        for (const model of models.values()) model.end();
        for (const tool of tools.values()) tool.span.end();
        span.setAttributes({
          "gen_ai.usage.input_tokens": usage.input,
          "gen_ai.usage.output_tokens": usage.output,
        });
        if (error !== undefined) failSpan(span, error);
        span.end();
      },
    };
    current = { spans, session, tools };
    return spans;
  };

  const tool: AgentTelemetry["tool"] = (name, original) => {
    const execute = original.execute;
    if (execute === undefined) return original;
    let out = wrapped.get(original);
    if (out !== undefined) return out;
    out = {
      ...original,
      execute: (input: unknown, options: { toolCallId: string }) => {
        const turn = current;
        const active = context.active();
        const parent = turn === undefined || recordingParent(active) ? active : turn.spans.context;
        const toolTracer = turn === undefined ? tracerIn(API, active) : tracer;
        const skill = turn === undefined ? undefined : skillOf(turn.session, name, input);
        const span = toolTracer.startSpan(
          skill === undefined || !LOAD_TOOLS.has(name) ? `execute_tool ${name}` : `${name} ${skill}`,
          {
            kind: SpanKind.INTERNAL,
            attributes: {
              "gen_ai.operation.name": "execute_tool",
              "gen_ai.tool.name": name,
              "gen_ai.tool.call.id": options.toolCallId,
              "gen_ai.tool.type": name.startsWith("mcp__") ? "extension" : "function",
              ...(skill === undefined || turn === undefined
                ? {}
                : skillSpanAttributes(skill, turn.session.findSkill(skill)?.record)),
            },
          },
          parent,
        );
        // The tool's own execute, called with the arguments the loop gave this wrapper.
        const run = () => (execute as (input: unknown, options: unknown) => unknown)(input, options);
        if (!span.isRecording()) return run();
        const toolContext = trace.setSpan(parent, span);
        turn?.tools.set(options.toolCallId, { span, context: toolContext });
        const finish = (): void => {
          turn?.tools.delete(options.toolCallId);
          span.end();
        };
        try {
          const result = context.with(toolContext, run);
          if (!isPromise(result)) {
            if (toolOutputSeen(result).isError) failSpan(span, "the tool returned an error", "tool_error");
            finish();
            return result;
          }
          return result.then(
            (value) => {
              if (toolOutputSeen(value).isError) failSpan(span, "the tool returned an error", "tool_error");
              finish();
              return value;
            },
            (error: unknown) => {
              failSpan(span, error);
              finish();
              throw error;
            },
          );
        } catch (error) {
          failSpan(span, error);
          finish();
          throw error;
        }
      },
    } as AnyTool;
    wrapped.set(original, out);
    return out;
  };

  return { startTurn, tool };
}

/** Tools that load a skill into the context: their span is named `{tool} {skill}` (the skill proposal's refinement). */
const LOAD_TOOLS = new Set(["skill_load", "load_skill", "active_skill", "load_skill_through_path", "Skill"]);

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** The request settings of a model call as the conventions name them. */
function requestAttributes(callOptions: CallOptions | undefined): Attributes {
  if (callOptions === undefined) return {};
  const out: Attributes = {};
  if (callOptions.temperature !== undefined) out["gen_ai.request.temperature"] = callOptions.temperature;
  if (callOptions.topP !== undefined) out["gen_ai.request.top_p"] = callOptions.topP;
  if (callOptions.topK !== undefined) out["gen_ai.request.top_k"] = callOptions.topK;
  if (callOptions.maxOutputTokens !== undefined)
    out["gen_ai.request.max_tokens"] = callOptions.maxOutputTokens;
  if (callOptions.seed !== undefined) out["gen_ai.request.seed"] = callOptions.seed;
  if (callOptions.stopSequences !== undefined)
    out["gen_ai.request.stop_sequences"] = callOptions.stopSequences;
  if (callOptions.presencePenalty !== undefined)
    out["gen_ai.request.presence_penalty"] = callOptions.presencePenalty;
  if (callOptions.frequencyPenalty !== undefined)
    out["gen_ai.request.frequency_penalty"] = callOptions.frequencyPenalty;
  return out;
}

/** A session event's span name and attributes: the skill, and how many tokens or which file (a path, never its text). */
function describeSessionEvent(
  event: SessionEvent,
  session: SkillSession,
): { name: string; attributes: Attributes } {
  const skill = (name: string) => skillSpanAttributes(name, session.findSkill(name)?.record);
  switch (event.type) {
    case "skill-load":
      return {
        name: `skill.load ${event.name}`,
        attributes: {
          ...skill(event.name),
          "skillrt.skill.tokens": event.tokens,
          "skillrt.skill.by": event.by,
        },
      };
    case "skill-unload":
      return { name: `skill.unload ${event.name}`, attributes: skill(event.name) };
    case "file-read":
      return {
        name: `skill.read ${event.name}`,
        attributes: { ...skill(event.name), "skillrt.skill.file": event.path },
      };
    case "docs-select":
      return { name: `skill.docs_select ${event.name}`, attributes: skill(event.name) };
    case "budget-evict":
      return {
        name: "skill.evict",
        attributes: {
          "skillrt.skill.evicted": event.evicted,
          "skillrt.context.tokens_before": event.tokensBefore,
          "skillrt.context.tokens_after": event.tokensAfter,
        },
      };
  }
}
