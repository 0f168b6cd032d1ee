import path from "node:path";
import { generateText, streamText, ToolLoopAgent, type ToolSet, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedModel, systemOf, toolNamesOf } from "./__fixtures__/scripted-model.js";
import { createSkillToolkit } from "./create-skill-toolkit.js";

const examples = path.resolve(import.meta.dirname, "../../examples/skills");
const csv = "name,age\nann,31\nbob,27\n";
const BODY_MARK = "Run the bundled script"; // csv-summary's SKILL.md body

const loadReadRun = [
  { toolCalls: [{ name: "skill_load", input: '{"name":"csv-summary"}' }] },
  { toolCalls: [{ name: "skill_read", input: '{"name":"csv-summary","path":"references/format.md"}' }] },
  {
    toolCalls: [
      {
        name: "skill_run",
        input: JSON.stringify({ name: "csv-summary", command: "node scripts/summarize.mjs -", stdin: csv }),
      },
    ],
  },
  { text: "2 rows; age from 27 to 31." },
];

describe("createSkillToolkit", () => {
  it("spreads into a real ToolLoopAgent: load → read → run → answer, context re-rendered each step", async () => {
    const model = scriptedModel(loadReadRun);
    const skills = await createSkillToolkit({ skills: examples, instructions: "Be brief." });
    try {
      expect(Object.keys(skills).sort()).toEqual([
        "activeTools",
        "instructions",
        "prepareStep",
        "stopWhen",
        "tools",
      ]);
      const agent = new ToolLoopAgent({ model, ...skills });
      const result = await agent.generate({ prompt: "summarise my csv" });

      expect(result.text).toBe("2 rows; age from 27 to 31.");
      expect(model.calls).toHaveLength(4);
      const [first, second, third] = model.calls;
      expect(systemOf(first!)).toMatch(/^Be brief\./);
      expect(systemOf(first!)).toContain("csv-summary");
      expect(toolNamesOf(first!)).toEqual(expect.arrayContaining(["skill_load", "skill_read", "skill_run"]));
      expect(JSON.stringify(first!.prompt)).not.toContain(BODY_MARK);
      expect(JSON.stringify(second!.prompt)).toContain(BODY_MARK); // the load's tool result (history placement)
      expect(JSON.stringify(third!.prompt)).toContain("Exit code 2 means"); // the reference read
      const run = result.steps[2]?.toolResults[0];
      expect(run?.toolName).toBe("skill_run");
      expect(JSON.stringify(run?.output)).toContain("min=27 max=31 mean=29");
      expect(skills.session.loadedSkills()).toEqual(["csv-summary"]);
    } finally {
      await skills.close();
    }
  });

  it("works in streamText and generateText next to the host's own tools; system placement re-renders bodies", async () => {
    const model = scriptedModel([loadReadRun[0]!, { text: "loaded" }]);
    const skills = await createSkillToolkit({ skills: examples, placement: "system", executor: false });
    try {
      const weather = tool({
        description: "Weather",
        inputSchema: z.object({ city: z.string() }),
        execute: async () => "sunny",
      });
      const tools: ToolSet = { ...skills.tools, weather };
      const stream = streamText({
        model,
        prompt: "load csv",
        ...skills,
        tools,
        prepareStep: async (step) => {
          const view = await skills.prepareStep(step);
          return { ...view, activeTools: [...view.activeTools, "weather"] };
        },
      });
      expect(await stream.text).toBe("loaded");
      expect(toolNamesOf(model.calls[0]!)).toContain("weather");
      expect(toolNamesOf(model.calls[0]!)).not.toContain("skill_run");
      expect(systemOf(model.calls[0]!)).not.toContain(BODY_MARK);
      expect(systemOf(model.calls[1]!)).toContain(BODY_MARK);

      const again = scriptedModel([{ text: "plain" }]);
      const generated = await generateText({ model: again, prompt: "hi", ...skills });
      expect(generated.text).toBe("plain");
      expect(systemOf(again.calls[0]!)).toContain(BODY_MARK);
    } finally {
      await skills.close();
    }
  });
});
