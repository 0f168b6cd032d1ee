import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import type { Catalog } from "../catalog/types.js";
import { loadModelConfig } from "../config/load-model-config.js";
import { scriptedModel, systemOf } from "../testing/scripted-model.js";
import { type LoopbackProvider, startLoopbackProvider } from "../testing/start-loopback-provider.js";
import { createSkillAgent } from "./create-skill-agent.js";
import type { EngineEvent } from "./engine-event.js";
import { resolveModel } from "./resolve-model.js";

let dir: string;
let catalog: Catalog;
const servers: LoopbackProvider[] = [];

async function skill(name: string, frontmatter: string, body: string): Promise<void> {
  await mkdir(path.join(dir, "skills", name), { recursive: true });
  await writeFile(
    path.join(dir, "skills", name, "SKILL.md"),
    `---\nname: ${name}\ndescription: The ${name} skill.\n${frontmatter}---\n${body}\n`,
  );
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-fork-"));
  await skill(
    "research",
    "context: fork\nagent: researcher\nmodel: small\n",
    "Research $ARGUMENTS in depth and report.",
  );
  await skill("notes", "", "Notes body: write short notes.");
  await skill("brainstorm", "context: fork\n", "Brainstorm about $ARGUMENTS.");
  await skill("helper", "type: agent\n", "You are the helper agent. Answer: helped.");
  catalog = await createCatalog({ roots: [path.join(dir, "skills")] });
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function loopbackModel(script: Parameters<typeof startLoopbackProvider>[1]) {
  const server = await startLoopbackProvider("openai", script);
  servers.push(server);
  const config = await loadModelConfig({
    env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "sk-test" },
    cwd: "/nonexistent",
  });
  return { server, config, model: resolveModel(config) };
}

const researcher = { description: "Researches topics.", skills: ["notes"], instructions: "You research." };

