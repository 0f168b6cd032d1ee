/**
 * The bounded trigger matcher answers what `new RegExp(pattern, "i").test(text)` answers, on random
 * patterns built from the supported syntax (case folding of non-ASCII letters included), and refuses,
 * with a reason, what would need backtracking.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileTriggerPattern, MAX_TRIGGER_STATES } from "./compile-trigger-pattern.js";

const ATOMS = [
  "a",
  "b",
  "A",
  "B",
  "1",
  " ",
  ".",
  "\\d",
  "\\w",
  "\\s",
  "\\W",
  "\\b",
  "\\B",
  "^",
  "$",
  "[a-c]",
  "[^a]",
  "[\\w-]",
  "[A-Z]",
  "x{2}",
  "(?:ab|c)",
  "(a|b)*",
  "(a+)+",
  "a{1,3}",
  "[^\\s]",
  "\\.",
  "é",
  "É",
  "ſ",
  "k",
  "\u212a",
  "(?<n>b)",
  "{",
  "}",
  "\\x41",
  "\\u00e9",
];
const QUANTIFIERS = ["", "*", "+", "?", "{0,2}", "{2,}", "*?", "+?"];
const CHARS = [
  "a",
  "b",
  "A",
  "B",
  "1",
  " ",
  ".",
  "x",
  "\n",
  "é",
  "É",
  "ſ",
  "s",
  "k",
  "K",
  "\u212a",
  "_",
  "{",
];

describe("compileTriggerPattern", () => {
  it("agrees with RegExp (flag i) on random supported patterns and texts", () => {
    const sequence = fc
      .array(fc.tuple(fc.constantFrom(...ATOMS), fc.constantFrom(...QUANTIFIERS)), { maxLength: 6 })
      .map((parts) => parts.map(([atom, quantifier]) => atom + quantifier).join(""));
    const pattern = fc.tuple(sequence, fc.option(sequence)).map(([a, b]) => (b === null ? a : `${a}|${b}`));
    const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 12 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(pattern, text, (p, t) => {
        let regex: RegExp;
        try {
          regex = new RegExp(p, "i");
        } catch {
          return; // `a{2}*` and the like: invalid for RegExp too
        }
        const compiled = compileTriggerPattern(p);
        if (!compiled.ok) throw new Error(`refused /${p}/: ${compiled.reason}`);
        expect({ p, t, answer: compiled.matches(t) }).toEqual({ p, t, answer: regex.test(t) });
      }),
      { numRuns: 3000 },
    );
  });

  it("refuses backreferences, lookaround and patterns too large, saying why", () => {
    const reason = (p: string) => {
      const c = compileTriggerPattern(p);
      return c.ok ? "accepted" : c.reason;
    };
    expect(reason("(a)\\1")).toMatch(/backreferences/);
    expect(reason("(?<x>a)\\k<x>")).toMatch(/backreferences/);
    expect(reason("deploy(?!ment)")).toMatch(/lookahead and lookbehind/);
    expect(reason("(?<=re)deploy")).toMatch(/lookahead and lookbehind/);
    expect(reason("(")).toMatch(/not a valid regular expression/);
    expect(reason(`(abc){${MAX_TRIGGER_STATES}}`)).toMatch(/automaton states/);
    expect(reason("\\b(sales|revenue)\\b.*\\.csv")).toBe("accepted");
  });

  it("a pattern that makes RegExp backtrack exponentially answers at once", () => {
    const compiled = compileTriggerPattern("^(a+)+$");
    if (!compiled.ok) throw new Error(compiled.reason);
    const started = performance.now();
    expect(compiled.matches(`${"a".repeat(5_000)}!`)).toBe(false);
    expect(compiled.matches("a".repeat(5_000))).toBe(true);
    // RegExp needs ~2^40 steps for 40 a's and a '!'; the automaton does a few per character.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
