import { describe, expect, it } from "vitest";
import { renderCatalog } from "./render-catalog.js";

const special = {
  name: "a&b",
  description: `Uses <tags> & "quotes" and it's fine`,
  location: "/abs/a&b/SKILL.md",
};
const plain = { name: "pdf", description: "Reads PDFs.\nSecond line.", location: "/abs/pdf/SKILL.md" };
const hidden = {
  name: "secret",
  description: "Hidden.",
  location: "/abs/secret/SKILL.md",
  disableModelInvocation: true,
};

describe("renderCatalog", () => {
  it("reproduces skills-ref to-prompt for agentskills, escaping like html.escape and keeping the location raw", () => {
    expect(renderCatalog([special, plain], "agentskills")).toBe(
      [
        "<available_skills>",
        "<skill>",
        "<name>",
        "a&amp;b",
        "</name>",
        "<description>",
        "Uses &lt;tags&gt; &amp; &quot;quotes&quot; and it&#x27;s fine",
        "</description>",
        "<location>",
        "/abs/a&b/SKILL.md",
        "</location>",
        "</skill>",
        "<skill>",
        "<name>",
        "pdf",
        "</name>",
        "<description>",
        "Reads PDFs.\nSecond line.",
        "</description>",
        "<location>",
        "/abs/pdf/SKILL.md",
        "</location>",
        "</skill>",
        "</available_skills>",
      ].join("\n"),
    );
  });

  it("prints the empty element for agentskills and nothing for the other formats when there are no skills", () => {
    expect(renderCatalog([], "agentskills")).toBe("<available_skills>\n</available_skills>");
    expect(renderCatalog([], "xml")).toBe("");
    expect(renderCatalog([], "markdown")).toBe("");
    expect(renderCatalog([], "list")).toBe("");
  });

  it("omits skills hidden from the model", () => {
    for (const format of ["agentskills", "xml", "markdown", "list"] as const) {
      expect(renderCatalog([plain, hidden], format)).not.toContain("secret");
    }
    expect(renderCatalog([hidden], "list")).toBe("");
  });

  it("renders list and markdown lines on one line each, marking loaded skills", () => {
    expect(renderCatalog([plain, special], "list")).toBe(
      `- pdf: Reads PDFs. Second line.\n- a&b: Uses <tags> & "quotes" and it's fine`,
    );
    expect(renderCatalog([plain, special], "markdown", { loaded: new Set(["pdf"]) })).toBe(
      `- [✓] **pdf**: Reads PDFs. Second line.\n- [○] **a&b**: Uses <tags> & "quotes" and it's fine`,
    );
  });

  it("renders indented, escaped xml entries", () => {
    expect(renderCatalog([special], "xml")).toBe(
      [
        "<available_skills>",
        "  <skill>",
        "    <name>a&amp;b</name>",
        "    <description>Uses &lt;tags&gt; &amp; &quot;quotes&quot; and it&#x27;s fine</description>",
        "    <location>/abs/a&amp;b/SKILL.md</location>",
        "  </skill>",
        "</available_skills>",
      ].join("\n"),
    );
  });

  it("is deterministic: the same input gives the same output", () => {
    const records = [plain, special, hidden];
    expect(renderCatalog(records, "xml")).toBe(renderCatalog([...records], "xml"));
  });
});
