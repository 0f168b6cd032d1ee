import { describe, expect, it } from "vitest";
import { SUMMARY_PREFIX } from "../context/summary-prefix.js";
import { firstUserText } from "./first-user-text.js";

describe("firstUserText", () => {
  it("is the user's words of the first user message, on one line, cut with an ellipsis", () => {
    expect(
      firstUserText([
        {
          role: "assistant",
          content: [{ type: "tool-call", toolCallId: "c", toolName: "skill_load", input: {} }],
        },
        {
          role: "user",
          content: [
            { type: "text", text: "<matching_skills>csv-summary</matching_skills>" },
            { type: "text", text: "summarise\n  my   csv" },
          ],
        },
        { role: "user", content: "second" },
      ]),
    ).toBe("summarise my csv");
    expect(firstUserText([{ role: "user", content: "x".repeat(100) }], 10)).toBe(`${"x".repeat(9)}…`);
  });

  it("skips a compaction summary, and is undefined before the user said anything", () => {
    expect(
      firstUserText([
        { role: "user", content: `${SUMMARY_PREFIX}\nWe talked.` },
        { role: "user", content: "next question" },
      ]),
    ).toBe("next question");
    expect(firstUserText([])).toBeUndefined();
  });
});
