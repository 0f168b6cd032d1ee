import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSkills } from "./__fixtures__/generate-skills.js";
import { createCatalog } from "./create-catalog.js";
import { defineSkill } from "./memory-source.js";
import { tokenize } from "./tokenize.js";
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
