/** The waiting loop of stores whose locks are taken by trying (SQLite leases, the memory store). */
import { setTimeout as sleep } from "node:timers/promises";

/** Options of {@link pollLock}. */
export interface PollLockOptions {
  timeoutMs: number;
  abortSignal?: AbortSignal | undefined;
  /** The error to reject with once `timeoutMs` has passed, given how long was waited. */
  busy: (waitedMs: number) => Promise<Error> | Error;
}

/**
 * Calls `attempt` until it returns a value (the lock), waiting 5 ms, then up to 100 ms (with jitter, so
 * waiters do not retry in lockstep) between tries. Rejects with `busy(...)` after `timeoutMs`, or with the
 * abort reason when `abortSignal` fires.
 */
export async function pollLock<T>(
  attempt: () => Promise<T | undefined> | T | undefined,
  options: PollLockOptions,
): Promise<T> {
  const started = Date.now();
  let delay = 5;
  for (;;) {
    options.abortSignal?.throwIfAborted();
    const got = await attempt();
    if (got !== undefined) return got;
    const waited = Date.now() - started;
    if (waited >= options.timeoutMs) throw await options.busy(waited);
    const pause = Math.min(delay * (0.75 + Math.random() / 2), options.timeoutMs - waited);
    try {
      await sleep(Math.max(1, pause), undefined, options.abortSignal ? { signal: options.abortSignal } : {});
    } catch (error) {
      options.abortSignal?.throwIfAborted(); // the signal's own reason rather than the timer's AbortError
      throw error;
    }
    delay = Math.min(100, delay * 1.6);
  }
}
