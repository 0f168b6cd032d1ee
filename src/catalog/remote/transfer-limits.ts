/**
 * How long a remote root's download (HTTP or git) may take: an overall deadline, and a minimum rate
 * over a window (as git's `http.lowSpeedLimit` / `http.lowSpeedTime`), so a server that trickles one
 * byte a minute cannot keep `skillrt list` busy.
 */

/** Deadline and minimum rate of one remote root's fetch. */
export interface TransferLimits {
  /** The whole fetch (every request and redirect, or every git command) ends by then. Default 120 s. */
  deadlineMs: number;
  /** Fewer bytes than this per second, for {@link TransferLimits.lowSpeedMs} in a row, stops it. Default 1024; 0 turns the check off. */
  lowSpeedBytesPerSecond: number;
  /** The window of the minimum rate. Default 30 s. */
  lowSpeedMs: number;
}

/** 120 s in all; at least 1 KiB/s over every 30 s. */
export const defaultTransferLimits: TransferLimits = {
  deadlineMs: 120_000,
  lowSpeedBytesPerSecond: 1024,
  lowSpeedMs: 30_000,
};

/**
 * The limits `env` sets, others at their defaults: `SKILLRT_REMOTE_TIMEOUT` (seconds, the deadline),
 * `SKILLRT_REMOTE_LOW_SPEED_LIMIT` (bytes per second) and `SKILLRT_REMOTE_LOW_SPEED_TIME` (seconds).
 * A value that is not a number ≥ 0 (> 0 for times) is ignored.
 */
export function transferLimitsFromEnv(env: Record<string, string | undefined>): TransferLimits {
  const number = (name: string, positive: boolean): number | undefined => {
    const text = env[name]?.trim();
    if (text === undefined || text === "") return undefined;
    const value = Number(text);
    return Number.isFinite(value) && (positive ? value > 0 : value >= 0) ? value : undefined;
  };
  const timeout = number("SKILLRT_REMOTE_TIMEOUT", true);
  const rate = number("SKILLRT_REMOTE_LOW_SPEED_LIMIT", false);
  const window = number("SKILLRT_REMOTE_LOW_SPEED_TIME", true);
  return {
    deadlineMs: timeout === undefined ? defaultTransferLimits.deadlineMs : Math.round(timeout * 1000),
    lowSpeedBytesPerSecond: rate ?? defaultTransferLimits.lowSpeedBytesPerSecond,
    lowSpeedMs: window === undefined ? defaultTransferLimits.lowSpeedMs : Math.round(window * 1000),
  };
}

/** `120 s`, `1.5 s`: a duration for messages. */
export function seconds(ms: number): string {
  return `${Number.isInteger(ms / 1000) ? ms / 1000 : (ms / 1000).toFixed(1)} s`;
}

/** One fetch's clock: its deadline runs from {@link startTransferDeadline} until `done`. */
export interface TransferDeadline {
  /** Aborted at the deadline, by `stop`, or by the caller's signal. */
  signal: AbortSignal;
  /** Ends the fetch with `why` (the first reason given is kept). */
  stop(why: string): void;
  /** Why the fetch was stopped, if it was. */
  stopped(): string | undefined;
  /** Releases the timer. */
  done(): void;
}

/** Starts the overall deadline of one fetch (HTTP or git), merged with `abortSignal`. */
export function startTransferDeadline(transfer: TransferLimits, abortSignal?: AbortSignal): TransferDeadline {
  const controller = new AbortController();
  let reason: string | undefined;
  const stop = (why: string) => {
    reason ??= why;
    controller.abort();
  };
  const timer = setTimeout(
    () => stop(`it took longer than the ${seconds(transfer.deadlineMs)} deadline (SKILLRT_REMOTE_TIMEOUT)`),
    transfer.deadlineMs,
  );
  return {
    signal: abortSignal === undefined ? controller.signal : AbortSignal.any([controller.signal, abortSignal]),
    stop,
    stopped: () => reason,
    done: () => clearTimeout(timer),
  };
}
