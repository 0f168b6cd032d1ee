import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSkills } from "./__fixtures__/generate-skills.js";
import { createCatalog } from "./create-catalog.js";
import { defineSkill } from "./memory-source.js";
import { SearchIndex } from "./search-index.js";
import { loadSearchIndex, serializeSearchIndex } from "./search-index-data.js";
import { agentForms, tokenize } from "./tokenize.js";
import type { Catalog } from "./types.js";

let tmp: string;
let catalog: Catalog;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-search-"));
  await generateSkills(`${tmp}/skills`, 1000);
  catalog = await createCatalog({ roots: [`${tmp}/skills`] });
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe("tokenize", () => {
  it("splits kebab-case, snake_case and camelCase, lowercases and drops function words", () => {
    expect(tokenize("pdf-tools parsePDFForms snake_case The API")).toEqual([
      "pdf",
      "tool",
      "pars",
      "pdf",
      "form",
      "snak",
      "case",
      "api",
    ]);
  });
});

describe("agentForms", () => {
  it("spells the agent nouns of a stem and the stem of an agent noun", () => {
    expect(agentForms("build")).toEqual(["builder", "buildor"]);
    expect(agentForms("debug")).toEqual(["debuger", "debugor", "debugger"]);
    expect(agentForms("reviewer")).toEqual(["review"]);
    expect(agentForms("debugger")).toEqual(["debugg", "debug"]);
    expect(agentForms("generator")).toEqual(["generat"]);
    expect(agentForms("v2")).toEqual([]);
  });
});

describe("search", () => {
  it("finds a skill first from a query built from its description, among 1,000 skills", () => {
    const records = catalog.list();
    expect(records).toHaveLength(1000);
    const misses: string[] = [];
    for (const record of records) {
      const query = record.description;
      if (catalog.search(query, 1)[0]?.record.name !== record.name) misses.push(record.name);
    }
    expect(misses).toEqual([]);
  });

  it("ranks by name first, returns scores best first with a deterministic tie-break, and honours limit", () => {
    const hits = catalog.search("pdf tools", 5);
    expect(hits).toHaveLength(5);
    expect(hits.every((h) => h.record.name.startsWith("pdf-tools"))).toBe(true);
    for (let i = 1; i < hits.length; i++) {
      const [a, b] = [hits[i - 1]!, hits[i]!];
      expect(a.score > b.score || (a.score === b.score && a.record.name < b.record.name)).toBe(true);
    }
    const exact = catalog.list()[3]!.name;
    expect(catalog.search(exact, 3)[0]?.record.name).toBe(exact);
    expect(catalog.search("", 5)).toEqual([]);
  });

  it("searches extras such as when_to_use and tags, and matches prefixes", async () => {
    const small = await createCatalog({
      roots: [],
      memory: [
        defineSkill({
          name: "alpha",
          description: "Does things.",
          body: "b",
          extras: { tags: ["kubernetes", "deploy"] },
        }),
        defineSkill({
          name: "beta",
          description: "Does other things.",
          body: "b",
          extras: { when_to_use: "invoices arrive" },
        }),
      ],
    });
    expect(small.search("invoice")[0]?.record.name).toBe("beta");
    expect(small.search("kube")[0]?.record.name).toBe("alpha");
  });
});

describe("ranking", () => {
  const skill = (name: string, description: string) => defineSkill({ name, description, body: "b" });
  const records = () =>
    createCatalog({
      roots: [],
      memory: [
        skill("pptx", "Create and edit PowerPoint presentations: layouts, speaker notes, charts."),
        skill("xlsx", "Spreadsheet creation and analysis with formulas and formatting."),
        skill("mentor", "Helps junior developers learn by asking questions."),
        skill("tailored-resume", "Tailors a resume to a job description."),
      ],
    });

  it("finds the skill for everyday words through synonyms (deck → presentation, CV → resume)", async () => {
    const small = await records();
    expect(small.search("turn my notes into a deck for the all-hands")[0]?.record.name).toBe("pptx");
    expect(small.search("update my CV for this posting")[0]?.record.name).toBe("tailored-resume");
  });

  it("weighs the query's adjacent word pairs found adjacent in a skill's text", async () => {
    const two = [
      skill("models", "Random forest models, with cross validation of every fit."),
      skill("picker", "Random cross picks, forest validation."),
    ];
    const catalog = await createCatalog({ roots: [], memory: two });
    const hits = catalog.search("train a random forest and do cross validation", 2);
    expect(hits.map((h) => h.record.name)).toEqual(["models", "picker"]);
    // Without the pairs, "picker" scores higher on the same words.
    const ratio = (weights: { phrase?: number }) => {
      const hits = new SearchIndex(catalog.list(), weights).search("random forest cross validation", 2);
      const score = (name: string) => hits.find((h) => h.record.name === name)!.score;
      return score("models") / score("picker");
    };
    expect(ratio({ phrase: 0 })).toBeLessThan(1);
    expect(ratio({})).toBeGreaterThan(1);
  });

  it("relates agent nouns to their verbs: reviewer → review, build → builder", async () => {
    const catalog = await createCatalog({
      roots: [],
      memory: [
        skill("answer-review", "Respond to review comments on your pull request."),
        skill("comment-style", "House style for code comments and pull request titles."),
        skill("server-builder", "Scaffolds an MCP server."),
        skill("server-docs", "Documents an MCP server."),
      ],
    });
    expect(catalog.search("the reviewer left comments on my pull request", 1)[0]?.record.name).toBe(
      "answer-review",
    );
    expect(catalog.search("build an MCP server", 1)[0]?.record.name).toBe("server-builder");
  });

  it("ignores conversational filler: 'can you help me' matches nothing by itself", async () => {
    const small = await records();
    expect(small.search("can you please help me with this")).toEqual([]);
  });
});

describe("serializeSearchIndex / loadSearchIndex", () => {
  it("round-trips through JSON and ranks exactly as the built index", () => {
    const records = catalog.list();
    const built = new SearchIndex(records);
    const data = JSON.parse(JSON.stringify(serializeSearchIndex(built)));
    const loaded = loadSearchIndex(data, records);
    expect(loaded).toBeDefined();
    for (const query of ["pdf tools", "kube", records[42]!.description, "deploy the docs site"]) {
      expect(loaded!.search(query, 10)).toEqual(built.search(query, 10));
    }
  });

  it("returns undefined for data of other records, another format or a broken posting", () => {
    const records = catalog.list();
    const data = serializeSearchIndex(new SearchIndex(records));
    expect(loadSearchIndex(data, records.slice(1))).toBeUndefined();
    expect(loadSearchIndex(data, [...records].reverse())).toBeUndefined();
    expect(loadSearchIndex({ ...data, version: 1 }, records)).toBeUndefined();
    expect(loadSearchIndex("not an index", records)).toBeUndefined();
    const broken = {
      ...data,
      postings: data.postings.map((list, i) => (i === 0 ? [records.length + 5, 1, 0, 0, 0, 0] : list)),
    };
    expect(loadSearchIndex(broken, records)).toBeUndefined();
  });
});
