import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { pythonPathString, referenceDirName, validateSkillDir } from "./validate-skill-dir.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "skillrt-validate-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Writes `<root>/<dir>/SKILL.md` with the given frontmatter lines and body; returns the directory. */
function skill(dir: string, frontmatter: string[], body = "# My Skill", file = "SKILL.md"): string {
  const path = join(root, dir);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, file), `---\n${frontmatter.join("\n")}\n---\n${body}\n`);
  return path;
}
const minimal = (dir: string, extra: string[] = []) =>
  skill(dir, [`name: ${dir}`, "description: A test skill", ...extra]);
const errors = (path: string) => validateSkillDir(path).diagnostics.map((d) => d.message);

describe("validateSkillDir (strict): upstream validator tests (spec-cases A20–A40)", () => {
  test("A20 valid skill", () => expect(errors(minimal("my-skill"))).toEqual([]));

  test("A21 nonexistent path", () => {
    const path = join(root, "nonexistent");
    const r = validateSkillDir(path);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({
      code: "path-not-found",
      message: `Path does not exist: ${path}`,
    });
  });

  test("A22 not a directory", () => {
    const path = join(root, "file.txt");
    writeFileSync(path, "test");
    expect(validateSkillDir(path).diagnostics).toMatchObject([
      { code: "not-a-directory", message: `Not a directory: ${path}` },
    ]);
  });

  test("A23 missing SKILL.md", () => {
    const path = join(root, "my-skill");
    mkdirSync(path);
    expect(validateSkillDir(path).diagnostics).toMatchObject([
      { code: "skill-file-missing", message: "Missing required file: SKILL.md" },
    ]);
  });

  test("A24 uppercase name", () => {
    expect(errors(skill("MySkill", ["name: MySkill", "description: A test skill"]))).toEqual([
      "Skill name 'MySkill' must be lowercase",
    ]);
  });

  test("A25 name too long", () => {
    const name = "a".repeat(70);
    expect(errors(skill(name, [`name: ${name}`, "description: A test skill"]))).toEqual([
      `Skill name '${name}' exceeds 64 character limit (70 chars)`,
    ]);
  });

  test("A26 leading hyphen", () => {
    expect(errors(skill("-my-skill", ["name: -my-skill", "description: A test skill"]))).toEqual([
      "Skill name cannot start or end with a hyphen",
    ]);
  });

  test("A27 consecutive hyphens", () => {
    expect(errors(minimal("my--skill"))).toEqual(["Skill name cannot contain consecutive hyphens"]);
  });

  test("A28 invalid characters", () => {
    expect(errors(minimal("my_skill"))).toEqual([
      "Skill name 'my_skill' contains invalid characters. Only letters, digits, and hyphens are allowed.",
    ]);
  });

  test("A29 directory mismatch", () => {
    const r = validateSkillDir(skill("wrong-name", ["name: correct-name", "description: A test skill"]));
    expect(r.diagnostics).toMatchObject([
      {
        code: "name-directory-mismatch",
        severity: "error",
        message: "Directory name 'wrong-name' must match skill name 'correct-name'",
        line: 2,
      },
    ]);
  });

  test("A30 unexpected fields", () => {
    expect(errors(minimal("my-skill", ["unknown_field: should not be here"]))).toEqual([
      "Unexpected fields in frontmatter: unknown_field. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.",
    ]);
  });

  test("A31 license and metadata", () => {
    expect(errors(minimal("my-skill", ["license: MIT", "metadata:", "  author: Test"]))).toEqual([]);
  });

  test("A32 allowed-tools", () => {
    const r = validateSkillDir(minimal("my-skill", ["allowed-tools: Bash(jq:*) Bash(git:*)"]));
    expect(r.diagnostics).toEqual([]);
    expect(r.skill?.allowedTools).toEqual(["Bash(jq:*)", "Bash(git:*)"]);
  });

  test("A33 Chinese name", () => {
    expect(errors(skill("技能", ["name: 技能", "description: A skill with Chinese name"]))).toEqual([]);
  });

  test("A34 Russian name with hyphens", () => expect(errors(minimal("мой-навык"))).toEqual([]));
  test("A35 Russian lowercase name", () => expect(errors(minimal("навык"))).toEqual([]));
  test("A36 Russian uppercase name", () => {
    expect(errors(minimal("НАВЫК"))).toEqual(["Skill name 'НАВЫК' must be lowercase"]);
  });

  test("A37 description too long", () => {
    const path = skill("my-skill", ["name: my-skill", `description: ${"x".repeat(1100)}`]);
    expect(errors(path)).toEqual(["Description exceeds 1024 character limit (1100 chars)"]);
  });

  test("A38 compatibility", () => {
    expect(errors(minimal("my-skill", ["compatibility: Requires Python 3.11+"]))).toEqual([]);
  });

  test("A39 compatibility too long", () => {
    expect(errors(minimal("my-skill", [`compatibility: ${"x".repeat(550)}`]))).toEqual([
      "Compatibility exceeds 500 character limit (550 chars)",
    ]);
  });

  test("A40 NFKC: a decomposed name matches a composed directory", () => {
    expect(errors(skill("caf\u00e9", ["name: cafe\u0301", "description: A test skill"]))).toEqual([]);
  });
});

