/**
 * skillrt's spans, through the OpenTelemetry API only (DESIGN decision 25). Nothing here registers a
 * provider. Until something registers one (a provider or a context manager: the API's global object then
 * exists), {@link inSpan} only calls its function and the API is not even loaded (`skillrt run` loads no
 * package). Which tracer a span goes to travels in the OpenTelemetry context (an agent's `tracer` or
 * `tracerProvider`), so code below the engine (a run, an MCP call, a served skill's fetch) needs no option.
 */
import type { SpanKind as ApiSpanKind, Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import { SKILLRT_VERSION } from "./version.js";

/** The instrumentation scope of every skillrt span. */
export const TRACER_NAME = "skillrt";

/** The span kinds skillrt uses (the API's `SpanKind` values, without loading the API). */
export const SpanKind = { INTERNAL: 0 as ApiSpanKind, CLIENT: 2 as ApiSpanKind } as const;

// `SpanStatusCode.ERROR` of the API.
const STATUS_ERROR = 2;

// Where the API (any copy of major version 1) keeps what was registered with it.
const API_GLOBAL = Symbol.for("opentelemetry.js.api.1");

type Api = typeof import("@opentelemetry/api");
/** The parts of the API the helpers use (the engine passes its own static import). */
export type TraceApi = Pick<Api, "context" | "trace" | "createContextKey">;
let api: Api | undefined;
let tracerKey: symbol | undefined;
// The global provider's tracer, a proxy that follows whatever provider is registered later.
let globalTracer: Tracer | undefined;

/** The API once anything registered with it (else undefined: no span could record). */
async function registeredApi(): Promise<Api | undefined> {
  if (api !== undefined) return api;
  if ((globalThis as Record<symbol, unknown>)[API_GLOBAL] === undefined) return undefined;
  api = await import("@opentelemetry/api");
  return api;
}

function keyOf(loaded: TraceApi): symbol {
  tracerKey ??= loaded.createContextKey("skillrt tracer");
  return tracerKey;
}

/** The tracer skillrt's spans use in `ctx`: one set by {@link withTracer}, else the global provider's. */
export function tracerIn(loaded: TraceApi, ctx: Context = loaded.context.active()): Tracer {
  const set = ctx.getValue(keyOf(loaded)) as Tracer | undefined;
  if (set !== undefined) return set;
  globalTracer ??= loaded.trace.getTracer(TRACER_NAME, SKILLRT_VERSION);
  return globalTracer;
}

/** `ctx` with `tracer` as the one skillrt's spans use under it. */
export function withTracer(loaded: TraceApi, ctx: Context, tracer: Tracer): Context {
  return ctx.setValue(keyOf(loaded), tracer);
}

/** Marks `span` failed with `error` (status ERROR and `error.type`), never with more of the error than its message. */
export function failSpan(span: Span, error: unknown, type?: string): void {
  const message = error instanceof Error ? error.message : String(error);
  span.setStatus({ code: STATUS_ERROR, message });
  span.setAttribute(
    "error.type",
    type ??
      (error instanceof Error ? ((error as { code?: unknown }).code?.toString() ?? error.name) : "error"),
  );
}

/** Options of {@link inSpan}. */
export interface InSpanOptions {
  kind?: ApiSpanKind;
  /** The span's attributes; a function is called only for a span that records. */
  attributes?: Attributes | (() => Attributes);
}

/**
 * Runs `fn` in a span named `name`, a child of the active context's span (made active for `fn`). A thrown
 * error sets the span's status and is rethrown. Without a recording tracer, `fn` just runs (`span`
 * undefined).
 */
export async function inSpan<T>(
  name: string,
  options: InSpanOptions,
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  const loaded = await registeredApi();
  if (loaded === undefined) return fn(undefined);
  const parent = loaded.context.active();
  const tracer = tracerIn(loaded, parent);
  const span = tracer.startSpan(name, options.kind === undefined ? {} : { kind: options.kind }, parent);
  if (!span.isRecording()) return fn(undefined);
  if (options.attributes !== undefined)
    span.setAttributes(typeof options.attributes === "function" ? options.attributes() : options.attributes);
  try {
    return await loaded.context.with(loaded.trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}
