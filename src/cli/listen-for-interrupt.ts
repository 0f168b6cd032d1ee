/** Ctrl-C handling shared by the commands that run something cancellable. */
import type { CliIo } from "./command.js";

/** Options of {@link listenForInterrupt}. */
export interface ListenForInterruptOptions {
  /** Signals to listen for. Default `["SIGINT"]` (Ctrl-C). */
  signals?: NodeJS.Signals[];
  /**
   * Listen for the first signal only (default `true`): a second Ctrl-C then gets Node's default handling
   * and ends the process, so a run that does not stop on its abort signal can still be killed.
   */
  once?: boolean;
}

/**
 * Calls `handler` when the process receives one of the signals, but only when `io.stdin` is the process's
 * own stdin: an in-process run with its own streams (tests, embedders) leaves process signals alone.
 * Returns the function that stops listening; call it in a `finally`.
 */
export function listenForInterrupt(
  io: CliIo,
  handler: () => void,
  options: ListenForInterruptOptions = {},
): () => void {
  // `processStdin` says so without opening `process.stdin` to compare (that costs a millisecond or more).
  if (io.processStdin !== true && io.stdin !== process.stdin) return () => {};
  const signals = options.signals ?? ["SIGINT"];
  for (const signal of signals) {
    if (options.once === false) process.on(signal, handler);
    else process.once(signal, handler);
  }
  return () => {
    for (const signal of signals) process.removeListener(signal, handler);
  };
}

/** An abort signal that the first Ctrl-C aborts (see {@link listenForInterrupt}), and its release. */
export interface InterruptSignal {
  signal: AbortSignal;
  /** Stops listening for Ctrl-C. */
  release: () => void;
}

/** An {@link InterruptSignal} for one cancellable run of a command. */
export function abortOnInterrupt(io: CliIo): InterruptSignal {
  const controller = new AbortController();
  const release = listenForInterrupt(io, () => controller.abort());
  return { signal: controller.signal, release };
}
