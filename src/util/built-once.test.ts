import { describe, expect, it } from "vitest";
import { builtOnce } from "./built-once.js";

describe("builtOnce", () => {
  it("builds on the first call only and hands back the same value, undefined included", () => {
    let builds = 0;
    const value = builtOnce(() => ({ n: ++builds }));
    expect(builds).toBe(0);
    const first = value();
    expect(value()).toBe(first);
    expect(builds).toBe(1);
    let none = 0;
    const nothing = builtOnce(() => {
      none++;
      return undefined;
    });
    expect([nothing(), nothing(), none]).toEqual([undefined, undefined, 1]);
  });
});
