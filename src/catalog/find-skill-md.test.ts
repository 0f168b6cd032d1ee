import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { findSkillMd } from "./find-skill-md.js";

let dir: string;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), "skillrt-find-")), "my-skill");
  mkdirSync(dir);
});
afterEach(() => rmSync(join(dir, ".."), { recursive: true, force: true }));

describe("findSkillMd (spec-cases A11–A13)", () => {
  test("A11 SKILL.md is preferred over skill.md", () => {
    writeFileSync(join(dir, "SKILL.md"), "uppercase");
    writeFileSync(join(dir, "skill.md"), "lowercase");
    expect(findSkillMd(dir)).toBe(join(dir, "SKILL.md"));
  });

  test("A12 skill.md is accepted", () => {
    writeFileSync(join(dir, "skill.md"), "x");
    expect(findSkillMd(dir)).toBe(join(dir, "skill.md"));
  });

  test("A13 nothing found", () => expect(findSkillMd(dir)).toBeUndefined());

  test("a directory named SKILL.md is skipped for skill.md", () => {
    mkdirSync(join(dir, "SKILL.md"));
    expect(findSkillMd(dir)).toBeUndefined();
    writeFileSync(join(dir, "skill.md"), "x");
    expect(findSkillMd(dir)).toBe(join(dir, "skill.md"));
  });
});
