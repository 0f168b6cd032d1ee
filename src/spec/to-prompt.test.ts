import { describe, expect, test } from "vitest";
import { escapeHtml, toPrompt } from "./to-prompt.js";

describe("toPrompt", () => {
  test("A16: an empty list is an empty element on two lines", () => {
    expect(toPrompt([])).toBe("<available_skills>\n</available_skills>");
  });

  test("renders one tag or value per line, byte for byte as skills-ref", () => {
    const out = toPrompt([
      { name: "my-skill", description: "A test skill", location: "/abs/path/my-skill/SKILL.md" },
      { name: "b", description: "line 1\nline 2", location: "/x/b/skill.md" },
    ]);
    expect(out).toBe(
      [
        "<available_skills>",
        "<skill>",
        "<name>",
        "my-skill",
        "</name>",
        "<description>",
        "A test skill",
        "</description>",
        "<location>",
        "/abs/path/my-skill/SKILL.md",
        "</location>",
        "</skill>",
        "<skill>",
        "<name>",
        "b",
        "</name>",
        "<description>",
        "line 1\nline 2",
        "</description>",
        "<location>",
        "/x/b/skill.md",
        "</location>",
        "</skill>",
        "</available_skills>",
      ].join("\n"),
    );
  });

  test("A19: escapes like Python html.escape(quote=True); the location is verbatim", () => {
    const out = toPrompt([
      { name: "special-skill", description: "Use <foo> & <bar> tags", location: "/a&b/<c>" },
    ]);
    expect(out).toContain("&lt;foo&gt;");
    expect(out).toContain("&amp;");
    expect(out).toContain("&lt;bar&gt;");
    expect(out).not.toContain("<foo>");
    expect(out).not.toContain("<bar>");
    expect(out).toContain("\n/a&b/<c>\n");
    expect(escapeHtml(`it's "quoted" & <x>`)).toBe("it&#x27;s &quot;quoted&quot; &amp; &lt;x&gt;");
  });
});
