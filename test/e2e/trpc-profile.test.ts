/**
 * The `trpc` profile end to end: a SkillAgent over a scripted model, asserting the texts of trpc-agent-go
 * (`internal/flow/processor/skills.go`, seed-systems.md §1.5) in the requests the model receives.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeSkillTree, type SkillSpec, type SkillTree } from "../../src/context/__fixtures__/skill-tree.js";
import { createSkillAgent } from "../../src/engine/create-skill-agent.js";
import type { SkillAgent, SkillAgentOptions } from "../../src/engine/skill-agent.js";
import { createFsArtifactStore } from "../../src/exec/artifact-store.js";
import { scriptedModel, systemOf, toolNamesOf } from "../../src/test-kit.js";

const skills: SkillSpec[] = [
  {
    name: "csv-summary",
    description: "Summarise a CSV table: columns, counts and totals.",
    body: "Read the CSV and report.",
  },
  { name: "pdf-merge", description: "Merge PDF documents into one.", body: "Use qpdf." },
  { name: "slide-maker", description: "Build slide decks from notes.", body: "Use pptx." },
];

const TOP_CSV =
  "Top recommended skill for this request: `csv-summary`. If this skill matches the task family, call skill_load on it as your first tool call before any domain tool.\n";

let agent: SkillAgent | undefined;
let tree: SkillTree | undefined;
afterEach(async () => {
  await agent?.close();
  await tree?.cleanup();
  agent = undefined;
  tree = undefined;
});

async function skillTree(): Promise<SkillTree> {
  tree ??= await makeSkillTree(skills);
  return tree;
}

async function trpcAgent(model: ReturnType<typeof scriptedModel>, extra: Partial<SkillAgentOptions> = {}) {
  agent = await createSkillAgent({
    model,
    catalog: (await skillTree()).catalog,
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

describe("trpc skill_run: output_files, editor_text, artifacts, inputs[].pin, primary_output and warnings", () => {
  const runCall = (input: Record<string, unknown>) => ({
    toolCalls: [{ name: "skill_run", input: JSON.stringify({ skill: "csv-summary", ...input }) }],
  });
  const WORKSPACE_ONLY =
    "output_files are workspace-relative; prefer output_files content; when you need a stable reference, use output_files[*].ref (workspace://...)";

  async function runs(calls: Record<string, unknown>[], extra: Partial<SkillAgentOptions> = {}) {
    const model = scriptedModel([...calls.map(runCall), { text: "done" }]);
    const a = await trpcAgent(model, { executor: "local", ...extra });
    const result = await a.send("summarise the csv");
    return result.toolCalls.map((c) => ({
      isError: c.isError,
      text: String(c.output),
      json: () => JSON.parse(String(c.output)) as Record<string, unknown>,
    }));
  }

  it("returns output_files inline, the first text file by name as primary_output, and trpc's warning", async () => {
    const [run] = await runs([
      {
        command: "printf 'b\\n' > $OUTPUT_DIR/b.txt; printf 'a\\n' > $OUTPUT_DIR/a.txt",
        output_files: ["$OUTPUT_DIR/*.txt"],
      },
    ]);
    const out = run!.json();
    expect(out["exit_code"]).toBe(0);
    expect(out["output_files"]).toMatchObject([
      {
        name: "out/a.txt",
        content: "a\n",
        mime_type: expect.stringMatching(/^text\/plain/),
        ref: "workspace://out/a.txt",
      },
      { name: "out/b.txt", content: "b\n" },
    ]);
    expect(out["primary_output"]).toMatchObject({ name: "out/a.txt", content: "a\n" });
    expect(out["warnings"]).toEqual([WORKSPACE_ONLY]);
  });

  it("a failed run drops empty output files with trpc's warning; without outputs out/** gives the primary_output", async () => {
    const [failed, auto] = await runs([
      {
        command: "touch $OUTPUT_DIR/empty.txt; echo partial > $OUTPUT_DIR/x.txt; exit 3",
        output_files: ["out/*.txt"],
      },
      { command: "echo report > $OUTPUT_DIR/report.md" },
    ]);
    const out = failed!.json();
    expect(out["exit_code"]).toBe(3);
    expect((out["output_files"] as { name: string }[]).map((f) => f.name)).toEqual(["out/x.txt"]);
    expect(out["warnings"]).toEqual([
      "empty output_files omitted because command failed; shell redirections can create empty files before execution fails",
      WORKSPACE_ONLY,
    ]);
    const second = auto!.json();
    expect(second["output_files"]).toEqual([]);
    expect(second["primary_output"]).toMatchObject({ name: "out/report.md", content: "report\n" });
  });

  it("save_as_artifacts without a store says so in trpc's words; with one, artifact_prefix names them and omit_inline_content keeps sizes only", async () => {
    const [unsaved] = await runs([
      { command: "echo x > $OUTPUT_DIR/r.txt", output_files: ["out/r.txt"], save_as_artifacts: true },
    ]);
    expect(unsaved!.json()["warnings"]).toEqual([
      "save_as_artifacts requested but artifact service is not configured; outputs are not persisted",
      WORKSPACE_ONLY,
    ]);
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "trpc-artifacts-"));
    try {
      const [saved] = await runs(
        [
          {
            command: "echo hello > $OUTPUT_DIR/r.txt",
            output_files: ["out/r.txt"],
            save_as_artifacts: true,
            artifact_prefix: "reports/",
            omit_inline_content: true,
          },
        ],
        { run: { artifactStore: createFsArtifactStore(dir) } },
      );
      const out = saved!.json();
      expect(out["artifact_files"]).toMatchObject([{ name: "reports/out/r.txt", version: 1 }]);
      expect(out["output_files"]).toMatchObject([{ name: "out/r.txt", content: "", size_bytes: 6 }]);
      expect(out["warnings"]).toEqual([]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("editor_text: $EDITOR and $VISUAL write the text into the file they are given; env.EDITOR conflicts", async () => {
    const [edited, visual, conflict] = await runs([
      {
        command: '"$EDITOR" $OUTPUT_DIR/msg.txt && cat $OUTPUT_DIR/msg.txt',
        editor_text: "commit message\n",
      },
      { command: '"$VISUAL" $OUTPUT_DIR/v.txt && cat $OUTPUT_DIR/v.txt', editor_text: "it's quoted" },
      { command: "true", editor_text: "x", env: { EDITOR: "vi" } },
    ]);
    expect(edited!.json()["stdout"]).toBe("commit message\n");
    expect(visual!.json()["stdout"]).toBe("it's quoted");
    expect(conflict).toMatchObject({ isError: true, text: "editor_text cannot be combined with env.EDITOR" });
  });

  it("inputs[].pin reuses the artifact version the input first resolved to", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "trpc-pin-"));
    try {
      const store = createFsArtifactStore(dir);
      await store.save("data.txt", new TextEncoder().encode("v1"), "text/plain");
      const model = scriptedModel([
        runCall({
          command: "cat $WORK_DIR/inputs/data.txt",
          inputs: [{ from: "artifact://data.txt", pin: true }],
        }),
        { text: "saved" },
        runCall({
          command: "cat $WORK_DIR/inputs/data.txt",
          inputs: [{ from: "artifact://data.txt", pin: true }],
        }),
        runCall({ command: "cat $WORK_DIR/inputs/data.txt", inputs: [{ from: "artifact://data.txt" }] }),
        { text: "done" },
      ]);
      const a = await trpcAgent(model, { executor: "local", run: { artifactStore: store } });
      const first = await a.send("stage it");
      await store.save("data.txt", new TextEncoder().encode("v2"), "text/plain");
      const second = await a.send("again");
      const stdout = [...first.toolCalls, ...second.toolCalls].map(
        (c) => (JSON.parse(String(c.output)) as { stdout: string }).stdout,
      );
      expect(stdout).toEqual(["v1", "v1", "v2"]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses unknown fields, as the skillrt profile's tools refuse bad input", async () => {
    const [bad] = await runs([{ command: "true", output_file: ["out/x"] }]);
    expect(bad!.isError).toBe(true);
    expect(bad!.text).toMatch(/output_file/);
  });
});
