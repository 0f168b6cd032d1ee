import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isPyBlank, isPyWhitespace, pyStrip } from "./py-text.js";

/** Python `str.strip()` by its definition, one unit at a time. */
function reference(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isPyWhitespace(s.charCodeAt(start))) start++;
  while (end > start && isPyWhitespace(s.charCodeAt(end - 1))) end--;
  return s.slice(start, end);
}

const textArb = fc
  .array(fc.constantFrom(..."ab~! \t\n\r\v\f\x1c\x1f\x7f\x85\xa0\u2028\u3000\ufeff\u200b"), { maxLength: 12 })
  .map((a) => a.join(""));

describe("pyStrip and isPyBlank", () => {
  test("pyStrip equals the definition, with or without the printable-ASCII shortcut", () => {
    fc.assert(
      fc.property(textArb, (s) => {
        expect(pyStrip(s)).toBe(reference(s));
        expect(isPyBlank(s)).toBe(reference(s) === "");
      }),
      { numRuns: 5_000 },
    );
    expect(pyStrip("\u3000 x\x85")).toBe("x");
    expect(pyStrip("\ufeffx")).toBe("\ufeffx");
    expect(isPyBlank("")).toBe(true);
    expect(isPyBlank(" \x1c\u2029")).toBe(true);
  });
});
