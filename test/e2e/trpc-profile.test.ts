/**
 * The `trpc` profile end to end: a SkillAgent over a scripted model, asserting the texts of trpc-agent-go
 * (`internal/flow/processor/skills.go`, seed-systems.md §1.5) in the requests the model receives.
 */
import { afterEach, describe, expect, it } from "vitest";
import { defineSkill } from "../../src/catalog/memory-source.js";
import { createSkillAgent } from "../../src/engine/create-skill-agent.js";
import type { SkillAgent, SkillAgentOptions } from "../../src/engine/skill-agent.js";
import { createMemoryCatalog, scriptedModel, systemOf, toolNamesOf } from "../../src/test-kit.js";

const skills = [
  defineSkill({
    name: "csv-summary",
    description: "Summarise a CSV table: columns, counts and totals.",
    body: "Read the CSV and report.",
  }),
  defineSkill({ name: "pdf-merge", description: "Merge PDF documents into one.", body: "Use qpdf." }),
  defineSkill({ name: "slide-maker", description: "Build slide decks from notes.", body: "Use pptx." }),
];

const TOP_CSV =
  "Top recommended skill for this request: `csv-summary`. If this skill matches the task family, call skill_load on it as your first tool call before any domain tool.\n";

let agent: SkillAgent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

async function trpcAgent(model: ReturnType<typeof scriptedModel>, extra: Partial<SkillAgentOptions> = {}) {
  agent = await createSkillAgent({
    model,
    catalog: await createMemoryCatalog(skills),
    profile: "trpc",
    executor: false,
    ...extra,
  });
  return agent;
}

describe("trpc overview (prioritizeSummariesForRequest, WithMaxOverviewSkills, guidance blocks)", () => {
  it("ranks the overview for each request, names a clear leader, and caps with the Additional skills tail", async () => {
    const model = scriptedModel([{ text: "ok" }]);
    const a = await trpcAgent(model, { session: { maxOverviewSkills: 1 } });
    await a.send("Give me a summary of this csv table");
    await a.send("merge these pdf documents");
    const [first, second] = model.calls.map((c) => systemOf(c));
    expect(first).toContain(
      "Available skills: (showing 1 of 3; remaining names listed below)\n" +
        "The short lines below are routing summaries only. If one looks relevant, call skill_load before relying on it or repeating domain-specific tool work.\n" +
        TOP_CSV +
        "- csv-summary: Summarise a CSV table: columns, counts and totals.\n" +
        "Additional skills (use skill_load by name to access): pdf-merge, slide-maker\n",
    );
    // The next request ranks again: pdf-merge leads (name ×3 for "pdf" and "merge", description "documents").
    expect(second).toContain(
      "Top recommended skill for this request: `pdf-merge`. If this skill matches the task family, call skill_load on it as your first tool call before any domain tool.\n" +
        "- pdf-merge: Merge PDF documents into one.\n" +
        "Additional skills (use skill_load by name to access): csv-summary, slide-maker\n",
    );
  });

  it("gives no recommendation without a clear leader, and lists every skill without a cap", async () => {
    const model = scriptedModel([{ text: "ok" }]);
    const a = await trpcAgent(model);
    await a.send("hello there");
    const system = systemOf(model.calls[0]!);
    expect(system).not.toContain("Top recommended");
    expect(system).toContain(
      "Available skills:\nThe short lines below are routing summaries only. If one looks relevant, call skill_load before relying on it or repeating domain-specific tool work.\n" +
        "- csv-summary: Summarise a CSV table: columns, counts and totals.\n" +
        "- pdf-merge: Merge PDF documents into one.\n" +
        "- slide-maker: Build slide decks from notes.\n",
    );
    // Knowledge tools only (no executor): trpc's knowledge-only guidance.
    expect(system).toContain(
      "\nTooling and workspace guidance:\n- Use skills for progressive disclosure only: load SKILL.md first with skill_load, then inspect only the documentation needed for the current task.",
    );
    expect(system).toContain(
      "- Use the available doc listing and selection helpers only after skill_load, and only when SKILL.md hints at auxiliary docs you still need; if SKILL.md alone is enough, do not call them.\n",
    );
    expect(system).not.toContain("Skill tool availability:");
  });

  it("without skill tools: the Skill tool availability block and the catalog-only guidance", async () => {
    const model = scriptedModel([{ text: "ok" }]);
    const a = await trpcAgent(model, { session: { skillTools: [] } });
    await a.send("summary of the csv table");
    const system = systemOf(model.calls[0]!);
    expect(system).toContain(
      "- slide-maker: Build slide decks from notes.\n" +
        "\nSkill tool availability:\n" +
        "- This configuration exposes skill summaries only. Built-in skill tools are unavailable in the current mode.\n" +
        "- Treat the skill overview as a catalog of possible capabilities. Use other registered tools, or explain the limitation clearly when the task depends on skill loading or execution.\n" +
        "\nTooling and workspace guidance:\n" +
        "- Use the skill overview as a catalog only. Built-in skill tools are unavailable in this configuration; if a task depends on loading or executing a skill, use other registered tools or explain the limitation clearly.\n",
    );
    // trpc prints the leader only when skill_load is there to call.
    expect(system).not.toContain("Top recommended");
    expect(toolNamesOf(model.calls[0]!)).not.toContain("skill_load");
  });

  it("doc helpers only: trpc's doc-inspection texts", async () => {
    const model = scriptedModel([{ text: "ok" }]);
    const a = await trpcAgent(model, { session: { skillTools: ["skill_list_docs"] } });
    await a.send("hi");
    const system = systemOf(model.calls[0]!);
    expect(toolNamesOf(model.calls[0]!)).toEqual(["skill_list_docs"]);
    expect(system).toContain(
      "\nSkill tool availability:\n- This configuration supports skill discovery and skill doc inspection only.\n",
    );
    expect(system).toContain(
      "\nTooling and workspace guidance:\n- Use skills only to inspect available doc names.\n- Built-in skill loading is unavailable, so doc helpers do not inject SKILL.md or doc contents into context;",
    );
  });

  it("with an executor: the full tooling and workspace guidance", async () => {
    const model = scriptedModel([{ text: "ok" }]);
    const a = await trpcAgent(model, { executor: "local" });
    await a.send("hi");
    const system = systemOf(model.calls[0]!);
    expect(system).not.toContain("routing summaries only. If one looks relevant");
    expect(system).toContain(
      "\nTooling and workspace guidance:\n- Skills run inside an isolated workspace; you see only files that are in the workspace or have been staged there by tools.\n- skill_run runs with CWD at the skill root by default; avoid setting cwd unless needed.\n",
    );
    expect(system).toContain(
      "- output_files entries are workspace paths/globs (e.g. out/*.txt). Do not use workspace:// or artifact:// in output_files.\n",
    );
    expect(system).toContain(
      "- When you execute, follow the tool description, loaded skill docs, bundled scripts, and observed runtime behavior rather than inventing shell syntax or command arguments.\n",
    );
  });
});

