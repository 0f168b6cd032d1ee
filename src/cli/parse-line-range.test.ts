import { describe, expect, it } from "vitest";
import { parseLineRange } from "./parse-line-range.js";

describe("parseLineRange", () => {
  it("accepts closed, open-ended and single-line ranges", () => {
    expect(parseLineRange("10-20")).toEqual({ startLine: 10, endLine: 20 });
    expect(parseLineRange("10-")).toEqual({ startLine: 10 });
    expect(parseLineRange("-20")).toEqual({ endLine: 20 });
    expect(parseLineRange("7")).toEqual({ startLine: 7, endLine: 7 });
  });

  it("rejects malformed, zero and reversed ranges", () => {
    for (const bad of ["", "-", "a-b", "0-3", "5-2", "1-2-3", "1,2"])
      expect(parseLineRange(bad)).toBeUndefined();
  });
});
