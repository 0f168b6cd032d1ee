import fs from "node:fs/promises";
import path from "node:path";
import type { Tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { makeSkillTree, type SkillTree, standardSkills } from "../../context/__fixtures__/skill-tree.js";
import { createSkillSession, startSkillSession } from "../../context/create-skill-session.js";
import { restoreSkillSession } from "../../context/restore-skill-session.js";
import type { Placement } from "../../context/session-options.js";
import { createWorkspace } from "../../exec/create-workspace.js";
import { createLocalExecutor } from "../../exec/local-executor.js";
import type { Workspace } from "../../exec/workspace.js";
import { callTool as call } from "../__fixtures__/call-tool.js";
import { createSkillTools, type SkillToolsOptions } from "../create-skill-tools.js";
import type { ProfileName } from "../profile-types.js";
import { createToolRegistry } from "../tool-registry.js";

let tree: SkillTree | undefined;
let workspace: Workspace | undefined;
afterEach(async () => {
  await tree?.cleanup();
  if (workspace !== undefined) await fs.rm(workspace.root, { recursive: true, force: true });
  tree = undefined;
  workspace = undefined;
});

const noop = { description: "x", inputSchema: {}, execute: async () => "" } as unknown as Tool;

async function setup(profile: ProfileName, placement: Placement = "history", extra: SkillToolsOptions = {}) {
  const skills = standardSkills();
  skills.push({
    name: "forms",
    description: "Fill forms.",
    body: "# Forms skill",
    files: {
      "forms.md": "form help",
      "reference.md": "ref",
      "references/fields.yaml": "a: 1\n",
      "docs/other.md": "x",
    },
  });
  tree = await makeSkillTree(skills);
  const session = createSkillSession({ catalog: tree.catalog, placement, profile });
  return { session, skills: createSkillTools(session, extra) };
}

describe("trpc profile (trpc-agent-go flow)", () => {
  it("skill_load → loaded: X, select_docs returns the full selection, list_docs the array, unknown skill text", async () => {
    const { session, skills } = await setup("trpc", "system");
    const t = skills.tools;
    expect(Object.keys(t).filter((n) => n !== "skill_search")).toEqual([
      "skill_load",
      "skill_select_docs",
      "skill_list_docs",
    ]);
    expect(session.renderer.systemPrompt()).toContain(
      "Available skills:\n- background: Background knowledge",
    );
    expect(await call(t, "skill_load", { skill: "pdf" })).toBe("loaded: pdf");
    expect(await call(t, "skill_load", { skill: "" })).toBe("skill is required");
    expect(await call(t, "skill_load", { skill: "pdff" })).toBe("unknown skill: pdff (closest: pdf)");
    expect(await call(t, "skill_list_docs", { skill: "pdf" })).toBe(
      '["notes.txt","references/api.md","references/forms.md"]',
    );
    expect(await call(t, "skill_select_docs", { skill: "pdf", docs: ["notes.txt"], mode: "add" })).toBe(
      '{"skill":"pdf","selected_docs":["notes.txt"],"include_all_docs":false,"mode":"add"}',
    );
    expect(await call(t, "skill_select_docs", { skill: "pdf", include_all_docs: true })).toMatch(
      /"include_all_docs":true,"mode":"replace"/,
    );
    expect(await call(t, "skill_select_docs", { skill: "pdf", docs: ["notes.txt"], mode: "add" })).toMatch(
      /"include_all_docs":true/,
    );
    expect(await call(t, "skill_select_docs", { skill: "pdf", mode: "clear" })).toBe(
      '{"skill":"pdf","selected_docs":[],"include_all_docs":false,"mode":"clear"}',
    );
    await call(t, "skill_load", { skill: "pdf", docs: ["references/forms.md"] });
    await call(t, "skill_load", { skill: "docx" });
    // trpc's own layout (skills.go): alphabetical, [Loaded] + body, Docs loaded, [Doc] blocks.
    const system = session.renderer.systemPrompt();
    expect(system).not.toContain("Loaded Skill Instructions");
    expect(system).toContain(
      "[Loaded] docx\n\n# docx\n\nDo the docx thing.\nDocs loaded: none\n\n[Loaded] pdf\n\n# PDF\n\nUse scripts/extract.py",
    );
    expect(system).toMatch(
      /session=[\w-]+\nDocs loaded: references\/forms\.md\n\n\[Doc\] references\/forms\.md\n\n# Forms\n\nHow to fill forms\.\n\n$/,
    );
    const ledger = session.ledger();
    // The ledger adds up to the tokens of the prompt as rendered.
    expect(ledger.total).toBe(session.counter.count(system));
    expect(ledger.entries.map((e) => e.key)).toEqual([
      "catalog",
      "skill:docx",
      "frame:docs:docx",
      "skill:pdf",
      "frame:docs:pdf",
      "doc:pdf/references/forms.md",
      "history",
    ]);
  });

  it("renders skills loaded before the tools existed (active skills, restore) in trpc's layout too", async () => {
    tree = await makeSkillTree(standardSkills());
    const session = await startSkillSession({
      catalog: tree.catalog,
      placement: "system",
      profile: "trpc",
      activeSkills: ["docx"],
    });
    const trpcLayout = "[Loaded] docx\n\n# docx\n\nDo the docx thing.\nDocs loaded: none\n\n";
    expect(session.renderer.systemPrompt()).toContain(trpcLayout);
    expect(session.renderer.systemPrompt()).not.toContain("### Skill: docx");
    createSkillTools(session);
    expect(session.renderer.systemPrompt()).toContain(trpcLayout);
    const restored = await restoreSkillSession(session.snapshot(), {
      catalog: tree.catalog,
      profile: "trpc",
    });
    expect(restored.renderer.systemPrompt()).toContain(trpcLayout);
    expect(restored.renderer.systemPrompt()).not.toContain("### Skill: docx");
  });

  it("skill_run takes `skill` (not `name`) and runs the command in the skill's directory", async () => {
    workspace = await createWorkspace();
    const { skills } = await setup("trpc", "history", {
      run: { environment: { workspace, executor: createLocalExecutor() } },
    });
    const t = skills.tools;
    expect(skills.jsonSchemas().skill_run).toMatchObject({
      properties: { skill: { type: "string" }, command: {} },
      required: expect.arrayContaining(["skill", "command"]),
    });
    expect(Object.keys((skills.jsonSchemas().skill_run as { properties: object }).properties)).not.toContain(
      "name",
    );
    expect(await call(t, "skill_load", { skill: "pdf" })).toMatch(/^loaded: pdf/);
    const out = await call(t, "skill_run", {
      skill: "pdf",
      command: "cat references/forms.md && echo ran-ok",
    });
    // trpc-agent-go answers with the result object as JSON.
    const run = JSON.parse(out) as { exit_code: number; stdout: string; timed_out: boolean; skill: string };
    expect(run).toMatchObject({ skill: "pdf", exit_code: 0, timed_out: false });
    expect(run.stdout).toContain("How to fill forms.");
    expect(run.stdout).toContain("ran-ok");
    expect(await call(t, "skill_run", { skill: "pdff", command: "true" })).toMatch(/pdff[\s\S]*pdf/);
  });

  it("materialises the content after `loaded: X` in history placement", async () => {
    const { skills } = await setup("trpc");
    expect(await call(skills.tools, "skill_load", { skill: "docx" })).toMatch(
      /^loaded: docx\n\n<skill_content name="docx">/,
    );
  });
});

describe("agentscope profile (AgentScope Java flow)", () => {
  it("loads SKILL.md with a header, resources by exact path, lists resources SKILL.md first, activates only on success", async () => {
    const { session, skills } = await setup("agentscope");
    const t = skills.tools;
    // SkillBox's template: the `## Available Skills` header, its <usage> block, one <skill> per skill.
    const system = session.renderer.systemPrompt();
    expect(system).toContain(
      "## Available Skills\n\n<usage>\nSkills provide specialized capabilities and domain knowledge.",
    );
    expect(system).toContain(
      '- Load skill: load_skill_through_path(skillId="<skill-id>", path="SKILL.md")\n',
    );
    expect(system).toContain(
      "Metadata is rendered as XML under each <skill> element:\n- scalar metadata becomes a simple child element\n- nested maps become nested XML elements\n- lists become repeated <item> elements\n- <skill-id> is always appended for tool loading\n</usage>\n\n<available_skills>\n\n<skill>\n  <name>background</name>\n",
    );
    // FileSystemSkillRepository's source `filesystem-<parent>_<dir>`; the id is `name_source`.
    const source = `filesystem-${path.basename(tree?.root ?? "")}_skills`;
    expect(system).toContain(
      `<skill>\n  <name>pdf</name>\n  <description>Extract text and tables from PDF files, fill PDF forms, merge documents.</description>\n  <skill-id>pdf_${source}</skill-id>\n</skill>\n\n`,
    );
    expect(system).toMatch(/<\/skill>\n\n<\/available_skills>\n/);
    expect(await call(t, "load_skill_through_path", { skillId: "nope", path: "SKILL.md" })).toBe(
      "Skill not found: 'nope'. Please check the skill ID.",
    );
    expect(await call(t, "load_skill_through_path", { skillId: "", path: "SKILL.md" })).toBe(
      "Missing or empty required parameter: skillId",
    );
    const missing = await call(t, "load_skill_through_path", { skillId: "pdf", path: "nope.md" });
    expect(missing).toMatch(
      /^Resource not found: 'nope\.md' in skill 'pdf'\.\n\nAvailable resources:\n1\. SKILL\.md\n2\. /,
    );
    expect(await call(t, "load_skill_through_path", { skillId: "pdf", path: " SKILL.md" })).toMatch(
      /^Resource not found: ' SKILL\.md'/,
    );
    expect(await call(t, "load_skill_through_path", { skillId: "pdf", path: "../docx/SKILL.md" })).toMatch(
      /refused/,
    );
    expect(session.loadedSkills()).toEqual([]);
    const loaded = await call(t, "load_skill_through_path", { skillId: `pdf_${source}`, path: "SKILL.md" });
    expect(loaded).toMatch(
      /^Successfully loaded skill: pdf_filesystem-.*_skills\n\nName: pdf\nDescription: Extract text.*\nSource: filesystem-.*_skills\n\nContent:\n---\n# PDF\n/,
    );
    expect(loaded).toMatch(/\n---\n$/);
    expect(session.loadedSkills()).toEqual(["pdf"]);
    expect(await call(t, "load_skill_through_path", { skillId: "pdf", path: "references/forms.md" })).toMatch(
      /^Successfully loaded resource from skill: pdf\nResource path: references\/forms\.md\n\nContent:\n---\n/,
    );
    expect(skills.jsonSchemas().load_skill_through_path).toMatchObject({
      properties: {
        skillId: { enum: ["background", "docx", "forms", "pdf"].map((n) => `${n}_${source}`) },
      },
    });
  });

  it("rejects a ./ path as AgentScope's sanitiser does: not found, with the resources listed", async () => {
    const { skills } = await setup("agentscope");
    const t = skills.tools;
    for (const path of ["./references/forms.md", ".", "references/./forms.md"]) {
      expect(await call(t, "load_skill_through_path", { skillId: "pdf", path })).toBe(
        `Resource not found: '${path}' in skill 'pdf'.\n\nAvailable resources:\n1. SKILL.md\n2. assets/logo.png\n3. notes.txt\n4. references/api.md\n5. references/forms.md\n6. scripts/extract.py`,
      );
    }
    // AgentScope reads `\` as `/`.
    expect(
      await call(t, "load_skill_through_path", { skillId: "pdf", path: "references\\forms.md" }),
    ).toMatch(/^Successfully loaded resource from skill: pdf\nResource path: references\/forms\.md\n/);
  });

  it("activates the skill's <skillId>_skill_tools group on a successful resource read, not on a failed one", async () => {
    const registry = createToolRegistry();
    registry.register("pdf_fill", noop, { group: "pdf_skill_tools" });
    registry.register("calc", noop);
    const { session, skills } = await setup("agentscope", "history", { registry });
    const t = skills.tools;
    expect(skills.activeToolNames()).not.toContain("pdf_fill");
    await call(t, "load_skill_through_path", { skillId: "pdf", path: "nope.md" });
    await call(t, "load_skill_through_path", { skillId: "pdf", path: "./references/forms.md" });
    expect(skills.activeToolNames()).not.toContain("pdf_fill");
    await call(t, "load_skill_through_path", { skillId: "pdf", path: "references/forms.md" });
    expect(session.loadedSkills()).toEqual([]);
    expect(skills.activeToolNames()).toEqual(["pdf_fill", "calc", "load_skill_through_path"]);
  });
});

describe("omni profile (OmniEmployee flow)", () => {
  it("requires load before references, lists references, unload drops them, markdown catalog markers", async () => {
    const { session, skills } = await setup("omni", "system");
    const t = skills.tools;
    expect(session.renderer.systemPrompt()).toContain(
      "## Available Skills (use when needed)\n\n- [○] **background**:",
    );
    expect(await call(t, "load_skill_reference", { skill_name: "forms", reference: "forms.md" })).toBe(
      "Skill 'forms' is not loaded. Load the skill first using load_skill.",
    );
    expect(await call(t, "load_skill", { skill_name: "" })).toBe("Skill name is required");
    expect(await call(t, "load_skill", { skill_name: "ghost" })).toMatch(
      /^Failed to load skill 'ghost'\. It may not exist or exceed token budget\./,
    );
    expect(await call(t, "load_skill", { skill_name: "forms" })).toBe(
      "Skill 'forms' loaded successfully. Available references: ['forms.md', 'reference.md', 'references/fields.yaml']\nCurrently loaded skills: ['forms']",
    );
    expect(session.renderer.systemPrompt()).toContain("- [✓] **forms**: Fill forms.");
    // OmniEmployee's skills doc (seed 003): "## Loaded Skill Instructions\n\n### Skill: book-flight\n# Skill:
    // book-flight\n\nFlight booking assistant…\n\n## Skill Context\n- **Skill Directory**: …\n\n## Instructions".
    const forms = session.loadedSkill("forms")?.record.dir ?? "";
    expect(session.renderer.systemPrompt()).toContain(
      `## Loaded Skill Instructions\n\n### Skill: forms\n# Skill: forms\n\nFill forms.\n\n## Skill Context\n- **Skill Directory**: \`${forms}\`\n\n## Instructions\n`,
    );
    expect(session.renderer.systemPrompt()).toContain(
      "## Available References (Load on Demand)\nThe following reference files contain additional information. Load them using `load_skill_reference` when needed:\n- `forms.md`\n- `reference.md`\n- `references/fields.yaml`",
    );
    expect(await call(t, "load_skill_reference", { skill_name: "forms", reference: "docs/other.md" })).toBe(
      "Reference 'docs/other.md' not found. Available references: ['forms.md', 'reference.md', 'references/fields.yaml']",
    );
    expect(
      await call(t, "load_skill_reference", { skill_name: "forms", reference: "references/fields.yaml" }),
    ).toMatch(/^Reference 'references\/fields\.yaml' loaded:/);
    expect(session.renderer.systemPrompt()).toContain(
      // The seed: "## Loaded Skill References\n\n### book-flight - reference.md\n# Flight Booking Reference".
      "## Loaded Skill References\n\n### forms - references/fields.yaml\na: 1\n\n",
    );
    expect(await call(t, "unload_skill", { skill_name: "forms" })).toMatch(
      /^Skill 'forms' unloaded successfully\.\nCurrently loaded skills: \[\]\nContext usage: \d+%$/,
    );
    expect(session.renderer.systemPrompt()).not.toContain("Loaded Skill References");
    expect(session.ledger().entries.some((e) => e.kind === "doc")).toBe(false);
    expect(await call(t, "unload_skill", { skill_name: "forms" })).toBe(
      "Skill 'forms' is not currently loaded.",
    );
  });
});

describe("aworld profile (AWorld flow)", () => {
  it("renders AWorld's <skills_guide> catalog, activates with the usage guide and path, refuses a second activation, offloads", async () => {
    const { session, skills } = await setup("aworld");
    const t = skills.tools;
    const system = session.renderer.systemPrompt();
    expect(system).toMatch(
      /<skills_guide>\n {2}<skill_guide>\n[\s\S]*active_skill[\s\S]*offload_skill[\s\S]*<\/skill_guide>\n {2}<skills_info>\n/,
    );
    expect(system).toMatch(
      / {2}<skill id="docx" active_status="False">\n {4}<skill_name>docx<\/skill_name>\n {4}<skill_desc>[^<]+<\/skill_desc>\n {2}<\/skill>\n/,
    );
    // skill_neuron.py's six guidelines, word for word.
    expect(system).toContain(
      [
        "    Guidelines:",
        "    - Only activate skills needed for current task",
        "    - Offload skills when no longer needed",
        "    - Skills are scoped to current agent namespace",
        "    - only support skills_info internal skills",
        '    - do not repeat activate or load skills if active status is True <skill id="xxx" active_status="True">',
        "    - If <skill_file_content> already contains <skill_usage> content, do NOT read skill.md file again",
        "  </skill_guide>",
      ].join("\n"),
    );
    expect(system).toMatch(/ {2}<\/skill>\n {2}<\/skills_info>\n<\/skills_guide>\n/);
    const active = await call(t, "active_skill", { skill_name: "docx" });
    expect(active).toMatch(
      /^skill docx activated, current skills: \['docx'\]\n\n<skill_guide># docx\n\nDo the docx thing\.<\/skill_guide>\n<skill_path>\/.*docx<\/skill_path>$/,
    );
    expect(await call(t, "active_skill", { skill_name: "docx" })).toBe(
      "skill docx already activated, current skills: ['docx']",
    );
    // AWorld's SkillsNeuron rebuilds the list on every call: active_status follows activation in history
    // placement too.
    expect(session.renderer.systemPrompt()).toContain('  <skill id="docx" active_status="True">');
    expect(await call(t, "active_skill", { skill_name: "zzz" })).toMatch(/^skill not found/);
    expect(
      await call(t, "read_skill_file", { skill_name: "pdf", file_path: "@references/forms.md" }),
    ).toContain("How to fill forms.");
    expect(await call(t, "read_skill_file", { skill_name: "pdf", file_path: "x.md" })).toMatch(
      /^文件不存在: skill=pdf, file_path=x\.md/,
    );
    expect(await call(t, "offload_skill", { skill_name: "docx" })).toBe(
      "skill docx offloaded, current skills: []",
    );
    expect(await call(t, "offload_skill", { skill_name: "docx" })).toBe(
      "skill docx not found, current skills: []",
    );
  });

  it('system placement: an active skill is active_status="True" with its usage in <skill_file_content><skill_usage>', async () => {
    const { session, skills } = await setup("aworld", "system");
    expect(await call(skills.tools, "active_skill", { skill_name: "docx" })).toBe(
      `skill docx activated, current skills: ['docx']\n\n<skill_guide>(in the system prompt in <skill_file_content id="docx">)</skill_guide>\n<skill_path>${tree?.root}/skills/docx</skill_path>`,
    );
    const system = skills.systemPrompt();
    expect(system).toContain('  <skill id="docx" active_status="True">\n    <skill_name>docx</skill_name>');
    expect(system).toContain('  <skill id="pdf" active_status="False">');
    expect(system).toContain(
      '</skills_guide>\n<skill_file_content id="docx">\n    <skill_usage># docx\n\nDo the docx thing.</skill_usage>\n</skill_file_content>\n',
    );
    expect(system).not.toContain("Loaded Skill Instructions");
    expect(session.renderer.systemPrompt()).toBe(system); // no forced skills: no contract
  });

  it("forced skills: the <forced_skill_contract> sits between </skill_guide> and <skills_info>", async () => {
    const { skills } = await setup("aworld", "history", { forcedSkills: ["docx", "pdf"] });
    expect(skills.systemPrompt()).toContain(
      "  </skill_guide>\n  <forced_skill_contract>\n    The user explicitly requested these skill(s) for this task: docx, pdf.\n    These skills are already activated for this task.\n    Their active <skill_usage> instructions override conflicting generic workflow.\n    You MUST complete the forced-skill workflow before falling back to generic planning, delegation, or tool usage.\n    If a forced skill is instruction-only, respond directly and do not call unrelated tools or subagents before following that skill.\n  </forced_skill_contract>\n  <skills_info>\n",
    );
  });

  it("list_skill_file_tree and list_skill_directory answer in AWorld's shapes", async () => {
    const { skills } = await setup("aworld");
    const t = skills.tools;
    // context_skill_tool.py `_build_file_tree`: "<folder>/", directories first, `├── ` / `└── `, `│   `.
    expect(await call(t, "list_skill_file_tree", { skill_name: "pdf" })).toBe(
      [
        "pdf/",
        "├── assets/",
        "│   └── logo.png",
        "├── references/",
        "│   ├── api.md",
        "│   └── forms.md",
        "├── scripts/",
        "│   └── extract.py",
        "├── SKILL.md",
        "└── notes.txt",
      ].join("\n"),
    );
    // `_list_skill_directory`: "Directory: <dir>/", "", "Contents:", "  Directories:", "  📁 x/", "  Files:", "  📄 y".
    expect(await call(t, "list_skill_directory", { skill_name: "pdf" })).toBe(
      [
        "Directory: pdf/",
        "",
        "Contents:",
        "  Directories:",
        "  📁 assets/",
        "  📁 references/",
        "  📁 scripts/",
        "  Files:",
        "  📄 SKILL.md",
        "  📄 notes.txt",
      ].join("\n"),
    );
    expect(await call(t, "list_skill_directory", { skill_name: "pdf", dir_path: "@pdf/references" })).toBe(
      "Directory: references/\n\nContents:\n  Files:\n  📄 api.md\n  📄 forms.md",
    );
    expect(await call(t, "list_skill_directory", { skill_name: "pdf", dir_path: "../docx" })).toBe(
      "Directory path ../docx is outside skill directory",
    );
    expect(await call(t, "list_skill_directory", { skill_name: "pdf", dir_path: "nope" })).toMatch(
      /^Directory not found: \/.*\/pdf\/nope \(skill: pdf, relative path: nope\)$/,
    );
    expect(await call(t, "list_skill_file_tree", { skill_name: "zzz" })).toBe(
      "Skill 'zzz' not found in namespace 'default'",
    );
  });

  it("a forced instruction-only skill disables the host tools while it is active (forcedSkills)", async () => {
    const registry = createToolRegistry();
    registry.register("calc", noop);
    registry.register("search", noop, { server: "web" });
    const { skills } = await setup("aworld", "history", { registry, forcedSkills: ["docx"] });
    const t = skills.tools;
    const skillTools = [
      "active_skill",
      "offload_skill",
      "read_skill_file",
      "list_skill_file_tree",
      "list_skill_directory",
    ];
    // As in AWorld: with no skill active, every tool.
    expect(skills.activeToolNames()).toEqual(["calc", "search", ...skillTools]);
    await call(t, "active_skill", { skill_name: "pdf" }); // not forced: nothing disabled
    expect(skills.activeToolNames()).toEqual(["calc", "search", ...skillTools]);
    await call(t, "active_skill", { skill_name: "docx" });
    expect(skills.activeToolNames()).toEqual(skillTools);
    expect(skills.gating().reasons.calc).toMatch(/forced skill\(s\) 'docx' are instruction-only/);
    await call(t, "offload_skill", { skill_name: "docx" });
    expect(skills.activeToolNames()).toEqual(["calc", "search", ...skillTools]);
  });

  it("reproduces AWorld's _filter_tools: no active skill → every tool, a named server → its tool_list, an unnamed server → all of it", async () => {
    const registry = createToolRegistry();
    registry.register("calc", noop);
    for (const name of ["navigate", "click", "screenshot"])
      registry.register(`mcp__browser__${name}`, noop, { server: "browser" });
    registry.register("mcp__tracker__create_issue", noop, { server: "tracker" });
    tree = await makeSkillTree([
      {
        name: "browser",
        description: "Browse the web.",
        frontmatter: { tool_list: '{"browser": ["navigate", "click"]}' },
      },
      { name: "notes", description: "Take notes." },
    ]);
    const session = createSkillSession({ catalog: tree.catalog, profile: "aworld" });
    const skills = createSkillTools(session, { registry });
    const skillTools = [
      "active_skill",
      "offload_skill",
      "read_skill_file",
      "list_skill_file_tree",
      "list_skill_directory",
    ];
    const every = [
      "calc",
      "mcp__browser__navigate",
      "mcp__browser__click",
      "mcp__browser__screenshot",
      "mcp__tracker__create_issue",
      ...skillTools,
    ];
    // seed-systems §3.4: "With no skill_configs, or no active skills, **all** tools are returned."
    expect(skills.activeToolNames()).toEqual(every);
    expect(await call(skills.tools, "active_skill", { skill_name: "browser" })).toMatch(
      /^skill browser activated, current skills: \['browser'\]\n\n<skill_guide>/,
    );
    // "Tools of known servers that no active skill references are kept. For a selected server, only the
    // listed tools are kept."
    expect(skills.activeToolNames()).toEqual([
      "calc",
      "mcp__browser__navigate",
      "mcp__browser__click",
      "mcp__tracker__create_issue",
      ...skillTools,
    ]);
    expect(skills.gating().reasons["mcp__browser__screenshot"]).toBe(
      "the loaded skills' tool_list for server 'browser' lists only navigate, click",
    );
    await call(skills.tools, "active_skill", { skill_name: "notes" });
    expect(skills.activeToolNames()).not.toContain("mcp__browser__screenshot");
    await call(skills.tools, "offload_skill", { skill_name: "browser" });
    expect(skills.activeToolNames()).toEqual(every);
  });

  it("keeps skillrt's fail-closed gating as an option (gating: skill)", async () => {
    const registry = createToolRegistry();
    registry.register("mcp__tracker__create_issue", noop, { server: "tracker" });
    const { skills } = await setup("aworld", "history", { registry, gating: "skill" });
    expect(skills.activeToolNames()).not.toContain("mcp__tracker__create_issue");
  });
});

describe("claude profile (Claude Code flow)", () => {
  it("Skill { skill, args } substitutes arguments and hides disable-model-invocation skills", async () => {
    const { skills } = await setup("claude");
    const out = await call(skills.tools, "Skill", { skill: "pdf", args: "in.pdf out.pdf" });
    expect(out).toMatch(/Args: in\.pdf out\.pdf first=in\.pdf second=out\.pdf missing=\$5/);
    expect(skills.jsonSchemas().Skill).toMatchObject({
      properties: { skill: { enum: ["background", "docx", "forms", "pdf"] } },
    });
    expect(await call(skills.tools, "Skill", { skill: "secret-ops" })).toMatch(/not found/);
    expect(skills.systemPrompt()).toContain("call Skill with its name first");
  });
});

describe("trpc profile: the guidance switch (the session's preamble)", () => {
  it('"" leaves trpc\'s guidance blocks out; a text replaces them, before the overview', async () => {
    tree = await makeSkillTree(standardSkills());
    const plain = createSkillSession({ catalog: tree.catalog, profile: "trpc" }).renderer.systemPrompt();
    expect(plain).toContain("Tooling and workspace guidance:");
    const none = createSkillSession({
      catalog: tree.catalog,
      profile: "trpc",
      preamble: "",
    }).renderer.systemPrompt();
    expect(none).toMatch(/^Available skills:\n- background: /);
    expect(none).not.toContain("Tooling and workspace guidance:");
    expect(none).not.toContain("Skill tool availability:");
    const own = createSkillSession({
      catalog: tree.catalog,
      profile: "trpc",
      preamble: "Team protocol: load a skill before using it.",
    }).renderer.systemPrompt();
    expect(own).toMatch(/^Team protocol: load a skill before using it\.\n\nAvailable skills:\n/);
    expect(own).not.toContain("Tooling and workspace guidance:");
  });
});
