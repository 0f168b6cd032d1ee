/**
 * One turn of a `SkillAgent` as the caller holds it: awaitable for the result, async-iterable for the
 * events as they happen (the AI SDK's `streamText` result, reduced to the two things a host needs).
 */
import type { EngineEvent } from "./engine-event.js";

/**
 * A running turn. `await turn` gives the result (and rejects as the turn does); `for await (const e of
 * turn)` yields every event of the turn in order, from the first, however late iteration starts, and
 * throws the turn's error after the last event. Iterating only is safe: a failed turn whose result is
 * never awaited does not become an unhandled rejection.
 */
export interface AgentTurn<T> extends PromiseLike<T>, AsyncIterable<EngineEvent> {
  /** The result, as a real promise (`turn.result.finally(…)`). */
  readonly result: Promise<T>;
}

/**
 * Runs `body` with an `emit` that records events for iteration; the turn settles when `body` does.
 * `body` starts on the next microtask so the caller can attach listeners first.
 */
export function startAgentTurn<T>(body: (emit: (event: EngineEvent) => void) => Promise<T>): AgentTurn<T> {
  const events: EngineEvent[] = [];
  const waiting = new Set<() => void>();
  let done = false;
  let failure: { error: unknown } | undefined;
  const wake = (): void => {
    for (const resolve of waiting) resolve();
    waiting.clear();
  };
  const emit = (event: EngineEvent): void => {
    events.push(event);
    wake();
  };
  const result = Promise.resolve()
    .then(() => body(emit))
    .then(
      (value) => {
        done = true;
        wake();
        return value;
      },
      (error: unknown) => {
        done = true;
        failure = { error };
        wake();
        throw error;
      },
    );
  // Marks the rejection handled; whoever awaits `result` (or iterates) still sees it.
  result.catch(() => {});
  return {
    result,
    // biome-ignore lint/suspicious/noThenProperty: an AgentTurn is deliberately awaitable (PromiseLike).
    then: (onFulfilled, onRejected) => result.then(onFulfilled, onRejected),
    async *[Symbol.asyncIterator]() {
      let next = 0;
      while (true) {
        while (next < events.length) {
          const event = events[next++];
          if (event !== undefined) yield event;
        }
        if (done) break;
        await new Promise<void>((resolve) => waiting.add(resolve));
      }
      if (failure !== undefined) throw failure.error;
    },
  };
}
