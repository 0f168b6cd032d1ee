import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillNotFoundError } from "../errors/skill-not-found-error.js";
import { createCatalog } from "./create-catalog.js";
import { filterCatalog } from "./filter-catalog.js";
import type { CatalogChangeEvent } from "./types.js";

const examples = path.resolve(import.meta.dirname, "../../examples/skills");
let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillrt-filter-"));
  await cp(examples, root, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function addSkill(name: string, description: string): Promise<void> {
  await mkdir(path.join(root, name), { recursive: true });
  await writeFile(
    path.join(root, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`,
  );
}

describe("filterCatalog", () => {
  it("serves only the allowed names and globs, from the parent's records (no new scan)", async () => {
    const parent = await createCatalog({ roots: [root] });
    const child = filterCatalog(parent, ["csv-*", "json-query"]);
    expect(child.list().map((r) => r.name)).toEqual(["csv-summary", "json-query"]);
    // The very records of the parent: nothing was read to make the view.
    expect(child.get("csv-summary")).toBe(parent.get("csv-summary"));
    expect(child.get("markdown-toc")).toBeUndefined();
    expect(parent.get("markdown-toc")).toBeDefined();

    // A skill added on disk later is not seen until someone re-scans: the view scanned nothing.
    await addSkill("csv-extra", "Extra CSV helper.");
    expect(child.list().map((r) => r.name)).toEqual(["csv-summary", "json-query"]);
    await child.refresh(); // re-scans the parent
    expect(child.list().map((r) => r.name)).toEqual(["csv-extra", "csv-summary", "json-query"]);
    expect(parent.get("csv-extra")).toBe(child.get("csv-extra"));
  });

  it("refuses names outside the allowlist like unknown names, pointing at allowed ones", async () => {
    const parent = await createCatalog({ roots: [root] });
    const child = filterCatalog(parent, ["csv-summary"]);
    expect((await child.load("csv-summary")).body).toContain("Run the bundled script");
    await expect(child.load("markdown-toc")).rejects.toBeInstanceOf(SkillNotFoundError);
    await expect(child.files("markdown-toc")).rejects.toThrow(/Skill 'markdown-toc' not found/);
    expect(await child.readFile("markdown-toc", "SKILL.md")).toMatchObject({ kind: "unknown-skill" });
    expect((await child.files("csv-summary"))[0]?.path).toBe("SKILL.md");
    expect(child.closest("csv-sumary")).toEqual(["csv-summary"]);
  });

  it("searches within the allowlist, widening the parent's top-k until enough allowed hits are found", async () => {
    for (let i = 0; i < 30; i++)
      await addSkill(`table-${String(i).padStart(2, "0")}`, "Summarise table columns and rows.");
    await addSkill("zz-table-report", "Summarise table columns and rows into a report.");
    const parent = await createCatalog({ roots: [root] });
    const child = filterCatalog(parent, ["zz-*", "csv-summary"]);
    const hits = (await child.search("summarise table columns", 2)).map((h) => h.record.name);
    expect(hits).toContain("zz-table-report");
    expect(hits.every((name) => name === "zz-table-report" || name === "csv-summary")).toBe(true);
    expect(await child.search("summarise", 0)).toEqual([]);
  });

  it("watch reports the parent's changes to allowed skills only", async () => {
    const parent = await createCatalog({ roots: [root], watchDebounceMs: 20 });
    const child = filterCatalog(parent, ["new-*"]);
    const events: CatalogChangeEvent[] = [];
    const stop = child.watch((event) => events.push(event));
    try {
      await addSkill("other-skill", "Not allowed.");
      await addSkill("new-skill", "Allowed.");
      for (let i = 0; i < 100 && !events.some((e) => e.added.includes("new-skill")); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(events.flatMap((e) => e.added)).toEqual(["new-skill"]);
    } finally {
      stop();
    }
  });
});
