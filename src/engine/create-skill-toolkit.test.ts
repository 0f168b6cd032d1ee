import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { generateText, streamText, ToolLoopAgent, type ToolSet, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedModel, systemOf, toolNamesOf } from "../test-kit.js";
import { trackerStdio } from "../tools/mcp-client/__fixtures__/tracker.js";
import type { ToolApprovalRequest } from "../tools/tool-approval.js";
import { examples, loadReadRun } from "./__fixtures__/load-read-run.js";
import { createSkillToolkit } from "./create-skill-toolkit.js";

const BODY_MARK = "Run the bundled script"; // csv-summary's SKILL.md body

describe("createSkillToolkit", () => {
  it("spreads into a real ToolLoopAgent: load → read → run → answer, context re-rendered each step", async () => {
    const model = scriptedModel(loadReadRun);
    const skills = await createSkillToolkit({ skills: examples, instructions: "Be brief." });
    try {
      expect(Object.keys(skills).sort()).toEqual([
        "activeTools",
        "experimental_repairToolCall",
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

  it("takes your own tools in one line: the tool and a skill script run in one streamText loop", async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: "weather", input: '{"city":"Oslo"}' }] },
      loadReadRun[0]!,
      loadReadRun[2]!,
      { text: "sunny, and 2 rows" },
    ]);
    const weather = tool({
      description: "Weather of a city",
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => `sunny in ${city}`,
    });
    const skills = await createSkillToolkit({ skills: examples, tools: { weather } });
    try {
      const stream = streamText({ model, prompt: "weather, then summarise my csv", ...skills });
      expect(await stream.text).toBe("sunny, and 2 rows");
      const steps = await stream.steps;
      expect(steps[0]?.toolResults.map((r) => [r.toolName, r.output])).toEqual([
        ["weather", "sunny in Oslo"],
      ]);
      expect(steps[2]?.toolResults[0]?.toolName).toBe("skill_run");
      expect(JSON.stringify(steps[2]?.toolResults[0]?.output)).toContain("min=27 max=31 mean=29");
      // Offered in every step, next to the gated skill tools.
      for (const call of model.calls) expect(toolNamesOf(call)).toContain("weather");
      await expect(createSkillToolkit({ skills: examples, tools: { skill_load: weather } })).rejects.toThrow(
        /tools skill_load have the names of skill tools; rename yours/,
      );
    } finally {
      await skills.close();
    }
  });

  it("tools: { ...skills.tools, mine } — a spread copy made before a skill loads — still runs that skill's script tools", async () => {
    const csv = "name,age\nann,31\nbob,27\n";
    const model = scriptedModel([
      { toolCalls: [{ name: "skill_load", input: '{"name":"csv-summary"}' }] },
      { toolCalls: [{ name: "csv-summary__summarize", input: JSON.stringify({ args: ["-"], stdin: csv }) }] },
      { toolCalls: [{ name: "weather", input: '{"city":"Oslo"}' }] },
      { text: "done" },
    ]);
    const skills = await createSkillToolkit({ skills: examples });
    try {
      const weather = tool({
        description: "Weather",
        inputSchema: z.object({ city: z.string() }),
        execute: async () => "sunny",
      });
      // The natural merge: copied now, before csv-summary loads and brings its script tool.
      const tools = { ...skills.tools, weather } as ToolSet;
      expect(Object.keys(tools)).not.toContain("csv-summary__summarize");
      const result = await generateText({ model, prompt: "summarise my csv", ...skills, tools });
      const ran = result.steps[1]?.toolResults[0];
      expect(ran?.toolName).toBe("csv-summary__summarize");
      expect(JSON.stringify(ran?.output)).toContain("min=27 max=31 mean=29");
      expect(result.steps[1]?.content.some((part) => part.type === "tool-error")).toBe(false);
      // A tool of one's own merged by hand is still refused with the one-line fix.
      const error = result.steps[2]?.content.find((part) => part.type === "tool-error");
      expect(String((error as { error?: unknown } | undefined)?.error)).toContain(
        "pass it as createSkillToolkit({ tools: { weather } })",
      );
    } finally {
      await skills.close();
    }
  });

  it("a script tool of a skill that is not loaded is not brought in by the copy's repair", async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: "csv-summary__summarize", input: '{"args":["-"],"stdin":"a\\n1\\n"}' }] },
      { text: "done" },
    ]);
    const skills = await createSkillToolkit({ skills: examples });
    try {
      const result = await generateText({
        model,
        prompt: "x",
        ...skills,
        tools: { ...skills.tools } as ToolSet,
      });
      const error = result.steps[0]?.content.find((part) => part.type === "tool-error");
      expect(String((error as { error?: unknown } | undefined)?.error)).toMatch(/csv-summary__summarize/);
      expect(result.steps[0]?.toolResults).toEqual([]);
    } finally {
      await skills.close();
    }
  });

  it("a tool merged into the spread by hand fails with an error naming the tools option", async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: "weather", input: '{"city":"Oslo"}' }] },
      { text: "ok" },
    ]);
    const weather = tool({
      description: "Weather",
      inputSchema: z.object({ city: z.string() }),
      execute: async () => "sunny",
    });
    const skills = await createSkillToolkit({ skills: examples, executor: false });
    try {
      const stream = streamText({
        model,
        prompt: "weather",
        ...skills,
        // Typed as a ToolSet (or from plain JavaScript): TypeScript alone rejects the merged names.
        tools: { ...skills.tools, weather } as ToolSet,
        activeTools: [...skills.activeTools, "weather"],
      });
      await stream.consumeStream();
      const steps = await stream.steps;
      const error = steps[0]?.content.find((part) => part.type === "tool-error");
      expect(String((error as { error?: unknown } | undefined)?.error)).toContain(
        "pass it as createSkillToolkit({ tools: { weather } })",
      );
    } finally {
      await skills.close();
    }
  });

  it("takes MCP servers: skill gating offers a server tool only while a loaded skill grants it, and its allowed-tools pre-approve the call", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-toolkit-mcp-"));
    try {
      await mkdir(path.join(dir, "triage"));
      await writeFile(
        path.join(dir, "triage", "SKILL.md"),
        "---\nname: triage\ndescription: File bugs.\nallowed-tools: mcp__tracker__create_issue\n---\n\nFile it.\n",
      );
      const model = scriptedModel([
        { toolCalls: [{ name: "skill_load", input: '{"name":"triage"}' }] },
        { toolCalls: [{ name: "mcp__tracker__create_issue", input: '{"title":"Broken login"}' }] },
        { toolCalls: [{ name: "skill_unload", input: '{"name":"triage"}' }] },
        { text: "filed" },
      ]);
      const asked: ToolApprovalRequest[] = [];
      const skills = await createSkillToolkit({
        skills: dir,
        executor: false,
        mcpServers: { tracker: trackerStdio() },
        toolGating: "skill",
        approval: {
          onApproval: (request) => {
            asked.push(request);
            return "no";
          },
        },
      });
      try {
        expect(skills.mcpServers()).toMatchObject([{ name: "tracker", state: "running" }]);
        expect(skills.toolRegistry.get("mcp__tracker__delete_repo")?.server).toBe("tracker");
        const result = await new ToolLoopAgent({ model, ...skills }).generate({ prompt: "file a bug" });
        expect(result.text).toBe("filed");
        const mcpTools = (i: number) => toolNamesOf(model.calls[i]!).filter((n) => n.startsWith("mcp__"));
        expect(mcpTools(0)).toEqual([]);
        expect(mcpTools(1)).toEqual(["mcp__tracker__create_issue"]);
        expect(mcpTools(3)).toEqual([]);
        // Pre-approved by the skill's allowed-tools: it ran without a question, and the answer came back.
        expect(asked).toEqual([]);
        expect(JSON.stringify(result.steps[1]?.toolResults[0]?.output)).toContain(
          "Created issue #1: Broken login",
        );
      } finally {
        await skills.close();
      }
      expect(skills.mcpServers()).toMatchObject([{ name: "tracker", state: "stopped" }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
