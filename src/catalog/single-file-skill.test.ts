/**
 * Single-file skills (`NAME.skill.md`, peterbot's form) in a real folder: found beside other files, named by
 * their frontmatter or their file name, loaded whole, and confined to themselves — the files beside them in
 * their folder are never part of them (not listed, not readable, not staged for a run).
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWorkspace } from "../exec/create-workspace.js";
import { createCatalog } from "./create-catalog.js";
import { validateSkillDir } from "./validate-skill-dir.js";

let tmp: string;
let root: string;
beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-single-")));
  root = path.join(tmp, "skills");
  await fs.mkdir(path.join(root, "ops"), { recursive: true });
  await fs.writeFile(
    path.join(root, "deploy.skill.md"),
    "---\nname: deploy\ndescription: Deploy the service to production.\ntriggerPattern: \\bdeploy\\b\n---\n\n# Deploy\n\nRun the pipeline, then check the dashboard.\n",
  );
  // No name in the frontmatter: the file name gives it.
  await fs.writeFile(
    path.join(root, "ops", "rollback.skill.md"),
    "---\ndescription: Roll back a release.\n---\n\nRevert the tag.\n",
  );
  await fs.writeFile(path.join(root, "secret.txt"), "TOP-SECRET-TOKEN\n");
  // A folder skill beside them is unchanged.
  await fs.mkdir(path.join(root, "pdf"));
  await fs.writeFile(
    path.join(root, "pdf", "SKILL.md"),
    "---\nname: pdf\ndescription: Read PDFs.\n---\n\nUse it.\n",
  );
  await fs.writeFile(path.join(root, "pdf", "notes.skill.md"), "---\nname: inner\ndescription: x\n---\n");
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe("single-file skills (NAME.skill.md)", () => {
  it("are found in plain folders, named by frontmatter or file name, with the file as their location", async () => {
    const catalog = await createCatalog({ roots: [root] });
    expect(catalog.list().map((r) => r.name)).toEqual(["deploy", "pdf", "rollback"]);
    const deploy = catalog.get("deploy");
    expect(deploy).toMatchObject({
      description: "Deploy the service to production.",
      location: path.join(root, "deploy.skill.md"),
      dir: path.join(root, "deploy.skill.md"),
      singleFile: true,
      extras: { triggerPattern: "\\bdeploy\\b" },
    });
    expect(catalog.get("rollback")?.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    // A `*.skill.md` inside a folder skill is one of that skill's files, not a skill of its own.
    expect(catalog.get("inner")).toBeUndefined();
    expect(catalog.get("pdf")?.singleFile).toBeUndefined();
    expect((await catalog.load("deploy")).body).toBe(
      "# Deploy\n\nRun the pipeline, then check the dashboard.",
    );
  });

  it("own exactly one file, SKILL.md: nothing beside them is listed or readable", async () => {
    const catalog = await createCatalog({ roots: [root] });
    expect((await catalog.files("deploy")).map((f) => f.path)).toEqual(["SKILL.md"]);
    const skillMd = await catalog.readFile("deploy", "SKILL.md");
    expect(skillMd.kind === "text" && skillMd.content).toContain("Run the pipeline");
    expect(await catalog.readFile("deploy", "secret.txt")).toEqual({
      kind: "not-found",
      path: "secret.txt",
      available: ["SKILL.md"],
    });
    expect((await catalog.readFile("deploy", "../secret.txt")).kind).toBe("refused");
    expect((await catalog.readFile("rollback", "../secret.txt")).kind).toBe("refused");
    expect(JSON.stringify(await catalog.readFile("deploy", "./secret.txt"))).not.toContain("TOP-SECRET");
  });

  it("are not staged for a run: no folder, so nothing beside them reaches a workspace", async () => {
    const catalog = await createCatalog({ roots: [root] });
    const workspace = await createWorkspace({ baseDir: tmp });
    try {
      await expect(workspace.stageSkill(catalog.get("deploy")!)).rejects.toThrow(
        "skill 'deploy' is a single file (deploy.skill.md) with no folder",
      );
    } finally {
      await workspace.dispose();
    }
  });

  it("come back from the metadata cache the same, and an edit is picked up", async () => {
    const cacheDir = path.join(tmp, "cache");
    const first = await createCatalog({ roots: [root], cacheDir });
    const warm = await createCatalog({ roots: [root], cacheDir });
    expect(warm.get("deploy")).toEqual(first.get("deploy"));
    await fs.writeFile(
      path.join(root, "deploy.skill.md"),
      "---\nname: deploy\ndescription: Deploy to staging first.\n---\n\nStaging.\n",
    );
    await warm.refresh();
    expect(warm.get("deploy")?.description).toBe("Deploy to staging first.");
    expect((await warm.load("deploy")).body).toBe("Staging.");
  });

  it("a watching catalog picks up an edited, an added and a removed single-file skill", async () => {
    const catalog = await createCatalog({ roots: [root] });
    const stop = catalog.watch(() => {});
    const until = async (check: () => boolean): Promise<void> => {
      for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    };
    try {
      await fs.writeFile(
        path.join(root, "deploy.skill.md"),
        "---\nname: deploy\ndescription: Deploy with a canary.\n---\n\nCanary.\n",
      );
      await until(() => catalog.get("deploy")?.description === "Deploy with a canary.");
      expect(catalog.get("deploy")?.description).toBe("Deploy with a canary.");
      await fs.writeFile(
        path.join(root, "ops", "scale.skill.md"),
        "---\ndescription: Scale out.\n---\n\nAdd nodes.\n",
      );
      await until(() => catalog.get("scale") !== undefined);
      expect(catalog.get("scale")).toMatchObject({ singleFile: true, description: "Scale out." });
      await fs.rm(path.join(root, "ops", "rollback.skill.md"));
      await until(() => catalog.get("rollback") === undefined);
      expect(catalog.get("rollback")).toBeUndefined();
    } finally {
      stop();
    }
  });

  it("validate: lenient reads the file as a skill, strict says the spec needs a folder", () => {
    const file = path.join(root, "ops", "rollback.skill.md");
    const lenient = validateSkillDir(file, { mode: "lenient" });
    expect(lenient.skill?.name).toBe("rollback");
    expect(lenient.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const strict = validateSkillDir(file, { mode: "strict" });
    expect(strict.diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        "not-a-directory",
        `Not a directory: ${file} (a single-file skill: the spec needs a folder holding SKILL.md; lenient validation reads it as a skill)`,
      ],
    ]);
  });
});