describe("context: fork skills", () => {
  it("a model load runs the body, arguments substituted, in a child on the skill's model", async () => {
    const main = await loopbackModel([
      { toolCalls: [{ name: "skill_load", input: { name: "research", args: "tides" } }] },
      { text: "Tides: the moon." },
    ]);
    const small = await loopbackModel([{ text: "Tides follow the moon's pull." }]);
    const events: EngineEvent[] = [];
    const agent = await createSkillAgent({
      model: main.model,
      modelConfig: main.config,
      catalog,
      executor: false,
      agents: { researcher },
      delegation: { models: { small: small.model } },
    });
    try {
      const result = await agent.send("Tell me about tides.", { onEvent: (e) => events.push(e) });
      expect(result.text).toBe("Tides: the moon.");
      // The small model served the child, once, with the substituted body as its task.
      expect(small.server.requests).toHaveLength(1);
      const childRequest = JSON.stringify(small.server.requests[0]!.body);
      expect(childRequest).toContain("Research tides in depth and report.");
      expect(childRequest).toContain("You research.");
      expect(childRequest).toContain("notes"); // its allowlist
      expect(childRequest).not.toContain("brainstorm");
      // The main model served the parent: twice, seeing the answer and never the body.
      expect(main.server.requests).toHaveLength(2);
      const parentNext = JSON.stringify(main.server.requests[1]!.body);
      expect(parentNext).toContain("Tides follow the moon's pull.");
      expect(parentNext).not.toContain("in depth and report");
      expect(agent.session.loadedSkills()).toEqual([]);
      expect(events.find((e) => e.type === "agent-start")).toMatchObject({ agent: "researcher", depth: 1 });
    } finally {
      await agent.close();
    }
  });

  it("/skill NAME args runs it as a child too; without agent: the default general agent", async () => {
    const model = scriptedModel([{ text: "Ideas: kites, boats." }]);
    const agent = await createSkillAgent({ model, catalog, executor: false });
    try {
      const outcome = await agent.loadSkill("brainstorm", { args: "wind" });
      expect(outcome.ok).toBe(true);
      expect(JSON.stringify(model.calls[0]!.prompt)).toContain("Brainstorm about wind.");
      // The general agent sees every skill of its parent.
      expect(systemOf(model.calls[0]!)).toContain("notes");
      const history = JSON.stringify(agent.history());
      expect(history).toContain("Ideas: kites, boats.");
      expect(history).not.toContain("Brainstorm about");
      expect(agent.session.loadedSkills()).toEqual([]);
    } finally {
      await agent.close();
    }
  });

  it("an agent: naming no defined agent is a clear error for the model", async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: "c1", name: "skill_load", input: '{"name":"research"}' }] },
      { text: "ok" },
    ]);
    const agent = await createSkillAgent({ model, catalog, executor: false });
    try {
      const result = await agent.send("research");
      expect(result.toolCalls[0]).toMatchObject({ isError: true });
      expect(String(result.toolCalls[0]?.output)).toContain(
        "Skill 'research' runs in its own agent, which failed: Skill 'research' runs in agent 'researcher', which is not defined.",
      );
    } finally {
      await agent.close();
    }
  });

  it("the aworld profile runs a type: agent skill as a child; other profiles load it inline", async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: "active_skill", input: '{"skill_name":"helper"}' }] },
      { text: "helped." },
      { text: "The helper helped." },
    ]);
    const agent = await createSkillAgent({ model, catalog, executor: false, profile: "aworld" });
    try {
      const result = await agent.send("get help");
      expect(result.text).toBe("The helper helped.");
      expect(JSON.stringify(model.calls[1]!.prompt)).toContain("You are the helper agent.");
      expect(JSON.stringify(model.calls[2]!.prompt.filter((m) => m.role !== "system"))).not.toContain(
        "You are the helper agent.",
      );
    } finally {
      await agent.close();
    }
    const inline = scriptedModel([
      { toolCalls: [{ name: "skill_load", input: '{"name":"helper"}' }] },
      { text: "done" },
    ]);
    const plain = await createSkillAgent({ model: inline, catalog, executor: false });
    try {
      await plain.send("get help");
      expect(inline.calls).toHaveLength(2);
      expect(plain.session.loadedSkills()).toEqual(["helper"]);
    } finally {
      await plain.close();
    }
  });

  it("an aworld type: agent skill's child gets the user's request with the body (a handoff), also from /skill", async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: "active_skill", input: '{"skill_name":"helper"}' }] },
      { text: "helped with the invoice." },
      { text: "Done." },
      { text: "helped again." },
    ]);
    const agent = await createSkillAgent({ model, catalog, executor: false, profile: "aworld" });
    try {
      await agent.send("Please check invoice 4711 for errors");
      const child = model.calls[1]!.prompt.filter((m) => m.role === "user");
      const task = JSON.stringify(child);
      expect(task).toContain("You are the helper agent. Answer: helped.");
      expect(task).toContain("The user's request:\\nPlease check invoice 4711 for errors");
      // A person's `/helper args`: the arguments are the request handed over.
      const loaded = await agent.loadSkill("helper", { args: "summarise the contract" });
      expect(loaded.ok).toBe(true);
      const userTask = JSON.stringify(model.calls[3]!.prompt.filter((m) => m.role === "user"));
      expect(userTask).toContain("The user's request:\\nsummarise the contract");
      expect(userTask).not.toContain("invoice 4711");
    } finally {
      await agent.close();
    }
  });

  it("a fork skill's child counts toward delegation.maxPerTurn and has its parent's shellPreRender", async () => {
    const marker = path.join(dir, "pre-rendered");
    await skill("probe", "context: fork\nmodel: probe\n", `Probe: !\`touch ${marker}\``);
    await skill("status", "", `Status: !\`touch ${marker}\``);
    const forked = await createCatalog({ roots: [path.join(dir, "skills")] });
    const child = scriptedModel([
      { toolCalls: [{ name: "skill_load", input: '{"name":"status"}' }] },
      { text: "probed" },
    ]);
    const events: EngineEvent[] = [];
    const agent = await createSkillAgent({
      model: scriptedModel([
        {
          toolCalls: [
            { id: "one", name: "skill_load", input: '{"name":"probe"}' },
            { id: "two", name: "skill_load", input: '{"name":"probe"}' },
          ],
        },
        { text: "done" },
      ]),
      catalog: forked,
      executor: false,
      shellPreRender: false,
      delegation: { maxPerTurn: 1, models: { probe: child } },
    });
    try {
      await agent.send("probe twice", { onEvent: (e) => events.push(e) });
    } finally {
      await agent.close();
    }
    const results = events.flatMap((e) =>
      e.type === "tool-result" && e.toolName === "skill_load" ? [String(e.output)] : [],
    );
    expect(
      results.filter((r) =>
        r.startsWith(
          "Skill 'probe' runs in its own agent, which was not started: Delegation limit reached: 1 subagents",
        ),
      ),
    ).toHaveLength(1);
    expect(events.filter((e) => e.type === "agent-start")).toHaveLength(1);
    // The child loaded status, whose !`cmd` stayed as written: nothing ran.
    expect(child.calls).toHaveLength(2);
    expect(JSON.stringify(child.calls[1]!.prompt)).toContain(`Status: !\`touch ${marker}\``);
    const { existsSync } = await import("node:fs");
    expect(existsSync(marker)).toBe(false);
  });
});
