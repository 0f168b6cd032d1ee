import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { computeSkillFolderHash, findSkillDrift, readSkillsLock } from "./skills-lock.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-skills-lock-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("computeSkillFolderHash (the skills installer's computedHash)", () => {
  it("hashes path then bytes of each regular file in localeCompare order, skipping links, .git and node_modules", async () => {
    const skill = path.join(dir, "pdf");
    await mkdir(path.join(skill, "scripts"), { recursive: true });
    await mkdir(path.join(skill, "node_modules", "x"), { recursive: true });
    await writeFile(path.join(skill, "SKILL.md"), "a");
    await writeFile(path.join(skill, "scripts", "x.sh"), "b");
    await writeFile(path.join(skill, "node_modules", "x", "i.js"), "ignored");
    await symlink("SKILL.md", path.join(skill, "link.md"));
    // localeCompare puts "scripts/x.sh" before "SKILL.md" (byte order would not).
    const expected = createHash("sha256").update("scripts/x.shbSKILL.mda").digest("hex");
    expect(await computeSkillFolderHash(skill)).toBe(expected);
  });

  it("reports a drifted, a missing and no matching skill", async () => {
    const skill = path.join(dir, "pdf");
    await mkdir(skill);
    await writeFile(path.join(skill, "SKILL.md"), "a");
    const hash = await computeSkillFolderHash(skill);
    const lock = {
      version: 1,
      skills: {
        pdf: { source: "o/r", sourceType: "github", computedHash: hash },
        gone: { source: "o/r", sourceType: "github", computedHash: "00" },
      },
    };
    await writeFile(path.join(dir, "skills-lock.json"), JSON.stringify(lock));
    const read = await readSkillsLock(dir);
    expect(read !== undefined && "lock" in read).toBe(true);
    const records = [{ name: "pdf", dir: skill }];
    expect(await findSkillDrift(lock, records)).toEqual([{ name: "gone", expected: "00" }]);
    await writeFile(path.join(skill, "SKILL.md"), "edited");
    const drift = await findSkillDrift(lock, records);
    expect(drift.map((d) => d.name)).toEqual(["gone", "pdf"]);
    expect(drift[1]?.actual).not.toBe(hash);
  });

  it("a malformed lock is reported, not thrown", async () => {
    await writeFile(path.join(dir, "skills-lock.json"), "<<<<<<< HEAD\n{");
    expect(await readSkillsLock(dir)).toMatchObject({ error: expect.stringContaining("invalid JSON") });
    expect(await readSkillsLock(path.join(dir, "none"))).toBeUndefined();
  });
});
