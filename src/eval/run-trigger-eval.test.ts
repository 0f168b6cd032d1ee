import { describe, expect, it } from "vitest";
import { type EvalCase, parseEvalCases } from "./eval-cases.js";
import { runTriggerEval } from "./run-trigger-eval.js";

const cases = (text: string): EvalCase[] => {
  const parsed = parseEvalCases(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.cases;
};

describe("parseEvalCases", () => {
  it("reads YAML and JSON, a list or { cases }, with defaults", () => {
    expect(cases("- prompt: merge pdfs\n  expect: [pdf]\n")).toEqual([
      { prompt: "merge pdfs", expect: ["pdf"], forbid: [], turns: [] },
    ]);
    expect(cases('{"cases": [{"prompt": "x", "forbid": ["y"], "turns": ["z"], "name": "n"}]}')).toEqual([
      { prompt: "x", expect: [], forbid: ["y"], turns: ["z"], name: "n" },
    ]);
  });

  it("says what is wrong: syntax, shape, unknown keys, empty, expected and forbidden at once", () => {
    const message = (text: string) => {
      const parsed = parseEvalCases(text);
      return parsed.ok ? "" : parsed.message;
    };
    expect(message("- prompt: [unclosed")).toMatch(/^not valid YAML or JSON/);
    expect(message("- expect: [pdf]")).toMatch(/at 0\.prompt/);
    expect(message("- prompt: x\n  expects: [pdf]")).toMatch(/expects/);
    expect(message("[]")).toBe("the file has no cases");
    expect(message("- prompt: x\n  expect: [a]\n  forbid: [a]")).toBe(
      "case 1: 'a' is both expected and forbidden",
    );
  });
});

describe("runTriggerEval", () => {
  it("runs every case N times with bounded concurrency and reports per case and per skill", async () => {
    let inFlight = 0;
    let most = 0;
    const report = await runTriggerEval({
      cases: cases(
        "- {name: a, prompt: a, expect: [pdf], forbid: [docx]}\n- {name: b, prompt: b, expect: [csv]}\n",
      ),
      runs: 4,
      concurrency: 2,
      runCase: async (c, run) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        if (c.prompt === "b" && run === 3) throw new Error("provider down");
        // a: pdf loads in runs 0-2; docx sneaks in on run 1.
        const loaded =
          c.prompt === "a" ? [...(run < 3 ? ["pdf"] : []), ...(run === 1 ? ["docx"] : [])] : ["csv"];
        return { loaded, tokens: 10 };
      },
    });
    expect(most).toBe(2);
    expect(report).toMatchObject({
      runsPerCase: 4,
      totalRuns: 8,
      passedRuns: 5,
      passRate: 0.625,
      flakyCases: 2,
    });
    expect(report.cases[0]).toMatchObject({
      name: "a",
      passed: 2,
      triggerRate: { pdf: 0.75 },
      falseTriggers: 1,
      loads: { pdf: 3, docx: 1 },
      tokens: 40,
    });
    expect(report.cases[1]).toMatchObject({ name: "b", passed: 3, errors: ["provider down"], tokens: 30 });
    expect(report.skills).toEqual([
      { name: "csv", expectedRuns: 4, triggered: 3, triggerRate: 0.75, forbiddenRuns: 0, falseTriggers: 0 },
      { name: "docx", expectedRuns: 0, triggered: 0, triggerRate: 0, forbiddenRuns: 4, falseTriggers: 1 },
      { name: "pdf", expectedRuns: 4, triggered: 3, triggerRate: 0.75, forbiddenRuns: 0, falseTriggers: 0 },
    ]);
  });
});
