import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { COUNT_SLICE, MAX_BPE_CHUNK } from "./count-bounded.js";
import { approximateTokenCounter, countTokensAsync, createTokenCounter } from "./token-counter.js";

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

describe("createTokenCounter on long and untrusted text", () => {
  const requireCjs = createRequire(import.meta.url);
  const noSpecial = { disallowedSpecial: new Set<string>() };
  type Count = (text: string, options: typeof noSpecial) => number;
  const library = (encoding: "o200k_base" | "cl100k_base"): Count =>
    (requireCjs(`gpt-tokenizer/encoding/${encoding}`) as { countTokens: Count }).countTokens;

  /** A seeded generator, so a failure reproduces. */
  function random(seed: number): () => number {
    let x = seed;
    return () => {
      x = (Math.imul(x, 1103515245) + 12345) & 0x7fffffff;
      return x / 0x80000000;
    };
  }

  /** Multi-paragraph markdown with code, tables, CJK, emoji, CRLF, trailing spaces and contractions. */
  function multiParagraph(bytes: number, seed: number): string {
    const next = random(seed);
    const fragments = [
      "The",
      " quick",
      " brown",
      " fox",
      " jumps",
      " over",
      " the",
      " lazy",
      " dog",
      ".",
      ",",
      " it's",
      " don't",
      " I'LL",
      " naïve",
      " café",
      " 日本語のテキスト",
      " 😀",
      " 2026",
      " 3.14159",
      " https://example.com/a/b?c=1",
      " `python scripts/x.py --page 3`",
      "\n",
      "\n\n",
      "  \n",
      "\r\n",
      "\n\n## Step",
      "\n- item",
      "\n| a | b |\n|---|---|",
      "\n```bash\nls -la out/ | grep x\n```\n",
      "\n    indented",
      " \t",
      " ???",
      " ---",
      "/",
      "//",
      "\n/",
      " Ünïcödé",
    ];
    let text = "";
    while (text.length < bytes) text += fragments[Math.floor(next() * fragments.length)];
    return text;
  }

  it("counts normal multi-paragraph text exactly as the tokenizer does (both encodings, sync and async)", async () => {
    for (const encoding of ["o200k_base", "cl100k_base"] as const) {
      const exact = library(encoding);
      for (const seed of [1, 2, 3, 4, 5]) {
        // Well past COUNT_SLICE, so the text is counted in several slices.
        const text = multiParagraph(6 * COUNT_SLICE, seed);
        const expected = exact(text, noSpecial);
        expect(createTokenCounter({ encoding, cacheSize: 0 }).count(text)).toBe(expected);
        expect(await createTokenCounter({ encoding, cacheSize: 0 }).countAsync?.(text)).toBe(expected);
      }
      const prose = `${"Paragraph one of the skill, with a sentence or two of instructions.\n\n".repeat(500)}End.`;
      expect(createTokenCounter({ encoding, cacheSize: 0 }).count(prose)).toBe(exact(prose, noSpecial));
    }
  });

  it("counts one long unbroken word in pieces: close to the tokenizer's count, the same every time", async () => {
    const next = random(7);
    let word = "";
    for (let i = 0; i < 4000; i++) word += String.fromCharCode(97 + Math.floor(next() * 26));
    const exact = library("o200k_base")(word, noSpecial);
    const counter = createTokenCounter({ cacheSize: 0 });
    const n = counter.count(word);
    // Each cut between pieces can change the count by about a token.
    expect(Math.abs(n - exact)).toBeLessThanOrEqual(Math.ceil(word.length / MAX_BPE_CHUNK));
    expect(await counter.countAsync?.(word)).toBe(n);

    // A word of over 400,000 letters (which took minutes whole) is counted, consistently, and proportionally.
    const pieces = Math.ceil(400_000 / MAX_BPE_CHUNK);
    const huge = "a".repeat(pieces * MAX_BPE_CHUNK);
    const piece = counter.count("a".repeat(MAX_BPE_CHUNK));
    expect(counter.count(huge)).toBe(pieces * piece);
    expect(await counter.countAsync?.(huge)).toBe(counter.count(huge));
    // Long runs of whitespace, punctuation and newline/slash tails are bounded the same way.
    for (const run of [
      " ".repeat(50_000) + "x",
      "-".repeat(50_000),
      `!${"\n/".repeat(25_000)}`,
      "😀".repeat(25_000),
    ]) {
      const m = counter.count(run);
      expect(m).toBeGreaterThan(0);
      expect(m).toBeLessThanOrEqual(run.length);
      expect(await counter.countAsync?.(run)).toBe(m);
    }
  });

  it("countAsync lets other callbacks run while it counts a long text", async () => {
    const next = random(11);
    let word = "";
    for (let i = 0; i < 200_000; i++) word += String.fromCharCode(97 + Math.floor(next() * 26));
    const counter = createTokenCounter({ cacheSize: 0 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const n = await countTokensAsync(counter, word);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
    expect(n).toBe(counter.count(word));
  });

  it("countTokensAsync falls back to count for counters without countAsync", async () => {
    expect(await countTokensAsync(approximateTokenCounter, "abcdefgh")).toBe(2);
  });
});
