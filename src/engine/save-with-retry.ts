/**
 * A save that fails because the store is unreachable (a Postgres restarting, a SQLite file locked or
 * unwritable for a moment) is tried again with backoff for a bounded time, so a store that returns within
 * the window loses nothing. A conflict (another engine saved meanwhile) or a busy session is not retried:
 * trying again cannot change its outcome.
 */
import { SessionBusyError } from "../store/session-busy-error.js";
import { StoreConflictError } from "../store/store-conflict-error.js";

/** Default time a failing save is retried, in ms (`saveRetryMs`). */
export const DEFAULT_SAVE_RETRY_MS = 30_000;
/** First pause between attempts, doubled after each failure up to {@link MAX_SAVE_BACKOFF_MS}. */
const FIRST_BACKOFF_MS = 250;
const MAX_SAVE_BACKOFF_MS = 4_000;

/** Options of {@link saveWithRetry}. */
export interface SaveWithRetryOptions {
  /** How long to keep trying, in ms, from the first failure. `0`: one attempt. */
  retryMs: number;
  /** Told once, at the first failure, before waiting (the error and the window). */
  onFirstFailure?: (error: unknown, retryMs: number) => void;
  /** The error to throw once the window has passed (default: the last error as it is). */
  giveUp?: (error: unknown, retriedMs: number) => unknown;
  /** Pauses `ms` (tests inject a clock). Default `setTimeout`. */
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds now. Default `performance.now()`. */
  now?: () => number;
}

/** Whether trying `error`'s save again could succeed. */
export function isRetryableSaveError(error: unknown): boolean {
  return !StoreConflictError.isInstance(error) && !SessionBusyError.isInstance(error);
}

/**
 * Runs `attempt` until it succeeds, fails with an error retrying cannot change, or `retryMs` has passed since
 * the first failure (the last attempt starts no later than then). Throws the last error (through `giveUp`).
 */
export async function saveWithRetry<T>(attempt: () => Promise<T>, options: SaveWithRetryOptions): Promise<T> {
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let started: number | undefined;
  let backoff = FIRST_BACKOFF_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isRetryableSaveError(error)) throw error;
      started ??= now();
      const left = started + options.retryMs - now();
      if (left <= 0) throw options.giveUp === undefined ? error : options.giveUp(error, now() - started);
      if (backoff === FIRST_BACKOFF_MS) options.onFirstFailure?.(error, options.retryMs);
      await sleep(Math.min(backoff, left));
      backoff = Math.min(backoff * 2, MAX_SAVE_BACKOFF_MS);
    }
  }
}
