import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTarGz, skillMd } from "../catalog/remote/__fixtures__/make-archives.js";
import { openCatalog } from "./open-skills.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-open-skills-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("openCatalog", () => {
  it("takes archives among `skills`, reporting one that cannot be had in diagnostics()", async () => {
    await writeFile(
      path.join(dir, "pack.tgz"),
      makeTarGz([{ name: "p/SKILL.md", data: skillMd("packed", "In a tgz") }]),
    );
    const catalog = await openCatalog({
      skills: ["pack.tgz", "gone.zip"],
      cwd: dir,
      env: { SKILLRT_CACHE_DIR: path.join(dir, "cache") },
    });
    expect(catalog.list().map((r) => r.name)).toEqual(["packed"]);
    expect((await catalog.load("packed")).body).toContain("In a tgz");
    expect(catalog.diagnostics()).toMatchObject([
      { code: "path-not-found", severity: "error", path: "gone.zip" },
    ]);
    expect(catalog.diagnostics()[0]?.message).toContain(path.join(dir, "gone.zip"));
  });
});
