// Fixtures are SKILL.md texts stored as .txt so that formatters keep them byte for byte.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { parseSkillMd } from "./parse-skill-md.js";
import type { Diagnostic, ParseSkillResult } from "./types.js";

const fixture = (name: string) =>
  readFileSync(new URL(`./__fixtures__/lenient/${name}`, import.meta.url), "utf8");
const parse = (text: string | Uint8Array, dirName = "pdf-tools") => parseSkillMd(text, { dirName });
const codes = (r: ParseSkillResult) => r.diagnostics.map((d) => d.code);
const only = (r: ParseSkillResult, code: string): Diagnostic => {
  const found = r.diagnostics.filter((d) => d.code === code);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const base =
  "---\nname: pdf-tools\ndescription: Extracts text and tables from PDF files.\n---\n# PDF tools\n\nBody.\n";

describe("parseSkillMd lenient (default) mode", () => {
  test("a flow list in allowed-tools loads, elements stay strings", () => {
    const r = parse(fixture("flow-list.txt"));
    expect(r.skill?.allowedTools).toEqual(["Read", "Write", "Bash(python:*)"]);
    expect(only(r, "yaml-flow-collection")).toMatchObject({ severity: "warning", line: 4 });
    expect(r.diagnostics.every((d) => d.severity === "warning")).toBe(true);
  });

  test("a flow map is kept in extras", () => {
    const r = parse(fixture("flow-map.txt"));
    expect(r.skill?.extras["requires"]).toEqual({ mcp: ["filesystem", "github"], bins: "python3" });
    expect(codes(r)).toEqual(["yaml-flow-collection", "unknown-field"]);
  });

  test("an unquoted ': ' in a value is repaired and reported with its line", () => {
    const r = parse(fixture("unquoted-colon.txt"));
    expect(r.skill?.description).toBe("Use this skill when: the user asks about PDFs");
    expect(r.skill?.license).toBe("MIT");
    expect(only(r, "yaml-repaired")).toMatchObject({ severity: "warning", line: 3 });
  });

  test("an unquoted ': ' on a continuation line is repaired with the whole value", () => {
    const r = parse("---\nname: pdf-tools\ndescription: Reads PDFs\n  when: asked\n---\nBody");
    expect(r.skill?.description).toBe("Reads PDFs when: asked");
    expect(codes(r)).toEqual(["yaml-repaired"]);
  });

  test("a value YAML misreads as a flow list (Claude Code's argument-hint) is quoted on the failing line", () => {
    const r = parse(
      "---\nname: pdf-tools\ndescription: Fills PDF forms.\nargument-hint: [file] [pages]\nmodel: fast\n---\nBody",
    );
    expect(r.skill?.extras["argument-hint"]).toBe("[file] [pages]");
    expect(r.skill?.extras["model"]).toBe("fast");
    expect(only(r, "yaml-repaired")).toMatchObject({ severity: "warning", line: 4 });
    const two = parse("---\nname: pdf-tools\nargument-hint: [a] b\ndescription: {x} and y\n---\nBody");
    expect(two.skill?.description).toBe("{x} and y");
    expect(two.diagnostics.filter((d) => d.code === "yaml-repaired").map((d) => d.line)).toEqual([3, 4]);
  });

  test("tab indentation is repaired", () => {
    const r = parse("---\nname: pdf-tools\ndescription: d\nmetadata:\n\tauthor: acme\n---\nBody");
    expect(r.skill?.metadata).toEqual({ author: "acme" });
    expect(only(r, "yaml-repaired").line).toBe(5);
  });

  test("CRLF line endings are read as LF", () => {
    const r = parse(base.replace(/\n/g, "\r\n"));
    expect(r.skill?.description).toBe("Extracts text and tables from PDF files.");
    expect(r.skill?.body).toBe("# PDF tools\n\nBody.");
    expect(codes(r)).toEqual(["crlf-normalized"]);
  });

  test("a UTF-8 BOM is stripped (bytes and text)", () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(base)]);
    for (const input of [bytes, `\ufeff${base}`]) {
      const r = parse(input);
      expect(r.skill?.name).toBe("pdf-tools");
      expect(codes(r)).toEqual(["bom-stripped"]);
    }
  });

  test("a missing name comes from the directory", () => {
    const r = parse(fixture("missing-name.txt"));
    expect(r.skill?.name).toBe("pdf-tools");
    expect(only(r, "name-from-directory").severity).toBe("warning");
  });

  test("an empty name comes from the directory", () => {
    const r = parse('---\nname: ""\ndescription: d\n---\n');
    expect(r.skill?.name).toBe("pdf-tools");
    expect(codes(r)).toEqual(["name-from-directory"]);
  });

  test("a missing description is the body's first paragraph", () => {
    const r = parse(fixture("missing-description.txt"));
    expect(r.skill?.description).toBe("Extracts text and tables from PDF files.");
    expect(codes(r)).toEqual(["description-from-body"]);
  });

  test("the body fallback description is capped at 1024 characters", () => {
    const r = parse(`---\nname: pdf-tools\n---\n${"word ".repeat(600)}`);
    expect([...(r.skill?.description ?? "")].length).toBeLessThanOrEqual(1024);
    expect(codes(r)).toEqual(["description-from-body"]);
  });

  test("over-long name, description and compatibility load with warnings", () => {
    const name = "a".repeat(70);
    const text = `---\nname: ${name}\ndescription: ${"d".repeat(1100)}\ncompatibility: ${"c".repeat(550)}\n---\n`;
    const r = parse(text, name);
    expect(r.skill?.description).toHaveLength(1100);
    expect(r.skill?.compatibility).toHaveLength(550);
    expect(codes(r)).toEqual(["name-too-long", "description-too-long", "compatibility-too-long"]);
    expect(r.diagnostics.every((d) => d.severity === "warning")).toBe(true);
    expect(only(r, "description-too-long").line).toBe(3);
  });

  test("name rule violations and a directory mismatch are warnings", () => {
    const r = parse("---\nname: PDF_Tools\ndescription: d\n---\n");
    expect(r.skill?.name).toBe("PDF_Tools");
    expect(codes(r)).toEqual(["name-not-lowercase", "name-invalid-characters", "name-directory-mismatch"]);
    expect(r.diagnostics.every((d) => d.severity === "warning" && d.line === 2)).toBe(true);
  });

  test("unknown keys are kept as extras, with one warning naming them", () => {
    const r = parse(fixture("extras.txt"));
    expect(r.skill?.extras).toEqual({
      when_to_use: "When the user shares a PDF.",
      tags: ["pdf", "documents"],
      version: "1.0",
      "argument-hint": "[file]",
      "disable-model-invocation": "true",
      "user-invocable": "false",
      model: "claude-sonnet-4",
      active: "true",
      tool_list: "Read Grep",
    });
    const warning = only(r, "unknown-field");
    for (const key of ["when_to_use", "tags", "version", "argument-hint", "active", "tool_list"]) {
      expect(warning.message).toContain(key);
    }
    expect(warning.message).toContain("kept");
  });

  test("an ordinary Markdown '---' rule in the body is kept, without a warning", () => {
    const r = parse(fixture("body-separator.txt"));
    expect(r.skill?.body).toBe("# PDF tools\n\nIntro.\n\n---\n\nMore after a horizontal rule.");
    expect(codes(r)).not.toContain("body-separator");
    // A rule right at the start, followed by prose or a table, is Markdown too.
    const head = "---\nname: pdf-tools\ndescription: Extracts text.\n---\n";
    for (const body of [
      "---\n\n# Title\n\n---\n",
      "\n---\n| a: b |\n---\n",
      "---\nJust text: here and\nmore.\n---\n",
    ])
      expect(codes(parse(head + body))).not.toContain("body-separator");
  });

  test("a body opening with a second frontmatter-like block warns on its first '---'", () => {
    const head = "---\nname: pdf-tools\ndescription: Extracts text.\n---\n";
    const r = parse(`${head}\n---\nversion: 2\ntags:\n  - pdf\n---\n# PDF tools\n`);
    expect(r.skill?.body).toContain("version: 2");
    expect(only(r, "body-separator")).toMatchObject({ severity: "warning", line: 6 });
    expect(only(r, "body-separator").message).toContain("Move its fields into the frontmatter");
    expect(only(parse(`${head}---\nlicense: MIT\n---\nBody.\n`), "body-separator").line).toBe(5);
  });

  test("non-UTF-8 bytes are an error, but the skill still loads", () => {
    const bytes = new TextEncoder().encode(base.replace("Body.", "Caf\u00e9"));
    const latin1 = Uint8Array.from([...bytes.slice(0, -4), 0xe9, 0x0a]);
    const r = parse(latin1);
    expect(r.skill?.name).toBe("pdf-tools");
    expect(only(r, "encoding-invalid").severity).toBe("error");
    expect(r.skill?.body).toContain("\ufffd");
  });

  test("a file without frontmatter derives name and description", () => {
    const r = parse(fixture("no-frontmatter.txt"));
    expect(r.skill).toMatchObject({
      name: "pdf-tools",
      description: "Extracts text and tables from PDF files.",
    });
    expect(codes(r)).toEqual(["frontmatter-missing", "name-from-directory", "description-from-body"]);
  });

  test("an unclosed frontmatter is read up to the first blank line", () => {
    const r = parse("---\nname: pdf-tools\ndescription: d\n\n# Body\n\nText");
    expect(r.skill).toMatchObject({ name: "pdf-tools", description: "d", body: "# Body\n\nText" });
    expect(codes(r)).toEqual(["frontmatter-unclosed"]);
  });

  test("blank lines before the opening delimiter are skipped", () => {
    const r = parse(`\n\n${base}`);
    expect(r.skill?.name).toBe("pdf-tools");
    expect(codes(r)).toEqual(["frontmatter-offset"]);
  });

  test("a duplicate key keeps the last value", () => {
    const r = parse("---\nname: pdf-tools\ndescription: one\ndescription: two\n---\n");
    expect(r.skill?.description).toBe("two");
    expect(only(r, "duplicate-key").line).toBe(4);
  });

  test("a key that is a list or mapping is a diagnostic, never a warning from the yaml library on stderr", () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on("warning", onWarning);
    try {
      const r = parse("---\nname: pdf-tools\ndescription: d\n? [a, b]\n: value\n{x: 1}: y\n---\n");
      expect(r.skill?.description).toBe("d");
      const keyed = r.diagnostics.filter((d) => d.code === "field-invalid-type");
      expect(keyed.map((d) => [d.severity, d.line, d.message])).toEqual([
        ["warning", 4, 'A key is a list or mapping ("[a, b]"); it was read as that text. Use a plain key.'],
        ["warning", 6, 'A key is a list or mapping ("{x: 1}"); it was read as that text. Use a plain key.'],
      ]);
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).toEqual([]);
  });

  test("allowed-tools as a string is split on whitespace (parentheses kept together)", () => {
    const r = parse("---\nname: pdf-tools\ndescription: d\nallowed-tools: Bash(git add:*) Read  Grep\n---\n");
    expect(r.skill?.allowedTools).toEqual(["Bash(git add:*)", "Read", "Grep"]);
  });

  test("metadata values are coerced to strings", () => {
    const r = parse("---\nname: pdf-tools\ndescription: d\nmetadata:\n  version: 1.0\n  list: [a, b]\n---\n");
    expect(r.skill?.metadata).toEqual({ version: "1.0", list: "['a', 'b']" });
  });

  describe("scalar styles", () => {
    test("folded >-", () => {
      expect(parse(fixture("folded.txt")).skill?.description).toBe(
        "Extracts text and tables from PDF files.\nUse when the user shares a PDF.",
      );
    });
    test("literal | (trimmed)", () => {
      expect(parse(fixture("literal.txt")).skill?.description).toBe(
        "Extracts text.\n  Indented line.\nLast line.",
      );
    });
    test("single-quoted", () => {
      const r = parse(fixture("single-quoted.txt"));
      expect(r.skill).toMatchObject({
        name: "pdf-tools",
        description: "It's for PDFs: text, tables # and forms",
      });
      expect(r.diagnostics).toEqual([]);
    });
    test("double-quoted with escapes", () => {
      const r = parse(fixture("double-quoted.txt"));
      expect(r.skill).toMatchObject({
        name: "pdf-tools",
        description: 'Extracts "text" from PDFs:\ttables\u00e9 # not a comment',
      });
      expect(r.diagnostics).toEqual([]);
    });
  });

  describe("nothing usable left", () => {
    test.each([
      ["an empty file", "", "frontmatter-missing"],
      ["binary garbage", "\u0000\u0001\u0002\u0003garbage", "file-binary"],
      [
        "YAML unparseable after repair",
        '---\nname: pdf-tools\ndescription: "open\n---\nBody',
        "yaml-invalid",
      ],
      ["no description anywhere", "---\nname: pdf-tools\n---\n", "description-missing"],
    ])("%s", (_label, text, code) => {
      const r = parse(text);
      expect(r.skill).toBeUndefined();
      expect(r.diagnostics.find((d) => d.severity === "error")?.code).toBe(code);
    });

    test("megabytes of broken YAML are refused without a full parse", () => {
      const r = parse(`---\nname: pdf-tools\n${'a: "x\n'.repeat(200_000)}---\n`);
      expect(r.skill).toBeUndefined();
      expect(r.diagnostics.map((d) => d.code)).toEqual(["yaml-invalid"]);
      expect(r.diagnostics[0]?.message).toContain("too large");
    });

    test("no name and no directory name", () => {
      const r = parseSkillMd("---\ndescription: d\n---\n");
      expect(r.skill).toBeUndefined();
      expect(codes(r)).toEqual(["name-missing"]);
    });
  });

  test("headOnly returns an empty body and skips the body scan", () => {
    const r = parseSkillMd(fixture("body-separator.txt"), { dirName: "pdf-tools", headOnly: true });
    expect(r.skill).toMatchObject({ name: "pdf-tools", body: "", bodyLine: 5 });
    expect(r.diagnostics).toEqual([]);
  });

  test("diagnostics carry the given path", () => {
    const r = parseSkillMd("---\ndescription: d\n---\n", { dirName: "x", path: "/skills/x/SKILL.md" });
    expect(r.diagnostics[0]?.path).toBe("/skills/x/SKILL.md");
  });
});
