import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { allowedToolsFrom, splitAllowedTools } from "./split-allowed-tools.js";

/** The definition, one code point at a time: split on `\s` and `,` outside parentheses. */
function reference(value: string): string[] {
  const out: string[] = [];
  let current = "";
  let depth = 0;
  for (const ch of value) {
    if (ch === "(") depth++;
    else if (ch === ")" && depth > 0) depth--;
    if (depth === 0 && (ch === "," || /\s/.test(ch))) {
      if (current !== "") out.push(current);
      current = "";
      continue;
    }
    current += ch;
  }
  if (current !== "") out.push(current);
  return out;
}

describe("splitAllowedTools", () => {
  test("splits the spec's and the real-world forms", () => {
    expect(splitAllowedTools("Bash(git add:*) Read, Grep")).toEqual(["Bash(git add:*)", "Read", "Grep"]);
    expect(splitAllowedTools(" Read,,Write\u3000Edit\u00a0Bash(a, b)) x")).toEqual([
      "Read",
      "Write",
      "Edit",
      "Bash(a, b))",
      "x",
    ]);
    expect(splitAllowedTools("")).toEqual([]);
  });

  test("equals the code-point definition on any text", () => {
    const unit = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(..."ReadBash:*gt") },
      fc.constantFrom("(", ")", ",", " ", "\t", "\n", "\v", "\u00a0", "\u1680", "\u2000", "\u2028", "\u3000"),
      fc.constantFrom("\ufeff", "\u200b", "\u0085", "é", "😀", "\ud800", "\udc00"),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (units) => {
        const value = units.join("");
        expect(splitAllowedTools(value)).toEqual(reference(value));
      }),
      { numRuns: 10_000 },
    );
  });

  test("allowedToolsFrom keeps the string items of a list and counts the others", () => {
    expect(allowedToolsFrom(["Read", " Grep ", "", ["x"], { a: "b" }])).toEqual({
      tools: ["Read", "Grep"],
      dropped: 2,
    });
    expect(allowedToolsFrom({ a: "b" })).toBeUndefined();
  });
});
