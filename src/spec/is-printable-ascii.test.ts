import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isPrintableAscii } from "./is-printable-ascii.js";

/** The definition, as a regular expression: no character outside U+0020–U+007E other than LF. */
const reference = (text: string) => !/[^\x20-\x7e\n]/.test(text);

const unit = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(..."abc XYZ-019:#'\"~ ") },
  { weight: 2, arbitrary: fc.constant("\n") },
  fc.constantFrom("\t", "\r", "\0", "\x1f", "\x7f", "\x80", "\x85", "\xa0", "é", "€", "\u2028", "\ufeff"),
  fc.constantFrom("😀", "\ud800", "\udfff"),
);

describe("isPrintableAscii", () => {
  test("agrees with the definition on texts of every length around the 16-byte blocks", () => {
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 80 }), (units) => {
        const text = units.join("");
        expect(isPrintableAscii(text)).toBe(reference(text));
      }),
      { numRuns: 20_000 },
    );
  });

  test("finds one odd character at any position of a longer text, and reads long texts", () => {
    const plain = "description: Extracts text from PDF files.\n".repeat(10);
    expect(isPrintableAscii(plain)).toBe(true);
    for (const odd of ["\t", "\r", "\0", "\x7f", "é", "\u2028", "😀", "\ud800"]) {
      for (let at = 0; at <= plain.length; at += 7) {
        expect(isPrintableAscii(plain.slice(0, at) + odd + plain.slice(at))).toBe(false);
      }
    }
    const long = "x".repeat(100_000);
    expect(isPrintableAscii(long)).toBe(true);
    expect(isPrintableAscii(`${long}\t`)).toBe(false);
  });
});
