// Patterns found in public skill collections, each reproduced with original text. Lenient mode must read
// them the way a careful person does; strict mode must keep agreeing with the reference validator.
import { describe, expect, test } from "vitest";
import { parseSkillMd } from "./parse-skill-md.js";
import type { ParseSkillResult } from "./types.js";

const lenient = (text: string, dirName = "log-triage") => parseSkillMd(text, { dirName });
const strict = (text: string, dirName = "log-triage") => parseSkillMd(text, { dirName, mode: "strict" });
const codes = (r: ParseSkillResult) => r.diagnostics.map((d) => d.code);
const fm = "name: log-triage\ndescription: Sorts CI logs by failure cause.\n";

describe("HTML comments above the frontmatter (generated and vendored skills)", () => {
  test("a one-line banner is skipped; fields, lines and body are read as usual", () => {
    const r = lenient(
      `<!-- Generated from templates/log-triage.md; do not edit. -->\n---\n${fm}owner: ci\n---\n# Log triage\n\nRead the log.\n`,
    );
    expect(r.skill).toMatchObject({
      name: "log-triage",
      description: "Sorts CI logs by failure cause.",
      body: "# Log triage\n\nRead the log.",
      bodyLine: 7,
    });
    expect(codes(r)).toEqual(["frontmatter-offset", "unknown-field"]);
    expect(r.diagnostics[0]).toMatchObject({ severity: "warning", line: 1 });
    expect(r.diagnostics[1]?.line).toBe(5);
  });

  test("several banners, a multi-line one and blank lines are all skipped", () => {
    const text = `<!-- build: 2031-02-03 -->\n\n<!--\n  Copied from the team handbook.\n  Edit the source, not this file.\n-->\n<!-- BEGIN SKILL -->\n---\n${fm}---\nBody\n`;
    const r = lenient(text);
    expect(r.skill?.name).toBe("log-triage");
    expect(r.skill?.description).toBe("Sorts CI logs by failure cause.");
    expect(codes(r)).toEqual(["frontmatter-offset"]);
    expect(r.diagnostics[0]?.message).toContain("7 line(s)");
  });

  test("text after the comment on its line is not a banner: no frontmatter is assumed", () => {
    const r = lenient(`<!-- note --> Read me first.\n---\n${fm}---\nBody\n`);
    expect(codes(r)).toContain("frontmatter-missing");
  });

  test("strict mode still requires '---' on the first line, as the reference does", () => {
    const r = strict(`<!-- banner -->\n---\n${fm}---\nBody\n`);
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([["frontmatter-missing", "error"]]);
  });
});

describe("frontmatter YAML that stays broken after the repairs", () => {
  const broken = [
    "---",
    "name: log-triage",
    "description: Sorts CI logs by failure cause.",
    "why it fails: unknown",
    "then a stray sentence pasted without any colon",
    "owner: build-team",
    "---",
    "# Log triage",
    "",
    "Read the log first.",
  ].join("\n");

  test("the unreadable entry is dropped with a warning naming its line; the other fields load", () => {
    const r = lenient(broken);
    expect(r.skill).toMatchObject({
      name: "log-triage",
      description: "Sorts CI logs by failure cause.",
      extras: { "why it fails": "unknown", owner: "build-team" },
      body: "# Log triage\n\nRead the log first.",
    });
    const dropped = r.diagnostics.filter((d) => d.code === "yaml-invalid");
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatchObject({ severity: "warning", line: 5 });
    expect(dropped[0]?.message).toContain("line 5 ignored");
    expect(r.diagnostics.every((d) => d.severity === "warning")).toBe(true);
  });

  test("an indented block under the broken key is dropped with it", () => {
    const r = lenient(
      "---\nname: log-triage\ndescription: d\nstray words here\n  more: of: them\n  and more\nowner: ci\n---\n",
    );
    expect(r.skill?.extras).toEqual({ owner: "ci" });
    expect(r.diagnostics.find((d) => d.code === "yaml-invalid")?.message).toContain("lines 4-6 ignored");
  });

  test("a broken description is never dropped: the skill fails instead of losing its description", () => {
    const r = lenient(
      '---\nname: log-triage\ndescription: "Sorts CI logs\nowner: ci\nteam: build\n---\nBody\n',
    );
    expect(r.skill).toBeUndefined();
    expect(r.diagnostics.find((d) => d.severity === "error")?.code).toBe("yaml-invalid");
  });

  test("strict mode reports the error and drops nothing", () => {
    const r = strict(broken);
    expect(r.diagnostics.filter((d) => d.severity === "error").map((d) => d.code)).toEqual(["yaml-invalid"]);
  });

  test("an unclosed frontmatter without a blank line ends at the first line that is not YAML", () => {
    const r = lenient(`---\n${fm}owner: ci\nRoot cause first, then the fix.\nKeep notes short.\n`);
    expect(r.skill).toMatchObject({
      name: "log-triage",
      description: "Sorts CI logs by failure cause.",
      extras: { owner: "ci" },
      body: "Root cause first, then the fix.\nKeep notes short.",
    });
    expect(codes(r)).toEqual(["frontmatter-unclosed", "unknown-field"]);
  });
});

