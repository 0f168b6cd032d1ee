import { describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { toPrompt } from "../spec/to-prompt.js";
import { createMemoryStore } from "../store/create-memory-store.js";
import { syntheticSkills } from "./__fixtures__/synthetic-skills.js";
import { createSkillSession } from "./create-skill-session.js";
import { renderRequestSkills } from "./render-catalog.js";
import { loadSession, saveSession } from "./save-session.js";
import { createTokenCounter } from "./token-counter.js";

const counter = createTokenCounter();

describe("catalog budget", () => {
  it("with 10,000 skills and a 2,000-token budget: fits, names what was left out, offers skill_search, and search finds a skill first", async () => {
    const catalog = await createCatalog({ roots: [], memory: syntheticSkills(10_000) });
    const session = createSkillSession({ catalog, catalogBudget: 2_000 });
    const prompt = session.renderer.systemPrompt();
    expect(counter.count(prompt)).toBeLessThanOrEqual(2_000);
    const stats = session.renderer.catalogStats();
    expect(stats.visible).toBe(10_000);
    expect(stats.omitted).toBeGreaterThan(9_000);
    expect(stats.listed + stats.omitted).toBe(10_000);
    expect(prompt).toContain(
      `${stats.omitted.toLocaleString("en-US")} skills are not listed. Call skill_search with a few keywords`,
    );
    expect(stats.searchOffered).toBe(true);
    expect((await session.search("project zeta7421 records", 5))[0]?.name).toBe("skill-07421");
  });

  it("shortens the least recently used descriptions first, then drops descriptions, and says so", async () => {
    const catalog = await createCatalog({ roots: [], memory: syntheticSkills(12) });
    const session = createSkillSession({ catalog, catalogBudget: 420, preamble: "" });
    await session.load("skill-00003");
    session.renderer.refreshCatalog();
    const shortened = session.renderer.systemPrompt();
    expect(session.renderer.catalogStats()).toMatchObject({ listed: 12, omitted: 0 });
    expect(session.renderer.catalogStats().shortened).toBeGreaterThan(0);
    // The recently used skill keeps its full description; never-used ones are shortened to their first sentence.
    expect(shortened).toContain(
      "- skill-00003: Helps render and parse records for project zeta3. Use when the user asks to render data, including",
    );
    expect(shortened).toContain("- skill-00000: Helps parse and render records for project zeta0.\n");
    expect(shortened).toMatch(/descriptions were shortened/);
    expect(counter.count(shortened)).toBeLessThanOrEqual(420);

    const tight = createSkillSession({ catalog, catalogBudget: 200, preamble: "" });
    const bare = tight.renderer.systemPrompt();
    expect(tight.renderer.catalogStats().bare).toBeGreaterThan(0);
    expect(tight.renderer.catalogStats().omitted).toBe(0);
    expect(bare).toMatch(/are listed by name only/);
    expect(counter.count(bare)).toBeLessThanOrEqual(200);
  });

  it("names only: lists real skills before invalid and template names, which sort first by name", async () => {
    const junk = ["-broken", "0-template", "Bad_Name", "example-skill", "my-skill", "skill-template"];
    const real = ["alpha-pdf", "beta-docx", "gamma-xlsx"];
    const catalog = await createCatalog({
      roots: [],
      memory: [...junk, ...real].map((name) => ({
        name,
        description: `Does ${name} things for a long time with many words in its description to take tokens.`,
        body: "b",
      })),
    });
    const session = createSkillSession({ catalog, catalogBudget: 90, preamble: "" });
    const prompt = session.renderer.systemPrompt();
    const stats = session.renderer.catalogStats();
    expect(stats.omitted).toBeGreaterThan(0);
    expect(stats.listed).toBeGreaterThanOrEqual(real.length);
    const listed = [...prompt.matchAll(/^- ([^\s:]+)/gm)].map((m) => m[1]);
    expect(listed.slice(0, real.length)).toEqual(real);
  });

  it("renders the agentskills format byte for byte like skills-ref to-prompt", async () => {
    const catalog = await createCatalog({
      roots: [],
      memory: [{ name: "a-b", description: `Quotes " and ' & <x>\nsecond line`, body: "b" }],
    });
    const session = createSkillSession({ catalog, catalogFormat: "agentskills", preamble: "" });
    const entries = catalog
      .list()
      .map((r) => ({ name: r.name, description: r.description, location: r.location }));
    expect(session.renderer.systemPrompt()).toBe(`${toPrompt(entries)}\n`);
  });
});

describe("persistence", () => {
  it("saves to a store and restores the same loaded state, docs, args and rendering", async () => {
    const catalog = await createCatalog({
      roots: [],
      memory: [
        {
          name: "one",
          description: "First.",
          body: "One $ARGUMENTS",
          resources: { "references/r.md": "ref text" },
        },
        { name: "two", description: "Second.", body: "Two" },
      ],
    });
    const store = createMemoryStore();
    const session = createSkillSession({ catalog, id: "conv-1", namespace: "agent-a", placement: "system" });
    await session.load("one", { args: "hello", docs: ["references/r.md"] });
    await session.load("two");
    session.unload("two");
    expect(await saveSession(store, session)).toBe(1);
    const loaded = await loadSession(store, "conv-1", { catalog, namespace: "agent-a" });
    expect(loaded?.version).toBe(1);
    expect(loaded?.session.namespace).toBe("agent-a");
    expect(loaded?.session.loadedSkill("one")).toMatchObject({ args: "hello", docs: ["references/r.md"] });
    expect(loaded?.session.renderer.systemPrompt()).toBe(session.renderer.systemPrompt());
    expect(await loadSession(store, "conv-1", { catalog })).toBeUndefined();
    await expect(loadSession(createMemoryStore(), "x", { catalog })).resolves.toBeUndefined();
    await store.put("bad", { version: 2, id: "bad" });
    await expect(loadSession(store, "bad", { catalog })).rejects.toThrow(
      /Invalid session snapshot at version/,
    );
  });
});

describe("renderRequestSkills: the per-request part of the catalog", () => {
  const extra = [
    {
      name: "zz-pdf-merger",
      description:
        "Merge, split and extract tables from PDF files. Use for combining reports into one document.",
      body: "b",
    },
    {
      name: "zz-slide-maker",
      description: "Builds slide decks and PowerPoint presentations from notes and outlines.",
      body: "b",
    },
  ];
  const open = async (placement: "history" | "system" = "history") => {
    const catalog = await createCatalog({ roots: [], memory: [...syntheticSkills(2_000), ...extra] });
    return createSkillSession({ catalog, catalogBudget: 1_000, placement });
  };

  it("lists the best matches with full descriptions while the system prompt stays byte-identical across requests", async () => {
    const session = await open();
    const before = session.renderer.systemPrompt();
    // Alphabetical names fill the budget: the matching skills are not in the system prompt at all.
    expect(before).not.toContain("zz-pdf-merger");
    const first = await renderRequestSkills(session, "combine these quarterly reports into one pdf");
    expect(first.skills[0]).toBe("zz-pdf-merger");
    expect(first.text).toContain(`- zz-pdf-merger: ${extra[0]!.description}\n`);
    expect(first.text).toMatch(
      /^Skills that best match this request \(the catalog above does not show all 2,002/,
    );
    expect(first.text).toMatch(
      /Load one with skill_load before following it; skill_search finds others\.\n$/,
    );
    // The model loads a skill during the first request (history placement: its body is a tool result).
    expect((await session.load("zz-pdf-merger")).ok).toBe(true);
    const second = await renderRequestSkills(session, "turn my meeting notes into a deck of slides");
    expect(second.skills[0]).toBe("zz-slide-maker");
    expect(second.skills).not.toContain("zz-pdf-merger");
    expect(session.renderer.systemPrompt()).toBe(before);
  });

  it("stays within its budget (shortening, then naming) and adds nothing when the catalog fits or nothing matches", async () => {
    const session = await open();
    const tight = await renderRequestSkills(session, "reports pdf slides deck records", {
      budget: 90,
      limit: 5,
    });
    expect(tight.skills.length).toBeGreaterThan(0);
    expect(counter.count(tight.text)).toBeLessThanOrEqual(90);
    expect(await renderRequestSkills(session, "qwertyuiop")).toEqual({ text: "", skills: [] });
    const small = await createCatalog({ roots: [], memory: extra });
    const fits = createSkillSession({ catalog: small });
    expect(await renderRequestSkills(fits, "merge pdf")).toEqual({ text: "", skills: [] });
    const always = await renderRequestSkills(fits, "merge pdf", { always: true });
    expect(always.skills).toEqual(["zz-pdf-merger"]);
    expect(always.text.startsWith("Skills that best match this request:\n")).toBe(true);
  });

  it("counts a line once: the same skills listed again cost no tokenizer call", async () => {
    const catalog = await createCatalog({ roots: [], memory: [...syntheticSkills(2_000), ...extra] });
    const counted: string[] = [];
    const counting = {
      name: counter.name,
      count: (text: string) => {
        counted.push(text);
        return counter.count(text);
      },
    };
    const session = createSkillSession({ catalog, catalogBudget: 1_000, tokenCounter: counting });
    session.renderer.systemPrompt();
    counted.length = 0;
    const first = await renderRequestSkills(session, "combine these quarterly reports into one pdf");
    expect(first.skills.length).toBeGreaterThan(1);
    // Header, footer and each listed line, once each (a line that fits is not counted twice).
    expect(counted.length).toBe(new Set(counted).size);
    expect(counted.length).toBe(first.skills.length + 2);
    counted.length = 0;
    const again = await renderRequestSkills(session, "combine these quarterly reports into one pdf");
    expect(again).toEqual(first);
    expect(counted).toEqual([]);
  });
});