describe("validateSkillDir: paths and files", () => {
  test("a SKILL.md path means its parent directory", () => {
    const dir = minimal("my-skill");
    expect(validateSkillDir(join(dir, "SKILL.md"))).toMatchObject({
      diagnostics: [],
      skill: { name: "my-skill" },
    });
  });

  test("skill.md is accepted when SKILL.md is absent", () => {
    const dir = skill("my-skill", ["name: my-skill", "description: d"], "Body", "skill.md");
    expect(validateSkillDir(dir).diagnostics).toEqual([]);
  });

  test("a directory named SKILL.md is not a skill file", () => {
    const dir = join(root, "my-skill");
    mkdirSync(join(dir, "SKILL.md"), { recursive: true });
    expect(validateSkillDir(dir).diagnostics.map((d) => d.code)).toEqual(["skill-file-missing"]);
  });

  test("the name is checked against the last component of the path as given (a symlink's name)", () => {
    const dir = minimal("my-skill");
    symlinkSync(dir, join(root, "alias"));
    expect(errors(join(root, "alias"))).toEqual(["Directory name 'alias' must match skill name 'my-skill'"]);
  });

  test("parse errors of the file are the reference's single message", () => {
    const dir = join(root, "my-skill");
    mkdirSync(dir);
    writeFileSync(join(dir, "SKILL.md"), "# no frontmatter\n");
    expect(errors(dir)).toEqual(["SKILL.md must start with YAML frontmatter (---)"]);
  });

  test("lenient mode loads what strict mode rejects", () => {
    const dir = skill("my-skill", ["name: my-skill", "description: Use when: asked", "tags: [a, b]"]);
    expect(validateSkillDir(dir).skill).toBeUndefined();
    const lenient = validateSkillDir(dir, { mode: "lenient" });
    expect(lenient.skill?.extras["tags"]).toEqual(["a", "b"]);
    expect(lenient.diagnostics.every((d) => d.severity === "warning")).toBe(true);
  });

  test("a file over 1 MiB is an error, and its frontmatter is still read", () => {
    const dir = skill("my-skill", ["name: my-skill", "description: d"], "x".repeat(2 * 1024 * 1024));
    const r = validateSkillDir(dir);
    expect(r.diagnostics.map((d) => d.code)).toEqual(["file-too-large"]);
    expect(r.skill).toMatchObject({ name: "my-skill", body: "" });
  });

  test("a SKILL.md that cannot be opened (a dangling symlink) is reported as missing", () => {
    const dir = join(root, "my-skill");
    mkdirSync(dir);
    symlinkSync(join(root, "nowhere"), join(dir, "SKILL.md"));
    expect(validateSkillDir(dir).diagnostics.map((d) => d.code)).toEqual(["skill-file-missing"]);
  });

  test("Python path semantics for names and messages", () => {
    expect(referenceDirName(".")).toBe("");
    expect(referenceDirName("a/b/")).toBe("b");
    expect(referenceDirName("a/.")).toBe("a");
    expect(pythonPathString("./a//b/")).toBe("a/b");
    expect(pythonPathString("")).toBe(".");
  });
});