describe("values written the way people write them", () => {
  test.each([
    [
      "an apostrophe inside single quotes",
      "description: 'It's the log triage skill'",
      "It's the log triage skill",
    ],
    ["inner double quotes", 'description: "Run the "fast" triage mode"', 'Run the "fast" triage mode'],
    ["text after a quoted word", 'description: "CI" logs, sorted by cause', '"CI" logs, sorted by cause'],
  ])("%s is read as its text, with a repair warning", (_label, line, expected) => {
    const r = lenient(`---\nname: log-triage\n${line}\n---\nBody\n`);
    expect(r.skill?.description).toBe(expected);
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([["yaml-repaired", 3]]);
    expect(strict(`---\nname: log-triage\n${line}\n---\nBody\n`).diagnostics[0]?.code).toBe("yaml-invalid");
  });

  test.each([
    [
      "a full-width colon (CJK input)",
      "name：log-triage\ndescription：按失败原因整理 CI 日志。",
      "按失败原因整理 CI 日志。",
    ],
    ["no space after the colon", "name:log-triage\ndescription:Sorts CI logs.", "Sorts CI logs."],
    [
      "a no-break space after the colon",
      "name: log-triage\ndescription:\u00a0Sorts CI logs.",
      "Sorts CI logs.",
    ],
  ])("keys with %s are read as keys", (_label, yaml, description) => {
    const r = lenient(`---\n${yaml}\n---\nBody\n`);
    expect(r.skill).toMatchObject({ name: "log-triage", description });
    expect(r.diagnostics.every((d) => d.code === "yaml-repaired" && d.severity === "warning")).toBe(true);
    expect(r.diagnostics[0]?.message).toContain("ASCII colon");
  });

  test("a description that is only a block indicator ('|') falls back to the body", () => {
    const r = lenient(
      '---\nname: log-triage\ndescription: "|"\n---\n# Log triage\n\nSorts CI logs by failure cause.\n',
    );
    expect(r.skill?.description).toBe("Sorts CI logs by failure cause.");
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([["description-from-body", 3]]);
    expect(r.diagnostics[0]?.message).toContain("block-scalar indicator '|'");
    expect(lenient("---\nname: log-triage\ndescription: '>-'\n---\nSorts logs.\n").skill?.description).toBe(
      "Sorts logs.",
    );
  });
});

describe("the description taken from a real-looking body", () => {
  const fromBody = (body: string) => lenient(`---\nname: log-triage\n---\n${body}`).skill?.description;

  test("badges, tag-only HTML lines, comments and tables are skipped for the prose", () => {
    const body = [
      "[![CI](https://ci.example/badge.svg)](https://ci.example) ![npm](https://img.example/npm.svg)",
      "<!-- toc -->",
      '<div align="center">',
      "",
      "| Step | Tool |",
      "|------|------|",
      "| 1 | grep |",
      "",
      "<objective>",
      "Sorts CI logs by failure cause.",
      "</objective>",
    ].join("\n");
    expect(fromBody(body)).toBe("Sorts CI logs by failure cause.");
  });

  test("prose after a heading, a note and a list wins over all of them", () => {
    expect(
      fromBody(
        "# Log triage\n\n> Status: draft\n\n- step one\n- step two\n\nSorts CI logs by failure cause.\n",
      ),
    ).toBe("Sorts CI logs by failure cause.");
  });

  test("without prose: a blockquote (markers removed), else the heading, else the first list item", () => {
    expect(fromBody("# Log triage\n\n> Sorts CI logs\n> by failure cause.\n")).toBe(
      "Sorts CI logs by failure cause.",
    );
    expect(fromBody("# Log triage\n\n1. Open the log\n2. Find the cause\n")).toBe("Log triage");
    expect(fromBody("- Open the log\n  and read it\n- Find the cause\n")).toBe("Open the log and read it");
  });
});

describe("strict mode: the first problem in the text is the one reported", () => {
  test("an unquoted ': ' before a flow list is reported first, in the reference's words", () => {
    const r = strict("---\nname: log-triage\ndescription: Sorts logs. Output: a table\ntools: [Read]\n---\n");
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([["yaml-invalid", 3]]);
    expect(r.diagnostics[0]?.message).toContain("mapping values are not allowed here");
  });

  test("a flow list before an unquoted ': ' is reported first", () => {
    const r = strict("---\nname: log-triage\ntools: [Read]\ndescription: Sorts logs. Output: a table\n---\n");
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([["yaml-invalid", 3]]);
    expect(r.diagnostics[0]?.message).toContain("flow mapping");
  });
});
