/**
 * A `fetch` wrapper that retries rate limits (429) and server errors (5xx) with exponential backoff,
 * honouring `Retry-After`. Passed to the AI SDK providers (whose own `maxRetries` is set to 0) so
 * every retry is counted once, here. A request that passed its deadline ({@link ModelTimeoutError}) is
 * not retried: the deadline bounds how long a step may wait, and a retry would multiply it.
 */
import { ModelTimeoutError } from "./model-timeout-error.js";

/** The `fetch` shape the AI SDK providers accept. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** What {@link createRetryFetch} reports before it waits and tries again. */
export interface RetryNotice {
  /** The attempt that failed (1-based). */
  attempt: number;
  /** HTTP status of the failed attempt, or undefined for a network error. */
  status: number | undefined;
  /** How long it waits before the next attempt, in ms. */
  delayMs: number;
}

/** Options of {@link createRetryFetch}. */
export interface RetryFetchOptions {
  /** Most attempts per request, the first included. Default 4. */
  maxAttempts?: number;
  /** Delay before the second attempt when the server gives no `Retry-After`, in ms; doubles each time. Default 500. */
  baseDelayMs?: number;
  /** Longest single wait, in ms (also caps `Retry-After`). Default 30,000. */
  maxDelayMs?: number;
  /** The underlying fetch. Default `globalThis.fetch`. */
  fetch?: FetchFunction;
  /** Waits `ms` (injectable for tests). Default a timer that stops early on abort. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Clock for HTTP-date `Retry-After` values. Default `Date.now`. */
  now?: () => number;
  /** Called before each retry. */
  onRetry?: (notice: RetryNotice) => void;
}

/** True for the statuses worth retrying: 408, 409 (Anthropic overload), 429 and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Parses a `Retry-After` header (delta-seconds or an HTTP date) into milliseconds from `now`.
 * Returns undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function isConnectionRefused(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = typeof cause === "object" && cause !== null && "code" in cause ? cause.code : undefined;
  return code === "ECONNREFUSED" || code === "ENOTFOUND";
}

/**
 * Wraps `fetch`: a 429/5xx response (or a network error other than "connection refused" or a passed
 * deadline) is retried
 * up to `maxAttempts` in all, waiting `Retry-After` when the server sends it, else
 * `baseDelayMs · 2^(attempt-1)`. The last failing response is returned as is, so the provider
 * reports its status. Aborting the request's signal stops waiting at once.
 */
export function createRetryFetch(options: RetryFetchOptions = {}): FetchFunction {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 4);
  const base = options.baseDelayMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 30_000;
  const inner: FetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;

  return async (input, init) => {
    const signal = init?.signal ?? undefined;
    for (let attempt = 1; ; attempt++) {
      let response: Response | undefined;
      try {
        response = await inner(input, init);
      } catch (error) {
        if (
          signal?.aborted === true ||
          attempt >= maxAttempts ||
          isConnectionRefused(error) ||
          ModelTimeoutError.isInstance(error)
        )
          throw error;
      }
      if (response !== undefined && (!isRetryableStatus(response.status) || attempt >= maxAttempts))
        return response;
      const retryAfter = parseRetryAfter(response?.headers.get("retry-after"), now());
      const delayMs = Math.min(maxDelay, retryAfter ?? base * 2 ** (attempt - 1));
      // Free the connection of the failed attempt before waiting.
      await response?.body?.cancel().catch(() => undefined);
      options.onRetry?.({ attempt, status: response?.status, delayMs });
      await sleep(delayMs, signal);
    }
  };
}
