import { describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { defineSkill } from "../catalog/memory-source.js";
import { syntheticSkills } from "../context/__fixtures__/synthetic-skills.js";
import { scriptedModel, systemOf } from "../test-kit.js";
import { createSkillAgent } from "./create-skill-agent.js";

const extra = [
  defineSkill({
    name: "zz-pdf-merger",
    description:
      "Merge, split and extract tables from PDF files. Use for combining reports into one document.",
    body: "Merge with qpdf.",
  }),
  defineSkill({
    name: "zz-slide-maker",
    description: "Builds slide decks and PowerPoint presentations from notes and outlines.",
    body: "Use pptx.",
  }),
];

/** The user message of a model call, as text. */
function lastUserText(call: { prompt: unknown }): string {
  const prompt = call.prompt as { role: string; content: unknown }[];
  const user = prompt.filter((m) => m.role === "user").at(-1);
  return JSON.stringify(user?.content ?? "");
}

describe("a catalog that serves the request, through the SkillAgent", () => {
  it("sends the skills matching each request with it, while the system prompt stays byte-identical (history placement)", async () => {
    const catalog = await createCatalog({ roots: [], memory: [...syntheticSkills(2_000), ...extra] });
    const model = scriptedModel([
      { toolCalls: [{ name: "skill_load", input: '{"name":"zz-pdf-merger"}' }] },
      { text: "Merged." },
      { text: "Here is your deck." },
    ]);
    const agent = await createSkillAgent({
      model,
      catalog,
      catalogBudget: 1_000,
      executor: false,
    });
    try {
      await agent.send("combine these quarterly reports into one pdf");
      await agent.send("turn my meeting notes into a deck of slides");
    } finally {
      await agent.close();
    }
    expect(model.calls).toHaveLength(3);
    const systems = model.calls.map((call) => systemOf(call));
    expect(systems[1]).toBe(systems[0]);
    expect(systems[2]).toBe(systems[0]);
    expect(systems[0]).not.toContain("zz-pdf-merger");
    expect(lastUserText(model.calls[0]!)).toContain("- zz-pdf-merger: Merge, split and extract tables");
    const second = lastUserText(model.calls[2]!);
    expect(second).toContain("- zz-slide-maker: Builds slide decks");
    expect(second).toContain("turn my meeting notes into a deck of slides");
  });

  it("caps the skills active at once with select.maxActive (SKILLS_MAX_ACTIVE), the pre-pass off", async () => {
    const catalog = await createCatalog({ roots: [], memory: extra });
    const model = scriptedModel([
      { toolCalls: [{ name: "skill_load", input: '{"name":"zz-pdf-merger"}' }] },
      { toolCalls: [{ name: "skill_load", input: '{"name":"zz-slide-maker"}' }] },
      { text: "done" },
    ]);
    const agent = await createSkillAgent({
      model,
      catalog,
      executor: false,
      select: { mode: "off", maxActive: 1 },
    });
    try {
      const result = await agent.send("merge the pdfs and then make slides");
      expect(result.toolCalls.map((c) => c.toolName)).toEqual(["skill_load", "skill_load"]);
      expect(String(JSON.stringify(result.toolCalls[1]?.output))).toContain(
        "At most 1 skills may be active at once",
      );
      expect(agent.session.loadedSkills()).toEqual(["zz-pdf-merger"]);
    } finally {
      await agent.close();
    }
  });
});
