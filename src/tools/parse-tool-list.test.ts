import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseAllowedTool } from "./match-allowed-tool.js";
import { mergeToolLists, parseToolList } from "./parse-tool-list.js";

describe("parseToolList", () => {
  it("reads the shapes skills write", () => {
    expect(parseToolList({ github: [], web: ["search", " fetch "] })).toEqual(
      new Map<string, unknown>([
        ["github", "all"],
        ["web", new Set(["search", "fetch"])],
      ]),
    );
    expect(parseToolList({ a: "", b: "null", c: "x, y" })).toEqual(
      new Map<string, unknown>([
        ["a", "all"],
        ["b", "all"],
        ["c", new Set(["x", "y"])],
      ]),
    );
    expect(parseToolList('{"s": []}')).toEqual(new Map([["s", "all"]]));
    expect(parseToolList(["s1", "s2"])).toEqual(
      new Map([
        ["s1", "all"],
        ["s2", "all"],
      ]),
    );
    expect(parseToolList("not json").size).toBe(0);
    expect(parseToolList(undefined).size).toBe(0);
  });

  it("never throws, whatever the frontmatter holds", () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.json()), (value) => {
        expect(parseToolList(value)).toBeInstanceOf(Map);
      }),
    );
  });

  it("merges lists and lets 'all' win", () => {
    const merged = mergeToolLists([
      parseToolList({ s: ["a"] }),
      parseToolList({ s: ["b"], t: ["x"] }),
      parseToolList({ t: [] }),
    ]);
    expect(merged).toEqual(
      new Map<string, unknown>([
        ["s", new Set(["a", "b"])],
        ["t", "all"],
      ]),
    );
  });
});

describe("parseAllowedTool", () => {
  it("splits the tool name from its argument pattern", () => {
    expect(parseAllowedTool("Bash(git:*)")).toEqual({ raw: "Bash(git:*)", tool: "Bash", pattern: "git:*" });
    expect(parseAllowedTool(" Read ")).toEqual({ raw: "Read", tool: "Read" });
    expect(parseAllowedTool("Bash()")).toEqual({ raw: "Bash()", tool: "Bash" });
    expect(parseAllowedTool("   ")).toBeUndefined();
  });
});
