import { describe, expect, it } from "vitest";
import { SkillrtError } from "../errors/skillrt-error.js";
import { StoreConflictError } from "../store/store-conflict-error.js";
import { saveWithRetry } from "./save-with-retry.js";

/** A clock that only moves when slept on, and the pauses taken. */
function fakeClock(): { now: () => number; sleep: (ms: number) => Promise<void>; pauses: number[] } {
  let t = 0;
  const pauses: number[] = [];
  return {
    now: () => t,
    sleep: async (ms) => {
      pauses.push(ms);
      t += ms;
    },
    pauses,
  };
}

const down = () => new SkillrtError({ code: "store-error", message: "connect ECONNREFUSED 127.0.0.1:5432" });

describe("saveWithRetry", () => {
  it("retries an unreachable store with growing pauses until it saves, saying so once", async () => {
    const clock = fakeClock();
    let calls = 0;
    const told: string[] = [];
    const version = await saveWithRetry(
      async () => {
        calls += 1;
        if (calls < 6) throw down();
        return 7;
      },
      { retryMs: 30_000, ...clock, onFirstFailure: (e) => told.push((e as Error).message) },
    );
    expect(version).toBe(7);
    expect(calls).toBe(6);
    expect(clock.pauses).toEqual([250, 500, 1000, 2000, 4000]);
    expect(told).toEqual(["connect ECONNREFUSED 127.0.0.1:5432"]);
  });

  it("gives up once the window has passed, with what giveUp makes of the last error", async () => {
    const clock = fakeClock();
    let calls = 0;
    const failing = saveWithRetry(
      async () => {
        calls += 1;
        throw down();
      },
      {
        retryMs: 3_000,
        ...clock,
        giveUp: (e, ms) => new Error(`gave up after ${ms} ms: ${(e as Error).message}`),
      },
    );
    await expect(failing).rejects.toThrow("gave up after 3000 ms: connect ECONNREFUSED");
    // The pauses never run past the window.
    expect(clock.pauses.reduce((a, b) => a + b, 0)).toBe(3_000);
    expect(calls).toBe(clock.pauses.length + 1);
  });

  it("does not retry a conflict (another engine saved meanwhile)", async () => {
    const clock = fakeClock();
    let calls = 0;
    const conflict = new StoreConflictError({
      id: "s",
      namespace: "conversation",
      expectedVersion: 1,
      actualVersion: 2,
    });
    await expect(
      saveWithRetry(
        async () => {
          calls += 1;
          throw conflict;
        },
        { retryMs: 30_000, ...clock },
      ),
    ).rejects.toBe(conflict);
    expect(calls).toBe(1);
    expect(clock.pauses).toEqual([]);
  });
});
