import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSkills } from "./__fixtures__/generate-skills.js";
import { createCatalog } from "./create-catalog.js";
import { defineSkill } from "./memory-source.js";
import { fieldTexts } from "./search-field-texts.js";
import { SearchIndex } from "./search-index.js";
import { loadSearchIndex, serializeSearchIndex } from "./search-index-data.js";
import { buildLayout, buildLayoutAsync } from "./search-layout.js";
import { agentForms, tokenize } from "./tokenize.js";
import type { Catalog, SkillRecord } from "./types.js";

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
  it("finds a skill first from a query built from its description, among 1,000 skills", async () => {
    const records = catalog.list();
    expect(records).toHaveLength(1000);
    const misses: string[] = [];
    for (const record of records) {
      const query = record.description;
      if ((await catalog.search(query, 1))[0]?.record.name !== record.name) misses.push(record.name);
    }
    expect(misses).toEqual([]);
  });

  it("ranks by name first, returns scores best first with a deterministic tie-break, and honours limit", async () => {
    const hits = await catalog.search("pdf tools", 5);
    expect(hits).toHaveLength(5);
    expect(hits.every((h) => h.record.name.startsWith("pdf-tools"))).toBe(true);
    for (let i = 1; i < hits.length; i++) {
      const [a, b] = [hits[i - 1]!, hits[i]!];
      expect(a.score > b.score || (a.score === b.score && a.record.name < b.record.name)).toBe(true);
    }
    const exact = catalog.list()[3]!.name;
    expect((await catalog.search(exact, 3))[0]?.record.name).toBe(exact);
    expect(await catalog.search("", 5)).toEqual([]);
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
    expect((await small.search("invoice"))[0]?.record.name).toBe("beta");
    expect((await small.search("kube"))[0]?.record.name).toBe("alpha");
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
    expect((await small.search("turn my notes into a deck for the all-hands"))[0]?.record.name).toBe("pptx");
    expect((await small.search("update my CV for this posting"))[0]?.record.name).toBe("tailored-resume");
  });

  it("weighs the query's adjacent word pairs found adjacent in a skill's text", async () => {
    const two = [
      skill("models", "Random forest models, with cross validation of every fit."),
      skill("picker", "Random cross picks, forest validation."),
    ];
    const catalog = await createCatalog({ roots: [], memory: two });
    const hits = await catalog.search("train a random forest and do cross validation", 2);
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
    expect((await catalog.search("the reviewer left comments on my pull request", 1))[0]?.record.name).toBe(
      "answer-review",
    );
    expect((await catalog.search("build an MCP server", 1))[0]?.record.name).toBe("server-builder");
  });

  it("ignores conversational filler: 'can you help me' matches nothing by itself", async () => {
    const small = await records();
    expect(await small.search("can you please help me with this")).toEqual([]);
  });
});

