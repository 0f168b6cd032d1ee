import { describe, expect, it } from "vitest";
import { completeSlash } from "./complete-slash.js";

describe("completeSlash", () => {
  const invocable = ["csv-summary", "json-query"];

  it("offers commands and invocable skills for a partial /name", () => {
    expect(completeSlash("/cs", invocable)).toEqual([["/csv-summary"], "/cs"]);
    expect(completeSlash("/s", invocable)).toEqual([["/sessions", "/skill", "/skills"], "/s"]);
    expect(completeSlash("/", invocable)[0]).toContain("/json-query");
  });

  it("completes skill names after /skill and loaded ones after /unload", () => {
    expect(completeSlash("/skill j", invocable)).toEqual([["json-query"], "j"]);
    expect(completeSlash("/unload ", invocable, ["csv-summary"])).toEqual([["csv-summary"], ""]);
  });

  it("completes nothing in a message or in a command's arguments", () => {
    expect(completeSlash("hello /cs", invocable)).toEqual([[], "hello /cs"]);
    expect(completeSlash("/csv-summary da", invocable)).toEqual([[], "/csv-summary da"]);
  });
});
