import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { generateText, tool } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createCatalog } from "../catalog/create-catalog.js";
import { discoverAgents } from "../catalog/discover-agents.js";
import type { Catalog } from "../catalog/types.js";
import { createExecutor } from "../exec/create-executor.js";
import { createMemoryStore } from "../store/create-memory-store.js";
import { scriptedModel, systemOf, toolNamesOf } from "../testing/scripted-model.js";
import { examples } from "./__fixtures__/load-read-run.js";
import { createSkillAgent } from "./create-skill-agent.js";
import { createSkillToolkit } from "./create-skill-toolkit.js";
import type { EngineEvent } from "./engine-event.js";

const csv = "name,age\nann,31\nbob,27\n";

let dir: string;
let catalog: Catalog;

/** 50 skills: 48 fillers and two of the examples (csv-summary with its script, markdown-toc). */
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-delegate-"));
  const root = path.join(dir, "skills");
  for (let i = 1; i <= 48; i++) {
    const name = `filler-${String(i).padStart(2, "0")}`;
    await mkdir(path.join(root, name), { recursive: true });
    await writeFile(
      path.join(root, name, "SKILL.md"),
      `---\nname: ${name}\ndescription: Filler skill number ${i} for catalog tests.\n---\nFiller body ${i}.\n`,
    );
  }
  for (const name of ["csv-summary", "markdown-toc"])
    await cp(path.join(examples, name), path.join(root, name), { recursive: true });
  catalog = await createCatalog({ roots: [root] });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("delegation to a subagent", () => {
  it("a Claude Code agent file: its skills are preloaded, maxTurns: 1 is one step, disallowedTools withheld", async () => {
    await mkdir(path.join(dir, "agents"));
    await writeFile(
      path.join(dir, "agents", "toc-writer.md"),
      [
        "---",
        "name: toc-writer",
        "description: Writes tables of contents.",
        "skills:",
        "  - markdown-toc",
        "maxTurns: 1",
        "model: child-model",
        "tools: Read, Bash",
        "disallowedTools: Bash",
        "color: green",
        "---",
        "You write tables of contents.",
        "",
      ].join("\n"),
    );
    const found = await discoverAgents([path.join(dir, "skills")]);
    expect(found.diagnostics.map((d) => d.code)).toEqual(["agent-field-ignored"]);
    const parentModel = scriptedModel([
      {
        toolCalls: [
          { name: "agent_run", input: JSON.stringify({ agent: "toc-writer", task: "TOC of README" }) },
        ],
      },
      { text: "Done." },
    ]);
    // The child would go on calling tools; one turn is all its file allows.
    const childModel = scriptedModel([
      { toolCalls: [{ name: "Read", input: '{"path":"README.md"}' }] },
      { text: "never reached" },
    ]);
    const noop = (name: string) =>
      tool({ description: name, inputSchema: z.object({ path: z.string() }), execute: async () => name });
    const agent = await createSkillAgent({
      model: parentModel,
      catalog,
      executor: false,
      tools: { Read: noop("Read"), Bash: noop("Bash") },
      agents: found.agents,
      delegation: { models: { "child-model": childModel } },
    });
    const events: EngineEvent[] = [];
    try {
      await agent.send("Make a TOC", { onEvent: (e) => events.push(e) });
      const childCalls = childModel.calls;
      expect(childCalls).toHaveLength(1);
      // Preloaded: the skill's body is in the child's context from its first request.
      expect(JSON.stringify(childCalls[0]!.prompt)).toContain("# Markdown table of contents");
      expect(toolNamesOf(childCalls[0]!)).toContain("Read");
      expect(toolNamesOf(childCalls[0]!)).not.toContain("Bash");
      const end = events.find((e) => e.type === "agent-end");
      expect(end).toMatchObject({ steps: 1 });
    } finally {
      await agent.close();
    }
  });

  it("the child sees only its allowlist, loads and runs a skill; the parent sees only its answer", async () => {
    expect(catalog.list()).toHaveLength(50);
    const parentModel = scriptedModel([
      {
        toolCalls: [
          {
            id: "call-1",
            name: "agent_run",
            input: JSON.stringify({ agent: "data", task: `Summarise:\n${csv}` }),
          },
        ],
      },
      { text: "The data agent says: 2 rows, ages 27 to 31." },
    ]);
    const childModel = scriptedModel([
      { toolCalls: [{ name: "skill_load", input: '{"name":"csv-summary"}' }] },
      {
        toolCalls: [
          {
            name: "skill_run",
            input: JSON.stringify({
              name: "csv-summary",
              command: "node scripts/summarize.mjs -",
              stdin: csv,
            }),
          },
        ],
      },
      { text: "2 rows; age from 27 to 31." },
    ]);
    const { executor } = createExecutor({ kind: "local" });
    const store = createMemoryStore();
    const agent = await createSkillAgent({
      model: parentModel,
      catalog,
      executor,
      store,
      agents: {
        data: {
          description: "Answers questions about data files.",
          skills: ["csv-summary", "markdown-toc"],
          model: "child-model",
          maxSteps: 5,
        },
      },
      delegation: { models: { "child-model": childModel } },
    });
    const events: EngineEvent[] = [];
    try {
      const result = await agent.send("What is in this CSV?", { onEvent: (e) => events.push(e) });
      expect(result.text).toBe("The data agent says: 2 rows, ages 27 to 31.");

      // The parent is offered the delegation tool, listing the agent.
      expect(toolNamesOf(parentModel.calls[0]!)).toContain("agent_run");
      const offered = parentModel.calls[0]!.tools?.find((t) => t.name === "agent_run");
      expect(offered?.type === "function" ? offered.description : "").toContain(
        "- data: Answers questions about data files.",
      );

      // The child's first request lists exactly the two allowed skills.
      const childSystem = systemOf(childModel.calls[0]!);
      expect(childSystem).toContain("csv-summary");
      expect(childSystem).toContain("markdown-toc");
      expect(childSystem).not.toMatch(/filler-\d\d/);
      expect(childModel.calls).toHaveLength(3);
      // The script ran in the child: its output is in the child's last request.
      expect(JSON.stringify(childModel.calls[2]!.prompt)).toContain("min=27 max=31 mean=29");

      // The parent's next request has the answer and nothing of the child's work.
      const conversation = parentModel.calls[1]!.prompt.filter((m) => m.role !== "system");
      expect(conversation.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
      const next = JSON.stringify(conversation);
      expect(next).toContain("2 rows; age from 27 to 31.");
      expect(next).toContain("[agent data: 3 steps; 45 tokens; skills loaded: csv-summary]");
      expect(next).not.toContain("skill_load");
      expect(next).not.toContain("skill_run");
      expect(systemOf(parentModel.calls[1]!)).not.toContain("Run the bundled script on the file");
      expect(next).not.toContain("min=27 max=31 mean=29");
      expect(next).not.toContain("Run the bundled script on the file");

      // The child's events reach the parent's stream, tagged.
      const start = events.find((e) => e.type === "agent-start");
      expect(start).toMatchObject({ agent: "data", parentCallId: "call-1", depth: 1 });
      const tagged = events.filter((e) => e.type === "agent-event");
      expect(tagged.map((e) => e.event.type)).toContain("skill-load");
      expect(tagged.every((e) => e.agent === "data" && e.parentCallId === "call-1")).toBe(true);
      const end = events.find((e) => e.type === "agent-end");
      expect(end).toMatchObject({ steps: 3, skillsLoaded: ["csv-summary"], usage: { totalTokens: 45 } });
      // The tool result carries the child's result as data.
      const call = result.toolCalls.find((c) => c.toolName === "agent_run");
      expect(call?.isError).toBe(false);

      // The child's conversation is saved, under an id that names the parent.
      const saved = (await store.list({ namespace: "conversation" })).map((s) => s.id);
      expect(saved).toContain(start?.type === "agent-start" ? start.sessionId : "?");
      expect(saved.filter((id) => id.startsWith(`${agent.sessionId}.agent.data.`))).toHaveLength(1);

      // Resuming the parent replays its history: the child is not run again.
      const resumedModel = scriptedModel([{ text: "Still 2 rows." }]);
      const resumed = await createSkillAgent({
        model: resumedModel,
        catalog,
        executor,
        store,
        sessionId: agent.sessionId,
        agents: { data: { description: "Answers questions about data files.", model: "child-model" } },
        delegation: { models: { "child-model": childModel } },
      });
      try {
        const again = await resumed.send("And now?");
        expect(again.text).toBe("Still 2 rows.");
        expect(childModel.calls).toHaveLength(3);
        expect(JSON.stringify(resumedModel.calls[0]!.prompt)).toContain("2 rows; age from 27 to 31.");
      } finally {
        await resumed.close();
      }
    } finally {
      await agent.close();
    }
  });

  it("delegate() runs an agent from code; an unknown agent is a clear error", async () => {
    const model = scriptedModel([{ text: "child answer" }]);
    const agent = await createSkillAgent({
      model,
      catalog,
      executor: false,
      agents: { helper: { description: "Helps.", skills: ["markdown-*"], instructions: "Be brief." } },
    });
    const seen: EngineEvent[] = [];
    agent.subscribe((e) => seen.push(e));
    try {
      const result = await agent.delegate("helper", "Say hi.");
      expect(result).toMatchObject({ agent: "helper", text: "child answer", steps: 1, skillsLoaded: [] });
      expect(systemOf(model.calls[0]!)).toContain("Be brief.");
      expect(systemOf(model.calls[0]!)).toContain("markdown-toc");
      expect(systemOf(model.calls[0]!)).not.toContain("csv-summary");
      expect(seen.map((e) => e.type)).toEqual(
        expect.arrayContaining(["agent-start", "agent-event", "agent-end"]),
      );
      await expect(agent.delegate("nobody", "x")).rejects.toThrow(
        "No agent named 'nobody'. Available agents: helper.",
      );
    } finally {
      await agent.close();
    }
  });

  it("createSkillToolkit({ agents }): the AI SDK spread carries the delegation tool", async () => {
    // One scripted model serves the loop and the child in turn: parent call, child call, parent call.
    const model = scriptedModel([
      {
        toolCalls: [
          {
            name: "Task",
            input: JSON.stringify({ description: "toc", prompt: "Outline it.", subagent_type: "outliner" }),
          },
        ],
      },
      { text: "outline: a, b" },
      { text: "Here is the outline: a, b" },
    ]);
    const events: EngineEvent[] = [];
    const toolkit = await createSkillToolkit({
      catalog,
      executor: false,
      profile: "claude",
      model,
      agents: { outliner: { description: "Outlines documents.", skills: ["markdown-toc"] } },
      onAgentEvent: (e) => events.push(e),
    });
    try {
      expect(toolkit.activeTools).toContain("Task");
      const result = await generateText({ model, prompt: "Outline my doc.", ...toolkit });
      expect(result.text).toBe("Here is the outline: a, b");
      expect(systemOf(model.calls[1]!)).toContain("markdown-toc");
      expect(systemOf(model.calls[1]!)).not.toContain("csv-summary");
      const next = JSON.stringify(model.calls[2]!.prompt);
      expect(next).toContain("outline: a, b");
      expect(next).toContain("[agent outliner: 1 step; 15 tokens]");
      expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["agent-start", "agent-end"]));
      await expect(
        createSkillToolkit({ catalog, executor: false, agents: { x: { description: "X." } } }),
      ).rejects.toThrow("pass the model of your loop");
    } finally {
      await toolkit.close();
    }
  });

  it("createSkillToolkit: delegation.maxPerTurn counts per call of the loop", async () => {
    const twice = {
      toolCalls: [0, 1].map((i) => ({
        id: `t${i}`,
        name: "agent_run",
        input: JSON.stringify({ agent: "outliner", task: `part ${i}` }),
      })),
    };
    const model = scriptedModel([twice, { text: "first done" }, twice, { text: "second done" }]);
    const child = scriptedModel([{ text: "outlined" }]);
    const events: EngineEvent[] = [];
    const toolkit = await createSkillToolkit({
      catalog,
      executor: false,
      agents: { outliner: { description: "Outlines documents.", model: "child" } },
      delegation: { maxPerTurn: 1, models: { child } },
      onAgentEvent: (e) => events.push(e),
    });
    try {
      const first = await generateText({ model, prompt: "Outline two.", ...toolkit });
      expect(first.text).toBe("first done");
      const refused = first.steps[0]!.toolResults.filter((r) =>
        JSON.stringify(r.output).includes("Delegation limit reached: 1 subagents started this turn (limit 1"),
      );
      expect(refused).toHaveLength(1);
      expect(events.filter((e) => e.type === "agent-start")).toHaveLength(1);
      const second = await generateText({ model, prompt: "Outline two more.", ...toolkit });
      expect(second.text).toBe("second done");
      expect(events.filter((e) => e.type === "agent-start")).toHaveLength(2);
      expect(child.calls).toHaveLength(2);
    } finally {
      await toolkit.close();
    }
  });
});