describe("top-k evaluation", () => {
  let tmp2k: string;
  let records2k: SkillRecord[];
  beforeAll(async () => {
    tmp2k = await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-search-2k-"));
    await generateSkills(`${tmp2k}/skills`, 2000, 7);
    records2k = [...(await createCatalog({ roots: [`${tmp2k}/skills`] })).list()];
  });
  afterAll(async () => {
    await fs.rm(tmp2k, { recursive: true, force: true });
  });

  /** Queries of every kind: description windows, names, prefixes, synonyms, random word mixes. */
  const queries = (records: readonly SkillRecord[], count: number): string[] => {
    let seed = 12345;
    const random = (below: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % below;
    };
    const words = records.flatMap((r) => r.description.split(/\s+/)).filter((w) => w.length > 0);
    const out = [
      "pdf form",
      "fill out a pdf form",
      "review my pull request",
      "kube deploy",
      "write unit tests for the parser",
      "turn my notes into a deck",
      "update my CV",
      "the reviewer left comments",
      "build an MCP server",
      "look over my pull request",
      "speed up the sql query",
      records[0]!.name,
      records[17]!.name.toUpperCase(),
      `${records[3]!.name} ${records[4]!.name}`,
    ];
    while (out.length < count) {
      const kind = random(4);
      if (kind === 0) {
        const text = records[random(records.length)]!.description.split(/\s+/);
        const from = random(text.length);
        out.push(text.slice(from, from + 1 + random(7)).join(" "));
      } else if (kind === 1) {
        out.push(Array.from({ length: 1 + random(5) }, () => words[random(words.length)]!).join(" "));
      } else if (kind === 2) {
        out.push(words[random(words.length)]!.slice(0, 3 + random(3)));
      } else out.push(records[random(records.length)]!.name.replaceAll("-", " "));
    }
    return out;
  };

  /**
   * Whether the best `limit` are the first `limit` of the best 10: the same skills, the same scores (below
   * 20 every limit re-ranks the same best 20 by phrase).
   */
  const same = (index: SearchIndex, query: string, limit: number) => {
    const top = index.search(query, limit);
    const page = index.search(query, 10).slice(0, limit);
    return {
      query,
      limit,
      same:
        top.length === page.length &&
        top.every((hit, i) => hit.record === page[i]!.record && hit.score === page[i]!.score),
    };
  };

  it("keeps the best k exactly: the top 5 and the top 1 are the top 10's first, same scores, over 2,000 skills and 600 queries", () => {
    const index = new SearchIndex(records2k);
    const all = queries(records2k, 600);
    const results = all.flatMap((query) => [same(index, query, 5), same(index, query, 1)]);
    expect(results.filter((r) => !r.same)).toEqual([]);
    // The queries are not degenerate: most rank a full page.
    const full = all.filter((query) => index.search(query, 20).length === 20);
    expect(full.length).toBeGreaterThan(400);
    expect(index.search(records2k[0]!.name, 1)[0]?.record).toBe(records2k[0]);
  });

  it("builds the same index in slices that let the event loop run, and a catalog's searches share one build", async () => {
    const all = queries(records2k, 60);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const layout = await buildLayoutAsync(records2k, fieldTexts, 0);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
    expect(layout).toEqual(buildLayout(records2k, fieldTexts));
    const built = await SearchIndex.build(records2k);
    const reference = new SearchIndex(records2k);
    for (const query of all) expect(built.search(query, 10)).toEqual(reference.search(query, 10));
    const catalog = await createCatalog({ roots: [`${tmp2k}/skills`] });
    const [a, b] = await Promise.all([catalog.search(all[0]!, 5), catalog.search(all[1]!, 5)]);
    expect(a.map((h) => h.record.name)).toEqual(reference.search(all[0]!, 5).map((h) => h.record.name));
    expect(b.map((h) => h.record.name)).toEqual(reference.search(all[1]!, 5).map((h) => h.record.name));
  });

  it("stays exact under other weights, and an index stored under the defaults ranks as one built under other weights", () => {
    const all = queries(records2k, 100);
    const weights = [
      { phrase: 0 },
      { coverage: 3, synonym: 1, agent: 1, prefix: 1 },
      { name: 0, headings: 2, bName: 1, k1: 0.3 },
    ];
    for (const w of weights) {
      const index = new SearchIndex(records2k, w);
      expect(all.map((query) => same(index, query, 5)).filter((r) => !r.same)).toEqual([]);
    }
    const stored = serializeSearchIndex(new SearchIndex(records2k));
    const reweighted = loadSearchIndex(stored, records2k, weights[2]);
    expect(reweighted).toBeDefined();
    const built = new SearchIndex(records2k, weights[2]);
    for (const query of all.slice(0, 30))
      expect(reweighted!.search(query, 20)).toEqual(built.search(query, 20));
  });
});

describe("serializeSearchIndex / loadSearchIndex", () => {
  it("round-trips through a structured clone and ranks exactly as the built index", () => {
    const records = catalog.list();
    const built = new SearchIndex(records);
    const data = structuredClone(serializeSearchIndex(built));
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
    expect(loadSearchIndex({ ...data, version: 3 }, records)).toBeUndefined();
    // The format before the pruning bounds were dropped: an old cache is rebuilt, not misread.
    expect(loadSearchIndex({ ...data, version: 4 }, records)).toBeUndefined();
    expect(loadSearchIndex("not an index", records)).toBeUndefined();
    const docs = (edit: (docs: Int32Array) => void) => {
      const copy = Int32Array.from(data.docs);
      edit(copy);
      return loadSearchIndex({ ...data, docs: copy }, records);
    };
    expect(docs(() => undefined)).toBeDefined();
    expect(docs((d) => (d[0] = records.length + 5))).toBeUndefined();
    // Out of order within a term: the phrase re-rank bisects a term's documents, which must ascend.
    const term = data.terms.findIndex((_, t) => data.offsets[t + 1]! - data.offsets[t]! > 2);
    const at = data.offsets[term]!;
    expect(docs((d) => d.set([d[at + 1]!, d[at]!], at))).toBeUndefined();
    expect(loadSearchIndex({ ...data, counts: Int32Array.from(data.counts) }, records)).toBeUndefined();
  });
});
