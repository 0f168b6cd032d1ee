import { describe, expect, it } from "vitest";
import { approximateTokenCounter, createTokenCounter } from "./token-counter.js";

describe("createTokenCounter", () => {
  it("counts with o200k_base by default and names the encoding", () => {
    const counter = createTokenCounter();
    expect(counter.name).toBe("o200k_base");
    expect(counter.count("")).toBe(0);
    expect(counter.count("hello world")).toBe(2);
  });

  it("offers cl100k_base, which tokenizes differently from o200k_base", () => {
    const text = "Résumé: 日本語のテキストを数える。 ".repeat(20);
    const o200k = createTokenCounter().count(text);
    const cl100k = createTokenCounter({ encoding: "cl100k_base" });
    expect(cl100k.name).toBe("cl100k_base");
    expect(cl100k.count(text)).toBeGreaterThan(o200k);
  });

  it("counts special-token text as ordinary text instead of throwing", () => {
    const counter = createTokenCounter();
    expect(counter.count("before <|endoftext|> after")).toBeGreaterThan(3);
  });

  it("returns the same count for a large body on repeated calls, also after cache eviction", () => {
    const counter = createTokenCounter({ cacheSize: 2, cacheMinLength: 10 });
    const bodies = [
      "# A\n" + "alpha ".repeat(500),
      "# B\n" + "beta ".repeat(700),
      "# C\n" + "gamma ".repeat(900),
    ];
    const first = bodies.map((b) => counter.count(b));
    const again = bodies.map((b) => counter.count(b));
    expect(again).toEqual(first);
    expect(first[0]).toBeGreaterThan(400);
    // An uncached counter agrees with the cached one.
    const fresh = createTokenCounter({ cacheSize: 0 });
    expect(bodies.map((b) => fresh.count(b))).toEqual(first);
  });
});

describe("approximateTokenCounter", () => {
  it("estimates one token per four characters", () => {
    expect(approximateTokenCounter.name).toBe("approximate");
    expect(approximateTokenCounter.count("")).toBe(0);
    expect(approximateTokenCounter.count("abcde")).toBe(2);
    expect(approximateTokenCounter.count("x".repeat(4000))).toBe(1000);
  });
});
