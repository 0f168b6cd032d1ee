import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { coerceMetadata } from "./build-parsed-skill.js";
import { parseSkillMd } from "./parse-skill-md.js";
import { parseFrontmatterStrict } from "./parse-skill-strict.js";

const strict = (text: string | Uint8Array, dirName?: string) =>
  parseSkillMd(text, dirName === undefined ? { mode: "strict" } : { mode: "strict", dirName });
const messages = (text: string | Uint8Array, dirName?: string) =>
  strict(text, dirName).diagnostics.map((d) => d.message);

describe("parseSkillMd strict mode: upstream parser tests (spec-cases A1–A5)", () => {
  test("A1 valid frontmatter", () => {
    const r = strict("---\nname: my-skill\ndescription: A test skill\n---\n# My Skill\n\nInstructions here.");
    expect(r.skill?.frontmatter).toEqual({ name: "my-skill", description: "A test skill" });
    expect(r.skill?.body).toContain("# My Skill");
    expect(r.skill?.bodyLine).toBe(5);
    expect(r.diagnostics).toEqual([]);
  });

  test("A2 missing frontmatter", () => {
    expect(strict("# No frontmatter here").diagnostics).toEqual([
      {
        code: "frontmatter-missing",
        severity: "error",
        message: "SKILL.md must start with YAML frontmatter (---)",
        path: "SKILL.md",
        line: 1,
        column: 1,
      },
    ]);
  });

  test("A3 unclosed frontmatter", () => {
    const r = strict("---\nname: my-skill\ndescription: A test skill");
    expect(r.skill).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["frontmatter-unclosed", "SKILL.md frontmatter not properly closed with ---"],
    ]);
  });

  test("A4 invalid YAML (a flow collection), with its position in SKILL.md", () => {
    const [d] = strict("---\nname: [invalid\ndescription: broken\n---\nBody here").diagnostics;
    expect(d).toMatchObject({ code: "yaml-invalid", line: 2, column: 7 });
    expect(d?.message).toMatch(/^Invalid YAML in frontmatter: .*flow/);
  });

  test("A5 non-mapping frontmatter", () => {
    expect(messages("---\n- just\n- a\n- list\n---\nBody")).toEqual([
      "SKILL.md frontmatter must be a YAML mapping",
    ]);
  });
});

describe("parseSkillMd strict mode: the reference's quirks", () => {
  test("every scalar is a string", () => {
    const r = strict(
      "---\nname: 123\ndescription: true\nmetadata:\n  version: 1.0\n  date: 2024-01-01\n---\n",
    );
    expect(r.skill).toMatchObject({
      name: "123",
      description: "true",
      metadata: { version: "1.0", date: "2024-01-01" },
    });
  });

  test("a list- or mapping-valued name is reported as empty, as the reference does", () => {
    for (const value of ["\n  - my-skill", "\n  a: b"]) {
      const r = strict(`---\nname:${value}\ndescription: d\n---\n`, "my-skill");
      expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
        ["name-empty", "Field 'name' must be a non-empty string"],
      ]);
    }
  });

  test("the frontmatter ends at the first '---' substring (A---B truncates the description)", () => {
    const r = strict("---\nname: my-skill\ndescription: Converts A---B formats\n---\nBody", "my-skill");
    expect(r.skill?.description).toBe("Converts A");
    expect(r.diagnostics).toEqual([]);
  });

  test("a BOM is not tolerated; CRLF bytes are read with universal newlines", () => {
    expect(messages("\ufeff---\nname: a\ndescription: b\n---\n")).toEqual([
      "SKILL.md must start with YAML frontmatter (---)",
    ]);
    const crlf = new TextEncoder().encode("---\r\nname: a\r\ndescription: b\r\n---\r\nBody\r\n");
    expect(strict(crlf, "a")).toMatchObject({ skill: { body: "Body" }, diagnostics: [] });
  });

  test.each([
    ["an anchor", "x: &a b", "anchor"],
    ["an alias", "x: *a", "alias"],
    ["a tag", "x: !!str b", "tag"],
    ["a flow map", "metadata: {}", "flow"],
    ["a duplicate key", "name: a\nname: b", "Duplicate key 'name' found"],
    ["tab indentation", "metadata:\n\tauthor: a", "'\\t'"],
    ["a tab after a value", "license: MIT\t", "'\\t'"],
    ["an unquoted ': '", "description: Use when: asked", "Invalid YAML"],
  ])("rejects %s", (_label, yaml, fragment) => {
    const [d, ...rest] = strict(`---\nname: a\ndescription: b\n${yaml}\n---\n`).diagnostics;
    expect(rest).toEqual([]);
    expect(d?.code).toBe("yaml-invalid");
    expect(d?.message).toContain(fragment);
    expect(d?.line).toBeGreaterThanOrEqual(4);
  });

  test("validation findings accumulate in the reference's order, with key lines", () => {
    const r = strict("---\nname: -Bad--Name-\nextra: x\ncompatibility:\n  - a\n---\n", "dir");
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["unknown-field", 3],
      ["name-not-lowercase", 2],
      ["name-hyphen-edge", 2],
      ["name-consecutive-hyphens", 2],
      ["name-directory-mismatch", 2],
      ["description-missing", undefined],
      ["compatibility-invalid-type", 4],
    ]);
    expect(r.diagnostics.every((d) => d.severity === "error")).toBe(true);
    expect(r.skill).toBeUndefined();
  });

  test("the skill is returned when name and description are readable, even if invalid", () => {
    const r = strict("---\nname: MySkill\ndescription: d\n---\n", "MySkill");
    expect(r.skill?.name).toBe("MySkill");
    expect(r.diagnostics.map((d) => d.message)).toEqual(["Skill name 'MySkill' must be lowercase"]);
  });

  test("non-UTF-8 bytes are reported", () => {
    const r = strict(Uint8Array.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0x0a, 0x2d, 0x2d, 0x2d]));
    expect(r.diagnostics[0]?.code).toBe("encoding-invalid");
  });
});

interface OracleCase {
  text: string;
  dirName: string;
  errors: string[];
  frontmatter: Record<string, unknown> | null;
}

describe("parseSkillMd strict mode against outcomes recorded from the Python reference", () => {
  const file = new URL("./__fixtures__/reference-oracle-cases.json", import.meta.url);
  const { cases } = JSON.parse(readFileSync(file, "utf8")) as { cases: OracleCase[] };
  const prefix = (m: string) =>
    m.startsWith("Invalid YAML in frontmatter: ") ? "Invalid YAML in frontmatter: " : m;

  test("the fixture has a broad set of cases", () => {
    expect(cases.length).toBeGreaterThan(250);
    expect(cases.filter((c) => c.errors.length === 0).length).toBeGreaterThan(5);
  });

  test.each(cases.map((c, i) => [i, c] as const))("case %i", (_i, c) => {
    expect(messages(c.text, c.dirName).map(prefix)).toEqual(c.errors);
    if (c.frontmatter !== null) {
      const parsed = parseFrontmatterStrict(c.text, "SKILL.md");
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      const fm: Record<string, unknown> = { ...parsed.frontmatter };
      const metadata = parsed.frontmatter["metadata"];
      if (metadata !== undefined) fm["metadata"] = coerceMetadata(metadata) ?? metadata;
      expect(fm).toEqual(c.frontmatter);
    }
  });
});
