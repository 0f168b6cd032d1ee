import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { toPrompt } from "../spec/to-prompt.js";
import { readPromptEntry, readProperties, skillPropertiesToDict } from "./read-properties.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "skillrt-props-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(dir: string, content: string, file = "SKILL.md"): string {
  const path = join(root, dir);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, file), content);
  return path;
}
const minimal = (dir: string, description = "A test skill", extra = "") =>
  write(dir, `---\nname: ${dir}\ndescription: ${description}\n${extra}---\n# My Skill\n`);

describe("readProperties (spec-cases A6–A10, A14, A15; A11–A13 are in find-skill-md.test.ts)", () => {
  test("A6 valid skill", () => {
    const r = readProperties(minimal("my-skill", "A test skill", "license: MIT\n"));
    expect(r).toMatchObject({
      ok: true,
      properties: { name: "my-skill", description: "A test skill", license: "MIT" },
    });
  });

  test("A7 metadata values stay the strings written (1.0 is '1.0')", () => {
    const r = readProperties(
      minimal("my-skill", "A test skill", "metadata:\n  author: Test Author\n  version: 1.0\n"),
    );
    expect(r.ok && r.properties.metadata).toEqual({ author: "Test Author", version: "1.0" });
  });

  test("A8 no SKILL.md", () => {
    const dir = join(root, "empty");
    mkdirSync(dir);
    const r = readProperties(dir);
    expect(r).toMatchObject({
      ok: false,
      diagnostic: { code: "skill-file-missing", message: `SKILL.md not found in ${dir}` },
    });
  });

  test("A9 missing name", () => {
    const r = readProperties(write("my-skill", "---\ndescription: A test skill\n---\nBody\n"));
    expect(!r.ok && r.diagnostic.message).toMatch(/Missing required field.*name/);
  });

  test("A10 missing description", () => {
    const r = readProperties(write("my-skill", "---\nname: my-skill\n---\nBody\n"));
    expect(!r.ok && r.diagnostic.message).toMatch(/Missing required field.*description/);
  });

  test("A14 properties from skill.md", () => {
    const dir = write(
      "my-skill",
      "---\nname: my-skill\ndescription: A test skill\n---\n# My Skill\n",
      "skill.md",
    );
    expect(readProperties(dir)).toMatchObject({
      ok: true,
      properties: { name: "my-skill", description: "A test skill" },
    });
  });

  test("A15 allowed-tools, and the dict form's hyphenated key", () => {
    const r = readProperties(minimal("my-skill", "A test skill", "allowed-tools: Bash(jq:*) Bash(git:*)\n"));
    if (!r.ok) throw new Error(r.diagnostic.message);
    expect(r.properties.allowedTools).toBe("Bash(jq:*) Bash(git:*)");
    expect(skillPropertiesToDict(r.properties)).toEqual({
      name: "my-skill",
      description: "A test skill",
      "allowed-tools": "Bash(jq:*) Bash(git:*)",
    });
  });

  test("does not validate: bad names, directory mismatch and unknown keys pass", () => {
    const r = readProperties(write("dir", "---\nname: Bad_Name\ndescription: '  padded  '\nextra: 1\n---\n"));
    expect(r).toMatchObject({ ok: true, properties: { name: "Bad_Name", description: "padded" } });
  });

  test("dict form: key order, empty metadata dropped", () => {
    const r = readProperties(minimal("my-skill", "d", "metadata:\ncompatibility: py\nlicense: MIT\n"));
    if (!r.ok) throw new Error(r.diagnostic.message);
    expect(Object.keys(skillPropertiesToDict(r.properties))).toEqual([
      "name",
      "description",
      "license",
      "compatibility",
    ]);
  });

  test("a blank name is the reference's message", () => {
    const r = readProperties(write("my-skill", '---\nname: "  "\ndescription: d\n---\n'));
    expect(!r.ok && r.diagnostic.message).toBe("Field 'name' must be a non-empty string");
  });
});

describe("toPrompt from real skill directories (spec-cases A16–A19)", () => {
  const entries = (dirs: string[]) =>
    dirs.map((d) => {
      const r = readPromptEntry(d);
      if (!r.ok) throw new Error(r.diagnostic.message);
      return r.entry;
    });

  test("A16 no skills", () => expect(toPrompt(entries([]))).toBe("<available_skills>\n</available_skills>"));

  test("A17 one skill, with the absolute real location of its SKILL.md", () => {
    const dir = minimal("my-skill");
    symlinkSync(dir, join(root, "link"));
    const out = toPrompt(entries([join(root, "link")]));
    const location = join(realpathSync(dir), "SKILL.md");
    expect(out).toBe(
      `<available_skills>\n<skill>\n<name>\nmy-skill\n</name>\n<description>\nA test skill\n</description>\n<location>\n${location}\n</location>\n</skill>\n</available_skills>`,
    );
  });

  test("A18 two skills, in the order given", () => {
    const out = toPrompt(entries([minimal("skill-a", "First skill"), minimal("skill-b", "Second skill")]));
    expect(out.match(/<skill>/g)).toHaveLength(2);
    expect(out.match(/<\/skill>/g)).toHaveLength(2);
    expect(out.indexOf("skill-a")).toBeLessThan(out.indexOf("skill-b"));
  });

  test("A19 special characters are escaped", () => {
    const out = toPrompt(entries([minimal("special-skill", "Use <foo> & <bar> tags")]));
    expect(out).toContain("&lt;foo&gt;");
    expect(out).toContain("&amp;");
    expect(out).toContain("&lt;bar&gt;");
    expect(out).not.toContain("<foo>");
    expect(out).not.toContain("<bar>");
  });
});
