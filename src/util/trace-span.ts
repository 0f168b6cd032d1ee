/**
 * skillrt's spans, through the OpenTelemetry API only (DESIGN decision 25). Nothing here registers a
 * provider: without one, every span is the API's non-recording span, and {@link inSpan} only calls its
 * function. Which tracer a span goes to travels in the OpenTelemetry context (an agent's `tracer` or
 * `tracerProvider`), so code below the engine (a run, an MCP call, a served skill's fetch) needs no option.
 */
import {
  type Attributes,
  type Context,
  context,
  createContextKey,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { SKILLRT_VERSION } from "./version.js";

export { SpanKind };

/** The instrumentation scope of every skillrt span. */
export const TRACER_NAME = "skillrt";

const TRACER_KEY = createContextKey("skillrt tracer");

// The global provider's tracer, a proxy that follows whatever provider is registered later.
let globalTracer: Tracer | undefined;

/** The tracer skillrt's spans use in `ctx`: one set by {@link withTracer}, else the global provider's. */
export function tracerIn(ctx: Context = context.active()): Tracer {
  const set = ctx.getValue(TRACER_KEY) as Tracer | undefined;
  if (set !== undefined) return set;
  globalTracer ??= trace.getTracer(TRACER_NAME, SKILLRT_VERSION);
  return globalTracer;
}

/** `ctx` with `tracer` as the one skillrt's spans use under it. */
export function withTracer(ctx: Context, tracer: Tracer): Context {
  return ctx.setValue(TRACER_KEY, tracer);
}

/** Marks `span` failed with `error` (status ERROR and `error.type`), never with more of the error than its message. */
export function failSpan(span: Span, error: unknown, type?: string): void {
  const message = error instanceof Error ? error.message : String(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.setAttribute(
    "error.type",
    type ??
      (error instanceof Error ? ((error as { code?: unknown }).code?.toString() ?? error.name) : "error"),
  );
}

/** Options of {@link inSpan}. */
export interface InSpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
}

/**
 * Runs `fn` in a span named `name`, a child of the active context's span (made active for `fn`). A thrown
 * error sets the span's status and is rethrown. Without a recording tracer, `fn` just runs.
 */
export async function inSpan<T>(
  name: string,
  options: InSpanOptions,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = context.active();
  const span = tracerIn(parent).startSpan(name, options, parent);
  if (!span.isRecording()) return fn(span);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}
