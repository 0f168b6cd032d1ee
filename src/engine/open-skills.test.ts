import { access, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTarGz, skillMd } from "../catalog/remote/__fixtures__/make-archives.js";
import { createWorkspace } from "../exec/create-workspace.js";
import { createLocalExecutor } from "../exec/local-executor.js";
import { openCatalog, openSkillRun, runSettingsWith } from "./open-skills.js";

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

describe("run settings", () => {
  it("split flat settings of earlier versions into environment and policy; default host folders only when none are named", () => {
    const flat = {
      skillEnv: { pdf: { TOKEN: "t" } },
      policy: { deny: ["curl"] },
      requireLoaded: true,
      defaultTimeoutSeconds: 30,
    };
    expect(runSettingsWith(flat, [dir])).toEqual({
      environment: { hostDirs: [dir], skillEnv: { pdf: { TOKEN: "t" } } },
      policy: { deny: ["curl"], requireLoaded: true, defaultTimeoutSeconds: 30 },
    });
    expect(runSettingsWith({ environment: { hostDirs: [] }, policy: { allow: ["echo"] } }, [dir])).toEqual({
      environment: { hostDirs: [] },
      policy: { allow: ["echo"] },
    });
    expect(runSettingsWith(undefined, [dir])).toEqual({ environment: { hostDirs: [dir] } });
  });

  it("openSkillRun makes and deletes a workspace, and leaves one the settings name alone", async () => {
    const executor = createLocalExecutor();
    const made = await openSkillRun("s1", executor, { policy: { deny: ["curl"] } });
    expect(made.run.environment.executor).toBe(executor);
    expect(made.run.policy).toEqual({ deny: ["curl"] });
    const madeRoot = made.run.environment.workspace.root;
    await made.dispose();
    await expect(access(madeRoot)).rejects.toThrow();

    const given = await createWorkspace({ baseDir: dir });
    try {
      const layer = await openSkillRun("s2", executor, {
        environment: { workspace: given, hostDirs: [dir] },
      });
      expect(layer.run.environment).toMatchObject({ workspace: given, executor, hostDirs: [dir] });
      await layer.dispose();
      await expect(access(given.root)).resolves.toBeUndefined();
    } finally {
      await given.dispose();
    }
  });
});
