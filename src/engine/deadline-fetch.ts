/**
 * A `fetch` wrapper that bounds how long a model provider may stay silent: until the first byte of its
 * answer (headers and the first body chunk), and between two chunks of the body. A provider that accepts
 * the request and never answers, or streams a little and stalls, fails the request with a
 * {@link ModelTimeoutError} instead of holding the turn forever.
 */

import { type ModelDeadline, ModelTimeoutError } from "./model-timeout-error.js";
import type { FetchFunction } from "./retry-fetch.js";

/** Default time to the first byte of an answer: 300 s (a slow local model loading and reading a long prompt). */
export const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 300_000;
/** Default silence between two chunks of a streamed answer: 120 s. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

/** Options of {@link createDeadlineFetch}. */
export interface DeadlineFetchOptions {
  /** Most ms from sending the request to the first byte of the body. Default {@link DEFAULT_FIRST_BYTE_TIMEOUT_MS}. */
  firstByteTimeoutMs?: number;
  /** Most ms between two chunks of the body. Default {@link DEFAULT_IDLE_TIMEOUT_MS}. */
  idleTimeoutMs?: number;
  /** The underlying fetch. Default `globalThis.fetch`. */
  fetch?: FetchFunction;
}

/**
 * Wraps `fetch` with the two deadlines. When one passes, the request is aborted (the connection is
 * closed) and the call, or the read of the body, fails with a {@link ModelTimeoutError}. Time the
 * consumer spends between reads does not count: only time waiting on the provider. The caller's own
 * abort signal keeps working as before.
 */
export function createDeadlineFetch(options: DeadlineFetchOptions = {}): FetchFunction {
  const firstByteMs = options.firstByteTimeoutMs ?? DEFAULT_FIRST_BYTE_TIMEOUT_MS;
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const inner: FetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  return async (input, init) => {
    const expired = new AbortController();
    const callerSignal = init?.signal ?? undefined;
    const signal =
      callerSignal === undefined ? expired.signal : AbortSignal.any([callerSignal, expired.signal]);
    const startedAt = Date.now();
    let timer: NodeJS.Timeout | undefined;
    // Resolves the race below when the deadline passes; the abort closes the connection.
    const arm = (deadline: ModelDeadline, ms: number, onExpire: (error: ModelTimeoutError) => void): void => {
      clearTimeout(timer);
      timer = setTimeout(
        () => {
          const error = new ModelTimeoutError({
            deadline,
            timeoutMs: deadline === "first-byte" ? firstByteMs : idleMs,
          });
          expired.abort(error);
          onExpire(error);
        },
        Math.max(0, ms),
      );
    };

    let response: Response;
    try {
      response = await new Promise<Response>((resolve, reject) => {
        arm("first-byte", firstByteMs, reject);
        inner(input, { ...init, signal }).then(resolve, reject);
      });
    } catch (error) {
      clearTimeout(timer);
      throw expired.signal.aborted ? expired.signal.reason : error;
    }
    clearTimeout(timer);
    const source = response.body;
    if (source === null) return response;

    const reader = source.getReader();
    let first = true;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const remaining = first ? firstByteMs - (Date.now() - startedAt) : idleMs;
          try {
            const chunk = await new Promise<Awaited<ReturnType<typeof reader.read>>>((resolve, reject) => {
              arm(first ? "first-byte" : "idle", remaining, reject);
              reader.read().then(resolve, reject);
            });
            clearTimeout(timer);
            first = false;
            if (chunk.done) controller.close();
            else controller.enqueue(chunk.value);
          } catch (error) {
            clearTimeout(timer);
            reader.cancel().catch(() => {});
            controller.error(expired.signal.aborted ? expired.signal.reason : error);
          }
        },
        cancel(reason) {
          clearTimeout(timer);
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
