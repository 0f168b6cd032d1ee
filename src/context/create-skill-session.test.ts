import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeSkillTree, type SkillTree, standardSkills } from "./__fixtures__/skill-tree.js";
import { createSkillSession, startSkillSession } from "./create-skill-session.js";
import { restoreSkillSession } from "./restore-skill-session.js";
import type { SessionEvent } from "./session-event.js";

let tree: SkillTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

async function setup(skills = standardSkills()) {
  tree = await makeSkillTree(skills);
  return tree;
}

describe("load", () => {
  it("returns the body wrapped in <skill_content> with directory and resources, and keeps the system prompt unchanged", async () => {
    const { catalog, root } = await setup();
    const session = createSkillSession({ catalog, id: "s1" });
    const before = session.renderer.systemPrompt();
    expect(before).toContain("- pdf: Extract text");
    const result = await session.load("pdf", { args: 'a.pdf "out dir"' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const dir = path.join(root, "skills", "pdf");
    expect(result.content.startsWith('<skill_content name="pdf">\n# PDF')).toBe(true);
    expect(result.content).toContain(
      `Skill directory: ${dir}\nRelative paths in this skill are relative to the skill directory.`,
    );
    expect(result.content).toContain("<skill_resources>\n  <file>assets/logo.png</file>");
    expect(result.content).not.toContain("<file>SKILL.md</file>");
    expect(result.body).toContain(
      `Args: a.pdf "out dir" first=a.pdf second=out dir missing=$5 dir=${dir} session=s1`,
    );
    expect(session.renderer.systemPrompt()).toBe(before);
    expect(session.ledger().entries.map((e) => e.key)).toEqual(["catalog", "skill:pdf", "history"]);
  });

  it("deduplicates a second load and says so", async () => {
    const { catalog } = await setup();
    const session = createSkillSession({ catalog });
    await session.load("pdf");
    const again = await session.load("pdf");
    expect(again).toMatchObject({ ok: true, alreadyLoaded: true });
    if (again.ok) expect(again.content).toMatch(/already loaded/);
    expect(session.ledger().entries.filter((e) => e.kind === "skill")).toHaveLength(1);
  });

  it("answers an unknown name with the closest visible names", async () => {
    const { catalog } = await setup();
    const session = createSkillSession({ catalog });
    const result = await session.load("pfd");
    expect(result).toMatchObject({ ok: false, code: "unknown-skill" });
    if (!result.ok) expect(result.message).toMatch(/Skill 'pfd' not found\. Closest names: pdf/);
  });

  it("refuses a body over the per-skill budget and points to skill_read and the references", async () => {
    const { catalog } = await setup();
    const session = createSkillSession({ catalog, skillBudget: 20 });
    const result = await session.load("pdf");
    expect(result).toMatchObject({ ok: false, code: "over-budget" });
    if (!result.ok) {
      expect(result.message).toMatch(/over the 20-token budget/);
      expect(result.message).toContain("skill_read");
      expect(result.message).toContain("references/api.md, references/forms.md");
    }
    expect(session.loadedSkills()).toEqual([]);
  });

  it("appends ARGUMENTS when the body has no placeholder", async () => {
    const { catalog } = await setup();
    const session = createSkillSession({ catalog });
    const result = await session.load("docx", { args: "report.docx" });
    expect(result.ok && result.body.endsWith("\n\nARGUMENTS: report.docx")).toBe(true);
  });
});

describe("visibility", () => {
  it("hides disable-model-invocation skills from the catalog, tools and search, but lets people load them", async () => {
    const { catalog } = await setup();
    const session = createSkillSession({ catalog });
    expect(session.renderer.systemPrompt()).not.toContain("secret-ops");
    expect(await session.load("secret-ops")).toMatchObject({ ok: false, code: "unknown-skill" });
    expect(await session.readFile("secret-ops", "SKILL.md")).toMatchObject({
      ok: false,
      code: "unknown-skill",
    });
    expect((await session.search("internal operations")).map((h) => h.name)).not.toContain("secret-ops");
    expect((await session.load("secret-ops", { by: "user" })).ok).toBe(true);
    expect(session.userInvocableSkills().map((r) => r.name)).toEqual(["docx", "pdf", "secret-ops"]);
  });

  it("refuses user loads of user-invocable: false skills; model and init loads still work", async () => {
    const skills = standardSkills();
    skills.push({
      name: "auto-only",
      description: "Loaded only by configuration.",
      frontmatter: { "disable-model-invocation": "true", "user-invocable": "false" },
    });
    const { catalog } = await setup(skills);
    const session = createSkillSession({ catalog, activeSkills: ["auto-only"] });
    const user = await session.load("background", { by: "user" });
    expect(user).toMatchObject({ ok: false, code: "not-user-invocable" });
    if (!user.ok)
      expect(user.message).toBe(
        "Skill 'background' cannot be loaded on a user's request: it sets 'user-invocable: false'. " +
          "The model can still load it when a task needs it.",
      );
    const hidden = await session.load("auto-only", { by: "user" });
    expect(hidden).toMatchObject({ ok: false, code: "not-user-invocable" });
    if (!hidden.ok) expect(hidden.message).toMatch(/only 'active: true' or the session's activeSkills/);
    expect(session.loadedSkills()).toEqual([]);
    expect(await session.load("background")).toMatchObject({ ok: true, name: "background" });
    expect(await session.load("auto-only")).toMatchObject({ ok: false, code: "unknown-skill" });
    await session.init();
    expect(session.loadedSkills()).toEqual(["background", "auto-only"]);
    // Already loaded (by the model or init) does not make a user load acceptable.
    expect(await session.load("background", { by: "user" })).toMatchObject({ code: "not-user-invocable" });
  });

  it("applies allow and deny globs", async () => {
    const { catalog } = await setup();
    const session = createSkillSession({ catalog, allow: ["p*", "d*"], deny: ["docx"] });
    expect(session.visibleSkills().map((r) => r.name)).toEqual(["pdf"]);
    expect(await session.load("docx")).toMatchObject({ ok: false, code: "unknown-skill" });
    const failure = session.notFound("docs");
    expect(failure.closest).not.toContain("docx");
  });

  it("renders no catalog and no preamble when nothing is visible", async () => {
    const { catalog } = await setup();
    const session = createSkillSession({ catalog, allow: ["nothing-*"] });
    expect(session.renderer.systemPrompt()).toBe("");
    expect(session.ledger().total).toBe(0);
  });
});

describe("files", () => {
  it("lists the available paths (SKILL.md first) for a missing file, refuses escapes and describes binaries", async () => {
    const { catalog, root } = await setup();
    await fs.symlink(
      path.join(root, "skills", "docx", "SKILL.md"),
      path.join(root, "skills", "pdf", "escape.md"),
    );
    const session = createSkillSession({ catalog });
    const missing = await session.readFile("pdf", "references/nope.md");
    expect(missing).toMatchObject({ ok: false, code: "file-not-found" });
    if (!missing.ok) {
      expect(missing.available?.[0]).toBe("SKILL.md");
      expect(missing.message).toMatch(/Available paths:\n1\. SKILL\.md\n/);
    }
    // A path that differs only in letter case reads the one real file.
    expect(await session.readFile("pdf", "REFERENCES/API.md")).toMatchObject({
      ok: true,
      path: "references/api.md",
    });
    expect(await session.readFile("pdf", "../docx/SKILL.md")).toMatchObject({
      ok: false,
      code: "path-refused",
    });
    expect(await session.readFile("pdf", path.join(root, "skills", "docx", "SKILL.md"))).toMatchObject({
      ok: false,
      code: "path-refused",
    });
    expect(await session.readFile("pdf", "escape.md")).toMatchObject({ ok: false, code: "path-refused" });
    const binary = await session.readFile("pdf", "assets/logo.png");
    expect(binary).toMatchObject({ ok: true, kind: "binary" });
    if (binary.ok) expect(binary.content).toMatch(/mime_type="image\/png" size_bytes="16" binary="true"/);
  });

  it("reads a line range and says how to read on", async () => {
    const { catalog } = await setup();
    const session = createSkillSession({ catalog });
    const result = await session.readFile("pdf", "references/api.md", { startLine: 2, endLine: 3 });
    expect(result.ok && result.content).toBe(
      '<skill_file skill="pdf" path="references/api.md" lines="2-3" total_lines="5">\n\nline 2\n</skill_file>\nShowing lines 2-3 of 5. Call skill_read with start_line=4 to read on.\n',
    );
  });

  it("cuts a file over the budget to the lines that fit", async () => {
    const long = Array.from({ length: 400 }, (_, i) => `line ${i} with some words in it`).join("\n");
    const { catalog } = await setup([
      { name: "big", description: "Big file.", files: { "references/big.md": long } },
    ]);
    const session = createSkillSession({ catalog, skillBudget: 300 });
    const result = await session.readFile("big", "references/big.md");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.tokens).toBeLessThanOrEqual(300);
    expect(result.nextLine).toBeGreaterThan(10);
    expect(result.content).toContain(`start_line=${result.nextLine}`);
  });
});

describe("docs", () => {
  it("selects docs with add / replace / clear, reports unknown ones and keeps include-all until clear", async () => {
    const { catalog } = await setup();
    const session = createSkillSession({ catalog });
    expect(await session.selectDocs("pdf", ["references/forms.md"], "add")).toMatchObject({
      ok: false,
      code: "not-loaded",
    });
    await session.load("pdf", { docs: ["references/forms.md", "nope.md"] });
    expect(session.loadedSkill("pdf")?.docs).toEqual(["references/forms.md"]);
    const add = await session.selectDocs("pdf", ["notes.txt"], "add");
    expect(add).toMatchObject({ ok: true, docs: ["notes.txt", "references/forms.md"] });
    if (add.ok)
      expect(add.content).toBe('<skill_doc skill="pdf" path="notes.txt">\nplain notes\n</skill_doc>\n');
    expect(await session.selectDocs("pdf", ["references/api.md", "x.md"], "replace")).toMatchObject({
      docs: ["references/api.md"],
      unknownDocs: ["x.md"],
    });
    expect(await session.selectDocs("pdf", [], "replace", { includeAllDocs: true })).toMatchObject({
      includeAllDocs: true,
    });
    expect(await session.selectDocs("pdf", ["notes.txt"], "replace")).toMatchObject({
      includeAllDocs: true,
      docs: ["notes.txt", "references/api.md", "references/forms.md"],
    });
    expect(await session.selectDocs("pdf", [], "clear")).toMatchObject({ includeAllDocs: false, docs: [] });
    expect(await session.listDocs("pdf")).toEqual({
      ok: true,
      name: "pdf",
      docs: ["notes.txt", "references/api.md", "references/forms.md"],
    });
  });
});

describe("system placement", () => {
  it("renders loaded bodies and docs into the system prompt in a stable order", async () => {
    const { catalog, root } = await setup();
    const session = createSkillSession({ catalog, placement: "system", catalogFormat: "markdown" });
    await session.load("pdf", { docs: ["references/forms.md"] });
    await session.load("docx");
    const prompt = session.renderer.systemPrompt();
    expect(prompt).toContain("- [✓] **docx**: Create and edit");
    expect(prompt).toContain(
      `## Loaded Skill Instructions\n\n### Skill: docx\n\nSkill directory: ${path.join(root, "skills", "docx")}\n\n# docx\n\nDo the docx thing.\n\n### Skill: pdf\n\n`,
    );
    expect(prompt).toContain(
      "## Loaded Skill References\n\n### pdf - references/forms.md\n\n# Forms\n\nHow to fill forms.\n\n",
    );
    expect(session.unload("pdf")).toEqual({ ok: true, name: "pdf", loaded: ["docx"] });
    expect(session.renderer.systemPrompt()).not.toContain("Loaded Skill References");
  });
});

describe("budget", () => {
  it("evicts the least recently used skill above the threshold, emits budget-evict and tells the model", async () => {
    const body = (n: string) => `# ${n}\n\n${"Many words of instructions here. ".repeat(60)}`;
    const { catalog } = await setup(
      ["alpha", "beta", "gamma"].map((name) => ({
        name,
        description: `The ${name} skill.`,
        body: body(name),
      })),
    );
    const events: SessionEvent[] = [];
    const session = createSkillSession({
      catalog,
      contextWindow: 1_400,
      catalogBudget: 200,
      onEvent: (e) => events.push(e),
    });
    const evictions: string[][] = [];
    session.on("budget-evict", (e) => evictions.push(e.evicted));
    await session.load("alpha");
    await session.load("beta");
    await session.readFile("alpha", "SKILL.md", { startLine: 1, endLine: 2 });
    const third = await session.load("gamma");
    expect(third.ok).toBe(true);
    if (!third.ok) return;
    expect(third.evicted).toEqual(["skill:beta"]);
    expect(third.notice).toMatch(/these were removed, least recently used first: skill:beta/);
    expect(session.loadedSkills()).toEqual(["alpha", "gamma"]);
    expect(evictions).toEqual([["skill:beta"]]);
    expect(events.some((e) => e.type === "skill-unload" && e.name === "beta" && e.reason === "evict")).toBe(
      true,
    );
    expect(session.ledger().total).toBeLessThanOrEqual(session.ledger().threshold);
  });
});

describe("init", () => {
  it("loads active: true skills and the configured activeSkills once", async () => {
    const skills = standardSkills();
    skills.push({ name: "always", description: "Always on.", frontmatter: { active: "true" } });
    const { catalog } = await setup(skills);
    const session = await startSkillSession({ catalog, activeSkills: ["docx"] });
    expect(session.loadedSkills()).toEqual(["always", "docx"]);
    expect(await session.init()).toEqual([]);
  });
});

describe("catalog budget default", () => {
  it("is 1% of a given context window, and 2,000 tokens when the window is unknown", async () => {
    const { catalog } = await setup();
    const unknown = createSkillSession({ catalog });
    expect(unknown.ledger()).toMatchObject({
      catalogBudget: 2_000,
      contextWindow: 128_000,
      contextWindowKnown: false,
    });
    const known = createSkillSession({ catalog, contextWindow: 128_000 });
    expect(known.ledger()).toMatchObject({ catalogBudget: 1_280, contextWindowKnown: true });
    const large = createSkillSession({ catalog, contextWindow: 1_000_000 });
    expect(large.ledger()).toMatchObject({ catalogBudget: 10_000, contextWindowKnown: true });
    expect(createSkillSession({ catalog, catalogBudget: 300 }).ledger().catalogBudget).toBe(300);
  });

  it("keeps the rule after a restore", async () => {
    const { catalog } = await setup();
    const snapshot = createSkillSession({ catalog }).snapshot();
    expect((await restoreSkillSession(snapshot, { catalog })).ledger()).toMatchObject({
      catalogBudget: 2_000,
      contextWindowKnown: false,
    });
    expect((await restoreSkillSession(snapshot, { catalog, contextWindow: 400_000 })).ledger()).toMatchObject(
      {
        catalogBudget: 4_000,
        contextWindowKnown: true,
      },
    );
  });
});

describe("profile", () => {
  it("is fixed at creation: names in the preamble and messages, format, doc rule and load calls", async () => {
    tree = await makeSkillTree(standardSkills());
    const omni = createSkillSession({ catalog: tree.catalog, profile: "omni", runTool: false });
    expect(omni.profile.name).toBe("omni");
    expect(omni.profile.toolNames).toEqual({
      load: "load_skill",
      selectDocs: "load_skill_reference",
      unload: "unload_skill",
      search: "skill_search",
    });
    const prompt = omni.renderer.systemPrompt();
    expect(prompt).toContain("call load_skill with its name first");
    expect(prompt).not.toContain("skill_run");
    expect(prompt).toContain("[○]");
    expect(omni.history.loadCall("pdf")).toEqual({ toolName: "load_skill", input: { name: "pdf" } });
    const missing = await omni.selectDocs("pdf", [], "add");
    expect(missing.ok ? "" : missing.message).toBe(
      "Skill 'pdf' is not loaded. Call load_skill first (it accepts docs too).",
    );

    const ownFormat = createSkillSession({ catalog: tree.catalog, profile: "omni", catalogFormat: "list" });
    expect(ownFormat.renderer.systemPrompt()).not.toContain("[○]");
    expect(ownFormat.profile.toolNames.run).toBe("skill_run");
  });

  it("refuses an unknown profile name with the list of profiles", async () => {
    tree = await makeSkillTree(standardSkills());
    const catalog = tree.catalog;
    expect(() => createSkillSession({ catalog, profile: "openai" as "skillrt" })).toThrow(
      "Unknown profile 'openai'. Profiles: skillrt, claude, trpc, agentscope, omni, aworld.",
    );
  });
});

describe("catalog changes", () => {
  it("keeps the visible skills while the catalog is unchanged, and follows a re-scan that adds a skill", async () => {
    const { catalog, root } = await setup();
    const session = createSkillSession({ catalog });
    const before = session.visibleSkills();
    expect(session.visibleSkills()).toEqual(before);
    await fs.mkdir(path.join(root, "skills", "xlsx"));
    await fs.writeFile(
      path.join(root, "skills", "xlsx", "SKILL.md"),
      "---\nname: xlsx\ndescription: Edit spreadsheets.\n---\n\n# XLSX\n",
    );
    await catalog.refresh();
    expect(session.visibleSkills().map((r) => r.name)).toEqual([...before.map((r) => r.name), "xlsx"].sort());
    expect(session.renderer.systemPrompt()).toContain("- xlsx: Edit spreadsheets.");
  });
});
