/**
 * `--otel`: the CLI's OpenTelemetry export. The SDK and the OTLP/HTTP exporter are loaded only when it is
 * on (they cost start-up time every other run would pay), spans are batched and sent to the collector the
 * standard variables name, and everything is flushed before the command exits. Nothing is exported by default.
 */
import type { TracerProvider } from "@opentelemetry/api";
import { SKILLRT_VERSION } from "../util/version.js";

/** A running export: the provider the agent's spans go to, and the flush before exit. */
export interface OtelExport {
  tracerProvider: TracerProvider;
  /** Where spans are sent (`…/v1/traces`). */
  url: string;
  /** Sends what is left and stops; an export that failed is said through `warn` once. */
  shutdown(): Promise<void>;
}

/**
 * Whether the export is on: `--otel`, or `OTEL_TRACES_EXPORTER=otlp`; never with `OTEL_SDK_DISABLED=true`
 * or `OTEL_TRACES_EXPORTER=none`.
 */
export function otelEnabled(flag: boolean | undefined, env: Record<string, string | undefined>): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === "none") return false;
  return flag === true || exporter === "otlp";
}

/**
 * The traces URL: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as given, else `OTEL_EXPORTER_OTLP_ENDPOINT` +
 * `/v1/traces`, else `http://localhost:4318/v1/traces` (the OTLP/HTTP default).
 */
export function otlpTracesUrl(env: Record<string, string | undefined>): string {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || "http://localhost:4318";
  return `${base.replace(/\/+$/, "")}/v1/traces`;
}

/** `OTEL_EXPORTER_OTLP_HEADERS` / `…_TRACES_HEADERS` (`key=value,key2=value2`, values URL-encoded). */
export function otlpHeaders(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const list of [env.OTEL_EXPORTER_OTLP_HEADERS, env.OTEL_EXPORTER_OTLP_TRACES_HEADERS]) {
    for (const pair of (list ?? "").split(",")) {
      const at = pair.indexOf("=");
      if (at <= 0) continue;
      const key = pair.slice(0, at).trim();
      const raw = pair.slice(at + 1).trim();
      let value = raw;
      try {
        value = decodeURIComponent(raw);
      } catch {
        // Not URL-encoded: taken as written.
      }
      if (key !== "") out[key] = value;
    }
  }
  return out;
}

/**
 * Starts the export: an AsyncLocalStorage context manager (spans nest across awaits), a tracer provider
 * with the `service.name` of `OTEL_SERVICE_NAME` (default `skillrt`), batching to OTLP/HTTP (JSON), also
 * registered as the global provider. `warn` hears of a failed export once (never its headers).
 */
export async function startOtelExport(
  env: Record<string, string | undefined>,
  warn: (message: string) => void,
): Promise<OtelExport> {
  const [api, { AsyncLocalStorageContextManager }, sdk, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import("@opentelemetry/api"),
      import("@opentelemetry/context-async-hooks"),
      import("@opentelemetry/sdk-trace-base"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/resources"),
    ]);
  const url = otlpTracesUrl(env);
  const exporter = new OTLPTraceExporter({ url, headers: otlpHeaders(env) });
  let warned = false;
  const reporting: typeof exporter = Object.assign(Object.create(exporter) as typeof exporter, {
    export: (spans: Parameters<typeof exporter.export>[0], done: Parameters<typeof exporter.export>[1]) =>
      exporter.export(spans, (result) => {
        if (result.code !== 0 && !warned) {
          warned = true;
          warn(`could not export spans to ${url}: ${result.error?.message ?? "the collector refused them"}`);
        }
        done(result);
      }),
  });
  const tracerProvider = new sdk.BasicTracerProvider({
    resource: resourceFromAttributes({
      "service.name": env.OTEL_SERVICE_NAME?.trim() || "skillrt",
      "service.version": SKILLRT_VERSION,
    }),
    spanProcessors: [new sdk.BatchSpanProcessor(reporting)],
  });
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.trace.setGlobalTracerProvider(tracerProvider);
  return {
    tracerProvider,
    url,
    shutdown: async () => {
      await tracerProvider.shutdown().catch((error: unknown) => {
        if (!warned) warn(`could not export spans to ${url}: ${(error as Error).message}`);
      });
    },
  };
}
