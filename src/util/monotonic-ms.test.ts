import { describe, expect, it } from "vitest";
import { monotonicMs } from "./monotonic-ms.js";

describe("monotonicMs", () => {
  it("counts milliseconds as performance.now() does, never backwards", async () => {
    const start = monotonicMs();
    const reference = performance.now();
    let last = start;
    for (let i = 0; i < 1000; i++) {
      const now = monotonicMs();
      expect(now).toBeGreaterThanOrEqual(last);
      last = now;
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    const elapsed = monotonicMs() - start;
    const referenceElapsed = performance.now() - reference;
    expect(elapsed).toBeGreaterThanOrEqual(25);
    expect(Math.abs(elapsed - referenceElapsed)).toBeLessThan(5);
  });
});
