import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { createCatalogViewer, firstSkills } from "./build-catalog-view.js";

const examples = path.resolve(import.meta.dirname, "../../examples/skills");
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-catalog-view-"));
  await cp(examples, dir, { recursive: true });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("createCatalogViewer", () => {
  it("builds a view once per state of the catalog, and again when a skill changes", async () => {
    const catalog = await createCatalog({ roots: [dir] });
    const viewer = createCatalogViewer({ catalog, catalogBudget: 10_000 });
    const [a, b] = await Promise.all([viewer.view(), viewer.view()]);
    expect(b).toBe(a);
    expect(await viewer.view()).toBe(a);
    expect(a.counts.full).toBe(4);

    const skillMd = path.join(dir, "csv-summary", "SKILL.md");
    await writeFile(skillMd, "---\nname: csv-summary\ndescription: Changed description.\n---\nNew body.\n");
    await catalog.refresh();
    const c = await viewer.view();
    expect(c).not.toBe(a);
    expect(c.skills.find((s) => s.name === "csv-summary")?.description).toBe("Changed description.");
  });

  it("firstSkills keeps the counts and total of every skill", async () => {
    const viewer = createCatalogViewer({ catalog: await createCatalog({ roots: [dir] }) });
    const view = await viewer.view();
    const cut = firstSkills(view, 2);
    expect(cut.skills).toEqual(view.skills.slice(0, 2));
    expect(cut.total).toBe(4);
    expect(cut.counts).toEqual(view.counts);
    expect(firstSkills(view, 10)).toBe(view);
  });
});
