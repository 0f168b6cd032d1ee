/** A counting semaphore (how many subagents run at once). */

/** A counting semaphore: at most `limit` holders; `acquire` waits (and gives up on abort). */
export function createSlots(limit: number): { acquire(signal?: AbortSignal): Promise<() => void> } {
  let held = 0;
  const waiting: Array<() => void> = [];
  const release = (): void => {
    held--;
    waiting.shift()?.();
  };
  return {
    async acquire(signal) {
      while (held >= Math.max(1, limit)) {
        signal?.throwIfAborted();
        await new Promise<void>((resolve, reject) => {
          const wake = (): void => {
            signal?.removeEventListener("abort", abort);
            resolve();
          };
          const abort = (): void => {
            const i = waiting.indexOf(wake);
            if (i >= 0) waiting.splice(i, 1);
            reject(signal?.reason);
          };
          waiting.push(wake);
          signal?.addEventListener("abort", abort, { once: true });
        });
      }
      held++;
      return release;
    },
  };
}
