import { describe, expect, it } from "vitest";
import { scriptedModel } from "./__fixtures__/scripted-model.js";
import { tinyContext } from "./__fixtures__/tiny-context.js";
import { autoSelectModeFrom, parseSelection, selectSkills } from "./select-skills.js";

const skills = { pdf: "P", csv: "C", chart: "H", email: "E" };

describe("selectSkills", () => {
  it("llm: asks the model once with the catalog and loads the names it returns, capped", async () => {
    const model = scriptedModel([{ text: 'Sure: {"skills": ["csv", "chart", "nope", "pdf"]}' }]);
    const context = tinyContext(skills);
    const result = await selectSkills({ mode: "llm", context, model, message: "plot my csv", maxActive: 2 });
    expect(result.selected).toEqual(["csv", "chart"]);
    expect([...context.loaded]).toEqual(["csv", "chart"]);
    expect(model.calls).toHaveLength(1);
    const prompt = JSON.stringify(model.calls[0]!.prompt);
    expect(prompt).toContain("- email: about email");
    expect(prompt).toContain("plot my csv");
  });

  it("lexical: loads search hits above the threshold without calling a model", async () => {
    const context = tinyContext(skills);
    const result = await selectSkills({ mode: "lexical", context, message: "turn this pdf into an email" });
    expect(result.selected.sort()).toEqual(["email", "pdf"]);
    expect(result.loads.every((l) => l.ok)).toBe(true);
  });

  it("off does nothing; a failing model selects nothing", async () => {
    const context = tinyContext(skills);
    expect((await selectSkills({ mode: "off", context, message: "pdf" })).selected).toEqual([]);
    const broken = scriptedModel([{ error: new Error("down") }]);
    broken.doGenerate = async () => {
      throw new Error("down");
    };
    expect((await selectSkills({ mode: "llm", context, model: broken, message: "pdf" })).selected).toEqual(
      [],
    );
  });

  it("reads the mode and the model's answer leniently", () => {
    expect(autoSelectModeFrom("LLM")).toBe("llm");
    expect(autoSelectModeFrom("true")).toBe("off");
    expect(parseSelection('```json\n["a","b"]\n```', new Set(["a"]))).toEqual(["a"]);
    expect(parseSelection("none", new Set(["a"]))).toEqual([]);
  });
});
