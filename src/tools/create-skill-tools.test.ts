import fs from "node:fs/promises";
import path from "node:path";
import { asSchema, type ModelMessage, type Tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { makeSkillTree, type SkillTree, standardSkills } from "../context/__fixtures__/skill-tree.js";
import { createSkillSession } from "../context/create-skill-session.js";
import { createWorkspace } from "../exec/create-workspace.js";
import { createLocalExecutor } from "../exec/local-executor.js";
import type { Workspace } from "../exec/workspace.js";
import { callTool as call } from "./__fixtures__/call-tool.js";
import { createSkillTools } from "./create-skill-tools.js";
import { createToolRegistry } from "./tool-registry.js";

let tree: SkillTree | undefined;
let workspace: Workspace | undefined;
afterEach(async () => {
  await tree?.cleanup();
  if (workspace !== undefined) await fs.rm(workspace.root, { recursive: true, force: true });
  tree = undefined;
  workspace = undefined;
});

async function setup() {
  tree = await makeSkillTree(standardSkills());
  const session = createSkillSession({ catalog: tree.catalog, id: "s" });
  return { session, skills: createSkillTools(session), tree };
}

describe("canonical tools", () => {
  it("load, read, list, select, unload and search answer with content or actionable messages", async () => {
    const { skills } = await setup();
    const { tools } = skills;
    expect(await call(tools, "skill_load", { name: "pdf" })).toMatch(/^<skill_content name="pdf">/);
    expect(await call(tools, "skill_load", { name: "pdf" })).toMatch(/already loaded/);
    expect(await call(tools, "skill_load", { name: "nope" })).toMatch(/Skill 'nope' not found/);
    expect(await call(tools, "skill_load", { name: "secret-ops" })).toMatch(/Skill 'secret-ops' not found/);
    expect(await call(tools, "skill_read", { name: "pdf", path: "references/forms.md" })).toContain(
      "How to fill forms.",
    );
    expect(await call(tools, "skill_read", { name: "pdf", path: "missing.md" })).toMatch(
      /Available paths:\n1\. SKILL\.md/,
    );
    expect(await call(tools, "skill_read", { name: "pdf", path: "../docx/SKILL.md" })).toMatch(/refused/);
    expect(await call(tools, "skill_read", { name: "pdf", path: "/etc/passwd" })).toMatch(
      /Absolute paths are not allowed/,
    );
    expect(await call(tools, "skill_read", { name: "pdf", path: "assets/logo.png" })).toMatch(
      /binary="true"/,
    );
    expect(await call(tools, "skill_list_docs", { name: "pdf" })).toBe(
      "Docs of skill 'pdf':\n- notes.txt\n- references/api.md\n- references/forms.md",
    );
    expect(
      await call(tools, "skill_select_docs", { name: "pdf", docs: ["notes.txt"], mode: "weird" }),
    ).toMatch(
      /<skill_doc skill="pdf" path="notes.txt">[\s\S]*Selected docs of 'pdf' \(mode replace\): notes.txt\./,
    );
    expect(await call(tools, "skill_select_docs", { name: "docx", docs: [] })).toMatch(
      /Skill 'docx' is not loaded\. Call skill_load first/,
    );
    expect(await call(tools, "skill_search", { query: "word documents tracked changes" })).toMatch(
      /^- docx: Create and edit/,
    );
    expect(await call(tools, "skill_unload", { name: "pdf" })).toBe(
      "Skill 'pdf' unloaded. Loaded skills: [].",
    );
    expect(await call(tools, "skill_unload", { name: "pdf" })).toMatch(/Skill 'pdf' is not currently loaded/);
  });

  it("uses an enum of visible names (hidden ones excluded) and exports JSON Schema", async () => {
    const { skills } = await setup();
    const schema = skills.jsonSchemas().skill_load as {
      properties: { name: { enum: string[] } };
      required: string[];
    };
    expect(schema.properties.name.enum).toEqual(["background", "docx", "pdf"]);
    expect(schema.required).toEqual(["name"]);
    expect(skills.jsonSchemas().skill_read).toMatchObject({
      properties: { start_line: { type: "integer" } },
    });
  });

  it("lets a name outside the enum through validation and answers with the closest names", async () => {
    const { skills } = await setup();
    const loadTool = skills.tools.skill_load;
    if (loadTool === undefined) throw new Error("skill_load missing");
    const validation = await asSchema(loadTool.inputSchema).validate?.({ name: "pdff" });
    expect(validation?.success).toBe(true);
    const answer = await call(skills.tools, "skill_load", { name: "pdff" });
    expect(answer).toMatch(/Skill 'pdff' not found/);
    expect(answer).toContain("pdf");
  });

  it("offers no skill tools and no prompt when there are no skills", async () => {
    tree = await makeSkillTree([]);
    const session = createSkillSession({ catalog: tree.catalog });
    const skills = createSkillTools(session);
    expect(skills.activeToolNames()).toEqual([]);
    expect(skills.systemPrompt()).toBe("");
  });

  it("offers skill_search only when the catalog leaves something out", async () => {
    const { skills } = await setup();
    expect(skills.activeToolNames()).toEqual([
      "skill_load",
      "skill_read",
      "skill_list_docs",
      "skill_select_docs",
      "skill_unload",
    ]);
    tree = tree ?? (await makeSkillTree(standardSkills()));
    const tight = createSkillTools(createSkillSession({ catalog: tree.catalog, catalogBudget: 150 }));
    expect(tight.activeToolNames()).toContain("skill_search");
    expect(tight.systemPrompt()).toMatch(/Call skill_search with a few keywords/);
  });

  it("gates host tools through the registry and the allowed-tools policy", async () => {
    const { tree: t } = await setup();
    const registry = createToolRegistry();
    const noop = { description: "x", inputSchema: {}, execute: async () => "" } as unknown as Tool;
    registry.register("web_fetch", noop, { group: "pdf_skill_tools" });
    registry.register("calc", noop);
    const skills = createSkillTools(createSkillSession({ catalog: t.catalog }), { registry });
    expect(skills.activeToolNames()).toEqual([
      "calc",
      "skill_load",
      "skill_read",
      "skill_list_docs",
      "skill_select_docs",
      "skill_unload",
    ]);
    await call(skills.tools, "skill_load", { name: "pdf" });
    expect(skills.activeToolNames().slice(0, 2)).toEqual(["web_fetch", "calc"]);
    expect(Object.keys(skills.allTools())).toContain("web_fetch");
  });

  it("offers a loaded skill's scripts as tools, runs them, and withdraws them on unload", async () => {
    tree = await makeSkillTree([
      {
        name: "greet",
        description: "Greets.",
        files: { "scripts/hello.sh": '#!/bin/bash\n# Say hello to someone.\necho "hello $1"\n' },
      },
    ]);
    workspace = await createWorkspace();
    const skills = createSkillTools(createSkillSession({ catalog: tree.catalog }), {
      run: { environment: { workspace, executor: createLocalExecutor() } },
    });
    expect(skills.activeToolNames()).not.toContain("greet__hello");
    await call(skills.tools, "skill_load", { name: "greet" });
    expect(skills.activeToolNames()).toEqual([
      "skill_load",
      "skill_read",
      "skill_list_docs",
      "skill_select_docs",
      "skill_unload",
      "skill_run",
      "greet__hello",
    ]);
    expect(await call(skills.tools, "greet__hello", { args: ["world"] })).toMatch(
      /exit code: 0[\s\S]*hello world/,
    );
    expect(await call(skills.tools, "skill_run", { name: "greet", command: "echo ran" })).toMatch(/ran/);
    expect(await call(skills.tools, "skill_run", { name: "nope", command: "echo x" })).toMatch(/nope/);
    await call(skills.tools, "skill_unload", { name: "greet" });
    expect(skills.activeToolNames()).not.toContain("greet__hello");
  });
});

describe("error paths at tool level", () => {
  it("refuses `..`, absolute paths and a symlink that leaves the skill, with one clean sentence each", async () => {
    const { skills, tree: t } = await setup();
    const outside = path.join(t.root, "outside.txt");
    await fs.writeFile(outside, "secret outside the skill\n");
    await fs.symlink(outside, path.join(t.root, "skills", "pdf", "link.txt"));
    const read = (p: string) => call(skills.tools, "skill_read", { name: "pdf", path: p });
    expect(await read("link.txt")).toBe(
      "Path 'link.txt' was refused. 'link.txt' is a symlink that leads outside the skill directory; only files inside the skill can be read. Use a path relative to the skill directory, such as SKILL.md.",
    );
    expect(await read("../docx/SKILL.md")).toBe(
      "Path '../docx/SKILL.md' was refused. '..' is not allowed in '../docx/SKILL.md': only files inside the skill directory can be read. Use a path relative to the skill directory.",
    );
    expect(await read("/etc/passwd")).toBe(
      "Path '/etc/passwd' was refused. Absolute paths are not allowed: '/etc/passwd'. Use a path relative to the skill directory, such as 'references/guide.md'.",
    );
    for (const p of ["link.txt", "../docx/SKILL.md", "/etc/passwd"]) {
      const answer = (await read(p)).replaceAll(p, "PATH").replaceAll("'..'", "DOTDOT");
      expect(answer).not.toContain("..");
      expect(answer).not.toContain("secret outside");
    }
  });

  it("refuses a body over the 8,000-token budget and points to skill_read and the references", async () => {
    const big = Array.from(
      { length: 2_500 },
      (_, i) => `Step ${i}: check the ledger entries carefully.`,
    ).join("\n");
    tree = await makeSkillTree([
      {
        name: "huge",
        description: "A very long skill.",
        body: big,
        files: { "references/part1.md": "# Part 1\n", "references/part2.md": "# Part 2\n" },
      },
    ]);
    const skills = createSkillTools(createSkillSession({ catalog: tree.catalog }));
    const answer = await call(skills.tools, "skill_load", { name: "huge" });
    expect(answer).toMatch(
      /^Skill 'huge' is [\d,]+ tokens, over the 8,000-token budget for one skill, so it was not loaded\. Read the part you need with skill_read \(path "SKILL\.md" with start_line and end_line\), or its reference files: references\/part1\.md, references\/part2\.md\.$/,
    );
    expect(skills.activeToolNames()).toContain("skill_load");
    expect(
      await call(skills.tools, "skill_read", { name: "huge", path: "SKILL.md", start_line: 6, end_line: 8 }),
    ).toMatch(/Step 0: check/);
  });

  it("refuses to read or run before load where the profile or setup requires load first", async () => {
    tree = await makeSkillTree(standardSkills());
    workspace = await createWorkspace();
    const session = createSkillSession({ catalog: tree.catalog, profile: "omni" });
    const omni = createSkillTools(session, {
      run: { environment: { workspace, executor: createLocalExecutor() }, policy: { requireLoaded: true } },
    });
    expect(
      await call(omni.tools, "load_skill_reference", { skill_name: "pdf", reference: "references/forms.md" }),
    ).toBe("Skill 'pdf' is not loaded. Load the skill first using load_skill.");
    expect(await call(omni.tools, "skill_run", { name: "pdf", command: "echo hi" })).toBe(
      'skill_run requires load_skill first for "pdf". Load the skill, read its instructions, then run again.',
    );
    await call(omni.tools, "load_skill", { skill_name: "pdf" });
    expect(await call(omni.tools, "skill_run", { name: "pdf", command: "echo hi" })).toMatch(
      /exit code: 0[\s\S]*hi/,
    );
    expect(
      await call(omni.tools, "load_skill_reference", { skill_name: "pdf", reference: "references/forms.md" }),
    ).toMatch(/^Reference 'references\/forms\.md' loaded:/);
  });

  it("still takes the flat run setup of earlier versions, its policy fields included", async () => {
    tree = await makeSkillTree(standardSkills());
    workspace = await createWorkspace();
    const session = createSkillSession({ catalog: tree.catalog, profile: "omni" });
    const omni = createSkillTools(session, {
      run: { workspace, executor: createLocalExecutor(), requireLoaded: true, policy: { deny: ["curl"] } },
    });
    expect(await call(omni.tools, "skill_run", { name: "pdf", command: "echo hi" })).toBe(
      'skill_run requires load_skill first for "pdf". Load the skill, read its instructions, then run again.',
    );
    await call(omni.tools, "load_skill", { skill_name: "pdf" });
    expect(await call(omni.tools, "skill_run", { name: "pdf", command: "curl x" })).toContain(
      "'curl' is on the deny list",
    );
    expect(await call(omni.tools, "skill_run", { name: "pdf", command: "echo hi" })).toMatch(
      /exit code: 0[\s\S]*hi/,
    );
  });
});

describe("history placement", () => {
  it("keeps the system prompt and every earlier message byte-identical when a skill loads, and stubs unloaded content", async () => {
    const { session, skills } = await setup();
    const system = skills.systemPrompt();
    const messages: ModelMessage[] = [
      { role: "user", content: "Fill this PDF form." },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c1", toolName: "skill_load", input: { name: "pdf" } }],
      },
    ];
    const loaded = await call(skills.tools, "skill_load", { name: "pdf" }, "c1");
    messages.push({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "skill_load",
          output: { type: "text", value: loaded },
        },
      ],
    });
    const before = JSON.stringify(messages);
    const docx = await call(skills.tools, "skill_load", { name: "docx" }, "c2");
    messages.push(
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c2", toolName: "skill_load", input: { name: "docx" } }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c2",
            toolName: "skill_load",
            output: { type: "text", value: docx },
          },
        ],
      },
    );
    expect(skills.systemPrompt()).toBe(system);
    const rewritten = session.history.rewrite(messages);
    expect(JSON.stringify(rewritten.slice(0, 3))).toBe(before);
    expect(rewritten).toEqual(messages);

    await call(skills.tools, "skill_unload", { name: "pdf" });
    const afterUnload = session.history.rewrite(messages);
    expect(afterUnload[2]).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "skill_load",
          output: {
            type: "text",
            value:
              "[Skill 'pdf' was removed from the context (unloaded or evicted). Call skill_load again if you need it.]",
          },
        },
      ],
    });
    expect(afterUnload[4]).toBe(messages[4]);
    expect(session.history.rematerialize()).toContain('<skill_content name="docx">');
    expect(session.history.rematerialize()).not.toContain('name="pdf"');
    expect(session.history.measure(afterUnload)).toBeGreaterThan(0);
  });
});
