import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseOutcomeCases } from "./outcome-cases.js";

const fixtures = path.resolve(import.meta.dirname, "__fixtures__");

async function parseFile(rel: string) {
  return parseOutcomeCases(await readFile(path.join(fixtures, rel), "utf8"));
}

function messageOf(text: string): string {
  const parsed = parseOutcomeCases(text);
  return parsed.ok ? "" : parsed.message;
}

describe("parseOutcomeCases", () => {
  it("reads real evals.json files of public collections (UiPath/skills, two skills)", async () => {
    const planner = await parseFile("collections/uipath-case-task-planner.evals.json");
    expect(planner.ok).toBe(true);
    if (!planner.ok) return;
    expect(planner.skillName).toBe("case-task-planner");
    expect(planner.cases.map((c) => c.id)).toEqual(["1", "2", "3", "4", "5"]);
    expect(planner.cases[0]).toMatchObject({
      prompt: expect.stringMatching(/^I have an sdd\.md and spec\.json for a loan approval case/),
      expectedOutput: expect.stringContaining("tasks.md with ordered CLI commands"),
      files: [],
      assertions: [],
    });
    expect(planner.cases[0]?.expectations).toHaveLength(5);
    expect(planner.cases[3]?.expectations[0]).toBe("The case-task-planner skill was NOT triggered");
    expect(planner.unknownFields).toEqual([]);

    const management = await parseFile("collections/uipath-case-management.evals.json");
    expect(management.ok).toBe(true);
    if (!management.ok) return;
    expect(management.skillName).toBe("case-management");
    expect(management.cases).toHaveLength(5);
    expect(management.cases[1]?.expectations).toContain(
      "Waits for user approval before proceeding to execution",
    );
  });

  it("reads the fixture's evals.json: files, statements and checks apart, unknown fields kept and reported", async () => {
    const parsed = await parseFile("word-count/evals/evals.json");
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.cases[0]).toEqual({
      id: "1",
      prompt: "How many words are in poem.txt? Save the count.",
      files: ["evals/files/poem.txt"],
      expectedOutput: "The answer gives the exact count, 10 words, and out/count.json holds it",
      expectations: ["The answer states that the poem has 10 words"],
      rubric: "Pass only when the count is exact; an estimate fails.",
      assertions: [
        { file: "out/count.json", json: { words: 10 } },
        { script: "evals/check-count.mjs" },
        { contains: "10 words" },
      ],
      expect: [],
      forbid: [],
      turns: [],
      extra: { difficulty: "easy" },
    });
    expect(parsed.unknownFields).toEqual(["evals.0.difficulty"]);
  });

  it("reads skillrt's cases.yaml (a list or { cases }), with string assertions going to the grader", () => {
    const parsed = parseOutcomeCases(
      [
        "version: 2",
        "cases:",
        "  - name: summary",
        "    prompt: summarise data.csv",
        "    files: [evals/files/data.csv]",
        "    assertions:",
        "      - The summary names every column",
        "      - { file: out/summary.md, matches: 'rows: \\d+' }",
        "    owner: data-team",
      ].join("\n"),
    );
    expect(parsed).toMatchObject({
      ok: true,
      unknownFields: ["version", "cases.0.owner"],
      cases: [
        {
          id: "summary",
          expectations: ["The summary names every column"],
          assertions: [{ file: "out/summary.md", matches: "rows: \\d+" }],
          extra: { owner: "data-team" },
        },
      ],
    });
  });

  it("reads trigger checks: the cases.yaml skillrt init writes, and skill-creator's should_trigger", async () => {
    const { skillTemplate } = await import("../cli/skill-template.js");
    const template = skillTemplate("pdf-tools", "Works with PDF files.")["evals/cases.yaml"]!;
    const parsed = parseOutcomeCases(template);
    expect(parsed).toMatchObject({
      ok: true,
      cases: [
        { id: "a request this skill is for", expect: ["pdf-tools"], forbid: [] },
        { id: "a nearby request it is not for", expect: [], forbid: ["pdf-tools"] },
      ],
    });
    expect(
      parseOutcomeCases('{"evals": [{"prompt": "x", "should_trigger": false, "turns": ["and then?"]}]}'),
    ).toMatchObject({ ok: true, cases: [{ forbid: ["$skill"], turns: ["and then?"] }], unknownFields: [] });
  });

  it("says what is wrong and where", () => {
    expect(messageOf("evals: [unclosed")).toMatch(/^not valid YAML or JSON/);
    expect(messageOf('{"skill": "x"}')).toMatch(/expected \{ evals: \[\.\.\.\] \}/);
    expect(messageOf('{"evals": [{"id": 1}]}')).toMatch(/^case at evals\.0\.prompt: /);
    expect(messageOf('{"evals": []}')).toBe("the file has no cases");
    expect(messageOf("- prompt: hi")).toBe(
      "case '1' has nothing to grade: give it expected_output, expectations, a rubric, assertions, or skills to expect or forbid",
    );
    expect(messageOf("- {id: a, prompt: x, rubric: r}\n- {id: a, prompt: y, rubric: r}")).toBe(
      "two cases have the id 'a'",
    );
    expect(messageOf("- {prompt: x, rubric: r, files: [../secret.txt]}")).toMatch(
      /input file '\.\.\/secret\.txt' must be a path inside the skill folder/,
    );
    expect(messageOf("- {prompt: x, assertions: [{file: a, matches: '('}]}")).toMatch(
      /matches is not a regular expression/,
    );
    expect(messageOf("- {prompt: x, assertions: [{script: s.sh, file: a}]}")).toMatch(
      /a script assertion takes only script and args/,
    );
  });
});
