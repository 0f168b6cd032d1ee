import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseEvalCases } from "../../eval/eval-cases.js";
import { captureIo } from "../__fixtures__/capture-io.js";
import { makeTempDir } from "../__fixtures__/skill-tree.js";
import { main } from "../main.js";

let tmp: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => {
  await tmp.cleanup();
});

describe("skillrt init", () => {
  it("creates SKILL.md, scripts/, references/ and assets/ and says what to run next", async () => {
    const io = captureIo({ cwd: tmp.dir });
    const code = await main(
      ["init", "pdf-tools", "--description", "Fill PDF forms: use when a PDF has fields."],
      io,
    );
    expect(code).toBe(0);
    const dir = path.join(tmp.dir, "pdf-tools");
    const skillMd = await fs.readFile(path.join(dir, "SKILL.md"), "utf8");
    expect(skillMd).toMatch(
      /^---\nname: pdf-tools\ndescription: "Fill PDF forms: use when a PDF has fields."\n---\n/,
    );
    expect(skillMd).toContain("# Pdf Tools");
    const script = await fs.stat(path.join(dir, "scripts", "example.sh"));
    expect(script.mode & 0o111).not.toBe(0);
    await fs.access(path.join(dir, "references", "REFERENCE.md"));
    expect((await fs.stat(path.join(dir, "assets"))).isDirectory()).toBe(true);
    const cases = await fs.readFile(path.join(dir, "evals", "cases.yaml"), "utf8");
    expect(parseEvalCases(cases)).toMatchObject({
      ok: true,
      cases: [{ expect: ["pdf-tools"] }, { forbid: ["pdf-tools"] }],
    });
    expect(io.out()).toContain("Created skill 'pdf-tools' in pdf-tools:");
    expect(io.out()).toContain("  pdf-tools/SKILL.md");
    expect(io.out()).toContain("skillrt validate pdf-tools --strict");
  });

  it("creates a skill that passes strict validation, with and without --description", async () => {
    const io = captureIo({ cwd: tmp.dir });
    await main(["init", "plain"], io);
    await main(["init", "quoted", "--description", `Handles "quotes", colons: and it's # fine`], io);
    const check = captureIo({ cwd: tmp.dir });
    expect(await main(["validate", "plain", "quoted", "--strict"], check)).toBe(0);
    expect(check.out()).toBe("✔ 2 skills valid\n");
    const listed = captureIo({ cwd: tmp.dir });
    await main(["list", "--root", ".", "--json"], listed);
    const skills = (JSON.parse(listed.out()) as { skills: { name: string; description: string }[] }).skills;
    expect(skills.find((s) => s.name === "quoted")?.description).toBe(
      `Handles "quotes", colons: and it's # fine`,
    );
  });

  it("creates the skill inside --dir, making the folder when needed", async () => {
    const io = captureIo({ cwd: tmp.dir });
    expect(await main(["init", "notes", "--dir", "skills/team"], io)).toBe(0);
    await fs.access(path.join(tmp.dir, "skills", "team", "notes", "SKILL.md"));
  });

  it("refuses an invalid name with the rule and exit 2, creating nothing", async () => {
    for (const bad of ["My-Skill", "-x", "a--b", "a_b", "../up", ""]) {
      const io = captureIo({ cwd: tmp.dir });
      expect(await main(["init", "--", bad], io)).toBe(2);
      expect(io.err()).toContain("lowercase letters, digits and hyphens");
    }
    expect(await fs.readdir(tmp.dir)).toEqual([]);
  });

  it("refuses an existing directory with exit 1 and leaves it untouched", async () => {
    await fs.mkdir(path.join(tmp.dir, "taken"));
    await fs.writeFile(path.join(tmp.dir, "taken", "keep.txt"), "mine");
    const io = captureIo({ cwd: tmp.dir });
    expect(await main(["init", "taken"], io)).toBe(1);
    expect(io.err()).toContain("taken already exists");
    expect(await fs.readdir(path.join(tmp.dir, "taken"))).toEqual(["keep.txt"]);
  });

  it("refuses an over-long description (exit 2)", async () => {
    const io = captureIo({ cwd: tmp.dir });
    expect(await main(["init", "long", "--description", "x".repeat(1025)], io)).toBe(2);
    expect(io.err()).toContain("1–1024 characters");
  });
});