const LOADED_CSV = "[Loaded] csv-summary\n\nRead the CSV and report.\n";

describe("trpc load modes (WithSkillLoadMode) and WithMaxLoadedSkills", () => {
  const loadCsv = { toolCalls: [{ name: "skill_load", input: '{"skill":"csv-summary"}' }] };
  const listDocs = { toolCalls: [{ name: "skill_list_docs", input: '{"skill":"pdf-merge"}' }] };

  it("turn (the default): loaded content lasts the turn, and is gone when the next turn starts", async () => {
    const model = scriptedModel([loadCsv, listDocs, { text: "done" }, { text: "next" }]);
    const a = await trpcAgent(model, { placement: "system" });
    await a.send("summarise the csv");
    expect(a.session.loadedSkills()).toEqual(["csv-summary"]);
    await a.send("anything else?");
    const systems = model.calls.map((c) => systemOf(c));
    expect(systems[0]).not.toContain(LOADED_CSV);
    expect(systems[1]).toContain(LOADED_CSV);
    expect(systems[2]).toContain(LOADED_CSV); // still the same turn
    expect(systems[3]).not.toContain(LOADED_CSV);
    expect(a.session.loadedSkills()).toEqual([]);
  });

  it("once: loaded content is shown in the one request after the load, then offloaded", async () => {
    const model = scriptedModel([loadCsv, listDocs, { text: "done" }]);
    const a = await trpcAgent(model, { placement: "system", session: { loadMode: "once" } });
    await a.send("summarise the csv");
    const systems = model.calls.map((c) => systemOf(c));
    expect(systems[1]).toContain(LOADED_CSV);
    expect(systems[2]).not.toContain(LOADED_CSV);
    expect(a.session.loadedSkills()).toEqual([]);
  });

  it("once, history placement: the load's tool result is shown once, then stubbed", async () => {
    const model = scriptedModel([loadCsv, listDocs, { text: "done" }]);
    const a = await trpcAgent(model, { session: { loadMode: "once" } });
    await a.send("summarise the csv");
    const prompts = model.calls.map((c) => JSON.stringify(c.prompt));
    expect(prompts[1]).toContain("Read the CSV and report.");
    expect(prompts[2]).not.toContain("Read the CSV and report.");
  });

  it("session: loaded content stays across turns", async () => {
    const model = scriptedModel([loadCsv, { text: "done" }, { text: "next" }]);
    const a = await trpcAgent(model, { placement: "system", session: { loadMode: "session" } });
    await a.send("summarise the csv");
    await a.send("anything else?");
    expect(systemOf(model.calls[2]!)).toContain(LOADED_CSV);
    expect(a.session.loadedSkills()).toEqual(["csv-summary"]);
  });

  it("maxLoadedSkills evicts the least recently touched skill instead of refusing (select_docs touches)", async () => {
    const load = (skill: string) => ({
      toolCalls: [{ name: "skill_load", input: JSON.stringify({ skill }) }],
    });
    const model = scriptedModel([
      load("csv-summary"),
      load("pdf-merge"),
      { toolCalls: [{ name: "skill_select_docs", input: '{"skill":"csv-summary","mode":"clear"}' }] },
      load("slide-maker"),
      { text: "done" },
    ]);
    const a = await trpcAgent(model, { placement: "system", session: { maxLoadedSkills: 2 } });
    const result = await a.send("do it all");
    expect(result.toolCalls.map((c) => c.isError)).toEqual([false, false, false, false]);
    expect(String(result.toolCalls[3]?.output)).toContain("loaded: slide-maker");
    expect(a.session.loadedSkills().sort()).toEqual(["csv-summary", "slide-maker"]);
    const last = systemOf(model.calls[4]!);
    expect(last).toContain("[Loaded] slide-maker");
    expect(last).not.toContain("[Loaded] pdf-merge");
  });
});
