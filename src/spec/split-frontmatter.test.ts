import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { splitFrontmatterLenient } from "./split-frontmatter.js";

const lineArb = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom("name: x", "description: y", "  - item", "", "text") },
  fc.constantFrom("---", "--- ", "---\t", "----", "-- -", " ---", "- --", "<!-- c -->", "<!--", "-->"),
);
const textArb = fc
  .tuple(fc.array(lineArb, { maxLength: 12 }), fc.boolean())
  .map(([lines, newline]) => lines.join("\n") + (newline ? "\n" : ""));

/** 1-based number of the line holding `offset`. */
const lineAt = (text: string, offset: number) => text.slice(0, offset).split("\n").length;

describe("splitFrontmatterLenient", () => {
  test("splits at delimiter lines, and its lines and offsets point into the text", () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const split = splitFrontmatterLenient(text);
        if ("failure" in split) return;
        const lines = text.split("\n");
        // The YAML is the text between the opening line and the closing line, found where it says.
        expect(text.slice(split.yamlOffset, split.yamlOffset + split.yaml.length)).toBe(split.yaml);
        expect(lines[split.yamlLine - 2]).toMatch(/^---[ \t]*$/);
        expect(lines[split.closingLine - 1]).toMatch(/^---[ \t]*$/);
        expect(split.closingLine).toBe(split.yamlLine + split.yaml.split("\n").length - 1);
        expect(lineAt(text, split.yamlOffset + split.yaml.length)).toBe(split.closingLine);
        // The closing line is the first delimiter line after the opening one.
        for (let k = split.yamlLine - 1; k < split.closingLine - 1; k++)
          expect(lines[k]).not.toMatch(/^---[ \t]*$/);
        expect(split.bodyOffset).toBe(
          split.yamlOffset + split.yaml.length + (lines[split.closingLine - 1] ?? "").length,
        );
      }),
      { numRuns: 10_000 },
    );
  });

  test("reports an unclosed block and a missing one", () => {
    expect(splitFrontmatterLenient("---\nname: x\n")).toEqual({
      failure: "unclosed",
      yamlStart: 4,
      skippedLines: 0,
    });
    expect(splitFrontmatterLenient("---")).toEqual({ failure: "unclosed", yamlStart: 3, skippedLines: 0 });
    expect(splitFrontmatterLenient("name: x\n---\n")).toEqual({ failure: "missing" });
    expect(splitFrontmatterLenient("\n---\n---\nbody")).toMatchObject({
      yaml: "",
      yamlLine: 3,
      closingLine: 3,
    });
  });
});
