import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { computeSkillFolderHash } from "../../catalog/skills-lock.js";
import { runCli } from "../__fixtures__/run-cli.js";
import { fm, makeTempDir, writeSkill } from "../__fixtures__/skill-tree.js";

let tmp: { dir: string; cleanup: () => Promise<void> };
let root: string;
beforeEach(async () => {
  tmp = await makeTempDir();
  root = path.join(tmp.dir, ".agents", "skills");
  await writeSkill(root, "pdf", fm("pdf", "Reads PDF files."));
  await writeSkill(root, "csv", fm("csv", "Reads CSV files."));
  const skills: Record<string, unknown> = {};
  for (const name of ["pdf", "csv"])
    skills[name] = {
      source: "owner/repo",
      sourceType: "github",
      computedHash: await computeSkillFolderHash(path.join(root, name)),
    };
  await fs.writeFile(path.join(tmp.dir, "skills-lock.json"), JSON.stringify({ version: 1, skills }));
});
afterEach(() => tmp.cleanup());

const env = () => ({ HOME: path.join(tmp.dir, "home") });

describe("skills-lock.json drift", () => {
  it("validate --lock passes while the skills match, exits 1 naming the edited one; list marks it", async () => {
    expect((await runCli(["validate", "--lock"], { cwd: tmp.dir, env: env() })).code).toBe(0);
    await fs.appendFile(path.join(root, "pdf", "SKILL.md"), "\nEdited after install.\n");
    const strict = await runCli(["validate", "--lock"], { cwd: tmp.dir, env: env() });
    expect(strict.code).toBe(1);
    expect(strict.out).toContain("skill 'pdf' drifted from skills-lock.json");
    expect(strict.out).not.toContain("skill 'csv'");
    const loose = await runCli(["validate"], { cwd: tmp.dir, env: env() });
    expect(loose.code).toBe(0);
    expect(loose.out).toContain("lock-drift");
    const listed = await runCli(["list", "--json"], { cwd: tmp.dir, env: env() });
    const json = JSON.parse(listed.out) as { diagnostics: { code: string; message: string }[] };
    expect(json.diagnostics.filter((d) => d.code === "lock-drift").map((d) => d.message)).toEqual([
      expect.stringContaining("skill 'pdf' drifted"),
    ]);
  });

  it("a locked skill that is not installed fails validate --lock", async () => {
    await fs.rm(path.join(root, "csv"), { recursive: true });
    const run = await runCli(["validate", "--lock", "--json"], { cwd: tmp.dir, env: env() });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.out) as {
      diagnostics: { code: string; severity: string; message: string }[];
    };
    expect(report.diagnostics).toContainEqual(
      expect.objectContaining({
        code: "lock-drift",
        severity: "error",
        message: expect.stringContaining("'csv'"),
      }),
    );
  });
});
