import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createCatalog } from "./create-catalog.js";
import type { CatalogChangeEvent } from "./types.js";

let tmp: string;

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-watch-")));
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

/** Polls until `check` passes or one second has gone by (then the last failure is thrown). */
async function eventually(check: () => void): Promise<void> {
  const deadline = Date.now() + 1000;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

it("follows create, edit, break, rename and delete of skills under a watched root", async () => {
  const root = `${tmp}/skills`;
  await fs.mkdir(`${root}/stable`, { recursive: true });
  await fs.writeFile(`${root}/stable/SKILL.md`, "---\nname: stable\ndescription: Stays.\n---\nbody\n");
  const catalog = await createCatalog({ roots: [root] });
  const events: CatalogChangeEvent[] = [];
  const stop = catalog.watch((event) => events.push(event));
  const stableRecord = catalog.get("stable");
  try {
    // create
    await fs.mkdir(`${root}/fresh`);
    await fs.writeFile(
      `${root}/fresh/SKILL.md`,
      "---\nname: fresh\ndescription: First version.\n---\nbody\n",
    );
    await eventually(() => expect(catalog.get("fresh")?.description).toBe("First version."));
    expect(events.some((e) => e.added.includes("fresh"))).toBe(true);

    // edit
    await fs.writeFile(
      `${root}/fresh/SKILL.md`,
      "---\nname: fresh\ndescription: Second version, longer.\n---\nbody\n",
    );
    await eventually(() => expect(catalog.get("fresh")?.description).toBe("Second version, longer."));
    expect(events.some((e) => e.changed.includes("fresh"))).toBe(true);

    // edit the body only: the record is the same, but whoever holds the body must hear of it
    events.length = 0;
    await fs.writeFile(
      `${root}/fresh/SKILL.md`,
      "---\nname: fresh\ndescription: Second version, longer.\n---\nA new body, with more steps.\n",
    );
    await eventually(() => expect(events.some((e) => e.changed.includes("fresh"))).toBe(true));
    expect((await catalog.load("fresh")).body).toBe("A new body, with more steps.");

    // break: the skill leaves the list (the old good version is not kept) and its diagnostic appears
    await fs.writeFile(`${root}/fresh/SKILL.md`, "---\nname: fresh\n---\n");
    await eventually(() => {
      expect(catalog.get("fresh")).toBeUndefined();
      expect(catalog.diagnostics().map((d) => d.code)).toContain("description-missing");
    });
    expect(events.some((e) => e.removed.includes("fresh") && e.diagnostics.length > 0)).toBe(true);

    // fix, then rename the folder (and the name)
    await fs.writeFile(`${root}/fresh/SKILL.md`, "---\nname: renamed\ndescription: Fixed.\n---\nbody\n");
    await fs.rename(`${root}/fresh`, `${root}/renamed`);
    await eventually(() => {
      expect(catalog.get("renamed")?.location).toBe(`${root}/renamed/SKILL.md`);
      expect(catalog.diagnostics()).toEqual([]);
    });

    // delete
    await fs.rm(`${root}/renamed`, { recursive: true });
    await eventually(() => expect(catalog.list().map((r) => r.name)).toEqual(["stable"]));
    // untouched skills keep their record object (their SKILL.md was not read again)
    expect(catalog.get("stable")).toBe(stableRecord);
  } finally {
    stop();
  }
});

it("notices a root that is created after watching started", async () => {
  const root = `${tmp}/later/skills`;
  const catalog = await createCatalog({ roots: [{ path: root, scope: "project", optional: true }] });
  const stop = catalog.watch(() => {});
  try {
    await fs.mkdir(`${tmp}/later`);
    await eventually(() => expect(catalog.diagnostics()).toEqual([]));
    await fs.mkdir(root);
    await fs.mkdir(`${root}/late`);
    await fs.writeFile(`${root}/late/SKILL.md`, "---\nname: late\ndescription: Came late.\n---\nbody\n");
    await eventually(() => expect(catalog.get("late")?.description).toBe("Came late."));
  } finally {
    stop();
  }
});

it("polls instead of watching past maxWatches, says so once, and still sees changes", async () => {
  const root = `${tmp}/skills`;
  for (const name of ["one", "two", "three"]) {
    await fs.mkdir(`${root}/${name}`, { recursive: true });
    await fs.writeFile(`${root}/${name}/SKILL.md`, `---\nname: ${name}\ndescription: Skill ${name}.\n---\n`);
  }
  const catalog = await createCatalog({ roots: [root], maxWatches: 2, watchPollMs: 50 });
  const events: CatalogChangeEvent[] = [];
  const stop = catalog.watch((event) => events.push(event));
  const stopToo = catalog.watch(() => undefined);
  try {
    await fs.writeFile(`${root}/two/SKILL.md`, "---\nname: two\ndescription: Edited while polled.\n---\n");
    await eventually(() => expect(catalog.get("two")?.description).toBe("Edited while polled."));
    expect(events.some((e) => e.changed.includes("two"))).toBe(true);
    const polling = catalog.diagnostics().filter((d) => d.code === "watch-polling");
    expect(polling).toHaveLength(1);
    expect(polling[0]?.message).toContain("more than 2 watches");
  } finally {
    stop();
    stopToo();
  }
});
