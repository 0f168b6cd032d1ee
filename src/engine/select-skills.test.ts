import { describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { createSkillSession } from "../context/create-skill-session.js";
import { scriptedModel } from "../test-kit.js";
import { tinySession } from "./__fixtures__/tiny-session.js";
import { createSkillAgent } from "./create-skill-agent.js";
import { autoSelectModeFrom, parseSelection, selectionCandidates, selectSkills } from "./select-skills.js";

const skills = { pdf: "P", csv: "C", chart: "H", email: "E" };

describe("selectSkills", () => {
  it("llm: asks the model once with the catalog and loads the names it returns, capped", async () => {
    const model = scriptedModel([{ text: 'Sure: {"skills": ["csv", "chart", "nope", "pdf"]}' }]);
    const { session } = await tinySession(skills);
    const result = await selectSkills({ mode: "llm", session, model, message: "plot my csv", maxActive: 2 });
    expect(result.selected).toEqual(["csv", "chart"]);
    expect(session.loadedSkills()).toEqual(["csv", "chart"]);
    expect(model.calls).toHaveLength(1);
    const prompt = JSON.stringify(model.calls[0]!.prompt);
    expect(prompt).toContain("- email: about email");
    expect(prompt).toContain("plot my csv");
  });

  it("lexical: loads search hits above the threshold without calling a model", async () => {
    const { session } = await tinySession(skills);
    const result = await selectSkills({ mode: "lexical", session, message: "turn this pdf into an email" });
    expect(result.selected.sort()).toEqual(["email", "pdf"]);
    expect(result.loads.every((l) => l.ok)).toBe(true);
  });

  it("off does nothing; a failing model selects nothing", async () => {
    const { session } = await tinySession(skills);
    expect((await selectSkills({ mode: "off", session, message: "pdf" })).selected).toEqual([]);
    const broken = scriptedModel([{ error: new Error("down") }]);
    broken.doGenerate = async () => {
      throw new Error("down");
    };
    expect((await selectSkills({ mode: "llm", session, model: broken, message: "pdf" })).selected).toEqual(
      [],
    );
  });

  it("reads the mode and the model's answer leniently", () => {
    expect(autoSelectModeFrom("LLM")).toBe("llm");
    expect(autoSelectModeFrom("lexical")).toBe("lexical");
    // The seed's flag: true means on, with the default selector (ask the model).
    for (const on of ["true", "TRUE", "1", "yes", "on"]) expect(autoSelectModeFrom(on)).toBe("llm");
    for (const off of [undefined, "", "false", "0", "off", "maybe"])
      expect(autoSelectModeFrom(off)).toBe("off");
    expect(parseSelection('```json\n["a","b"]\n```', new Set(["a"]))).toEqual(["a"]);
    expect(parseSelection("none", new Set(["a"]))).toEqual([]);
    expect(parseSelection("None.", new Set(["none-skill"]))).toEqual([]);
  });

  it("accepts the seed's comma-separated answer (names in order, unknown names and 'none' dropped)", () => {
    const known = new Set(["pdf", "csv", "chart-maker"]);
    expect(parseSelection("csv, pdf", known)).toEqual(["csv", "pdf"]);
    expect(parseSelection(" `Chart-Maker` , nope,pdf.", known)).toEqual(["chart-maker", "pdf"]);
    expect(parseSelection("- pdf\n- csv\n", known)).toEqual(["pdf", "csv"]);
    expect(parseSelection("pdf, pdf, none", known)).toEqual(["pdf"]);
  });

  it("never offers or loads a disable-model-invocation skill (only a person starts it)", async () => {
    const catalog = await createCatalog({
      roots: [],
      memory: [
        { name: "csv", description: "about csv files", body: "C" },
        {
          name: "deploy-prod",
          description: "deploys csv reports to production",
          body: "D",
          extras: { "disable-model-invocation": "true" },
        },
      ],
    });
    const session = createSkillSession({ catalog });
    expect((await selectionCandidates(session, "deploy my csv")).map((s) => s.name)).toEqual(["csv"]);
    // A model naming it anyway does not load it.
    const model = scriptedModel([{ text: '{"skills": ["deploy-prod", "csv"]}' }]);
    const result = await selectSkills({ mode: "llm", session, model, message: "deploy my csv" });
    expect(JSON.stringify(model.calls[0]!.prompt)).not.toContain("deploy-prod");
    expect(result.selected).toEqual(["csv"]);
    expect(session.loadedSkills()).toEqual(["csv"]);
    const lexical = createSkillSession({ catalog });
    const picked = await selectSkills({
      mode: "lexical",
      session: lexical,
      message: "deploy production reports",
    });
    expect(picked.selected).not.toContain("deploy-prod");
    expect(lexical.loadedSkills()).not.toContain("deploy-prod");
  });

  it("llm: loads the skills of a comma-separated answer", async () => {
    const model = scriptedModel([{ text: "chart, csv" }]);
    const { session } = await tinySession(skills);
    const result = await selectSkills({ mode: "llm", session, model, message: "plot my csv" });
    expect(result.selected).toEqual(["chart", "csv"]);
    expect(session.loadedSkills()).toEqual(["chart", "csv"]);
  });
});

describe("the llm pre-pass on a large catalog", () => {
  // 301 skills of ~70 characters of description each: ~21 kB of catalog lines.
  const topics = ["invoice", "deploy", "translate", "audit", "chart", "email", "pdf"];
  const memory = Array.from({ length: 301 }, (_, i) => ({
    name: `skill-${String(i).padStart(3, "0")}`,
    description: `Handles ${topics[i % topics.length]} work of kind ${i}, when the user asks for it.`,
    body: `BODY OF SKILL ${i}`,
  }));
  memory[150] = {
    name: "csv-summary",
    description: "Summarises a CSV file column by column.",
    body: "CSV BODY",
  };

  it("sends the search's best candidates under the token budget, not the whole catalog, and loads the pick", async () => {
    const catalog = await createCatalog({ roots: [], memory });
    const model = scriptedModel([{ text: '{"skills": ["csv-summary"]}' }, { text: "Summary done." }]);
    const agent = await createSkillAgent({ model, catalog, select: { mode: "llm" } });
    try {
      const result = await agent.send("summarise this csv file for me");
      expect(result.text).toBe("Summary done.");
      const selection = JSON.stringify(model.calls[0]!.prompt);
      expect(selection).toContain("- csv-summary: Summarises a CSV file column by column.");
      // The whole catalog is ~21 kB; the candidates fit 1,000 tokens.
      expect(selection.length).toBeLessThan(6000);
      expect(selection).not.toContain("skill-000:");
      expect(JSON.stringify(model.calls[1]!.prompt)).toContain("CSV BODY");
    } finally {
      await agent.close();
    }
  });

  it("a catalog that fits the budget is sent whole; nothing matching sends no request", async () => {
    const { session } = await tinySession(skills);
    expect((await selectionCandidates(session, "unrelated")).map((s) => s.name)).toEqual([
      "chart",
      "csv",
      "email",
      "pdf",
    ]);
    const large = createSkillSession({ catalog: await createCatalog({ roots: [], memory }) });
    expect(await selectionCandidates(large, "zzzz qqqq")).toEqual([]);
    const model = scriptedModel([{ text: "{}" }]);
    await selectSkills({ mode: "llm", session: large, model, message: "zzzz qqqq" });
    expect(model.calls).toHaveLength(0);
  });
});
