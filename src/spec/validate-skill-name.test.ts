import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isPlainSkillName, isValidSkillName, validateSkillName } from "./validate-skill-name.js";

const codes = (name: string, dirName?: string) =>
  validateSkillName(name, dirName === undefined ? {} : { dirName }).map((v) => v.code);

describe("validateSkillName", () => {
  test.each([
    "pdf-processing",
    "data-analysis",
    "a1",
    "技能",
    "мой-навык",
    "αβγ",
    "١٢٣",
    "𠀀",
    "ｍｙ-ｓｋｉｌｌ",
  ])("accepts %s", (name) => expect(validateSkillName(name)).toEqual([]));

  test.each([
    ["PDF-Processing", ["name-not-lowercase"]],
    ["-pdf", ["name-hyphen-edge"]],
    ["pdf--processing", ["name-consecutive-hyphens"]],
    ["my_skill", ["name-invalid-characters"]],
    ["x\u0301", ["name-invalid-characters"]],
    ["\u0301", ["name-invalid-characters"]],
    ["", ["name-empty"]],
    ["   ", ["name-empty"]],
    ["a".repeat(65), ["name-too-long"]],
    ["-Bad--", ["name-not-lowercase", "name-hyphen-edge", "name-consecutive-hyphens"]],
  ])("rejects %j", (name, expected) => expect(codes(name)).toEqual(expected));

  test("counts code points after NFKC (ﬃ is three characters; emoji count once)", () => {
    expect(codes("ﬃ".repeat(22))).toEqual(["name-too-long"]);
    expect(validateSkillName("x".repeat(65))[0]?.message).toBe(
      `Skill name '${"x".repeat(65)}' exceeds 64 character limit (65 chars)`,
    );
  });

  test("compares with the directory after NFKC on both sides, case-sensitively", () => {
    expect(codes("cafe\u0301", "caf\u00e9")).toEqual([]);
    expect(codes("ｍｙ-ｓｋｉｌｌ", "my-skill")).toEqual([]);
    expect(validateSkillName("correct-name", { dirName: "wrong-name" })).toEqual([
      {
        code: "name-directory-mismatch",
        message: "Directory name 'wrong-name' must match skill name 'correct-name'",
      },
    ]);
    expect(codes("my-skill", "")).toEqual(["name-directory-mismatch"]);
  });

  test("asciiOnly restricts to a-z, 0-9 and hyphens", () => {
    expect(isValidSkillName("技能")).toBe(true);
    expect(isValidSkillName("技能", { asciiOnly: true })).toBe(false);
  });
});

describe("the plain-name fast path", () => {
  const nameArb = fc.oneof(
    fc.stringMatching(/^[a-z0-9-]{0,70}$/),
    fc.array(fc.constantFrom(..."ab9-Z_ é\u0301ｍ-"), { maxLength: 70 }).map((a) => a.join("")),
  );

  test("gives what the full rules give (surrounding whitespace forces them, and never changes a result)", () => {
    fc.assert(
      fc.property(nameArb, fc.oneof(fc.constant(undefined), nameArb), fc.boolean(), (name, dir, sameDir) => {
        const dirName = sameDir ? name : dir;
        const options = dirName === undefined ? {} : { dirName };
        expect(validateSkillName(name, options)).toEqual(validateSkillName(` ${name}\n`, options));
        expect(validateSkillName(name, { ...options, asciiOnly: true })).toEqual(
          validateSkillName(`\t${name} `, { ...options, asciiOnly: true }),
        );
      }),
      { numRuns: 5_000 },
    );
  });

  test("isPlainSkillName accepts only names that pass every rule", () => {
    fc.assert(
      fc.property(nameArb, (name) => {
        if (isPlainSkillName(name)) expect(validateSkillName(`${name} `, { dirName: name })).toEqual([]);
      }),
    );
    expect(isPlainSkillName("pdf-processing")).toBe(true);
    expect(isPlainSkillName("a".repeat(64))).toBe(true);
    for (const name of ["", "-a", "a-", "a--b", "A", "a_b", "a".repeat(65), "é"]) {
      expect(isPlainSkillName(name)).toBe(false);
    }
  });
});
