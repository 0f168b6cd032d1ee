import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { createSkillAgent } from "../engine/create-skill-agent.js";
import { graderModel, wordCountModel, wordCountSkill } from "./__fixtures__/word-count-model.js";
import { type OutcomeCase, parseOutcomeCases } from "./outcome-cases.js";
import { type OutcomeArm, type OutcomeGrader, runOutcomeEval } from "./run-outcome-eval.js";
import { wilsonInterval } from "./wilson-interval.js";

let results: string;
let empty: string;
beforeEach(async () => {
  results = await mkdtemp(path.join(os.tmpdir(), "skillrt-outcome-"));
  empty = await mkdtemp(path.join(os.tmpdir(), "skillrt-outcome-empty-"));
});
afterEach(async () => {
  await rm(results, { recursive: true, force: true });
  await rm(empty, { recursive: true, force: true });
});

async function fixtureCases(): Promise<OutcomeCase[]> {
  const parsed = parseOutcomeCases(await readFile(path.join(wordCountSkill, "evals/evals.json"), "utf8"));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.cases;
}

/** The with-skill and baseline arms over one agent model (a catalog of the skill, or of nothing). */
async function arms(model: ReturnType<typeof wordCountModel>): Promise<OutcomeArm[]> {
  const withSkill = await createCatalog({ roots: [wordCountSkill] });
  const without = await createCatalog({ roots: [empty] });
  const arm = (id: string, label: string, catalog: typeof withSkill): OutcomeArm => ({
    id,
    label,
    fingerprint: id,
    createAgent: () => createSkillAgent({ model, catalog, cwd: wordCountSkill, executor: "auto" }),
  });
  return [arm("with-skill", "with the skill", withSkill), arm("baseline", "without the skill", without)];
}

async function evaluate(model: ReturnType<typeof wordCountModel>, grader: OutcomeGrader, trials = 2) {
  const progress: string[] = [];
  const report = await runOutcomeEval({
    cases: await fixtureCases(),
    arms: await arms(model),
    skill: { name: "word-count", dir: wordCountSkill },
    resultsDir: results,
    modelId: "mock/word-count",
    grader,
    trials,
    concurrency: 3,
    onProgress: (p) =>
      progress.push(
        `${p.done}/${p.total} ${p.arm} ${p.passed ? "pass" : "fail"}${p.resumed ? " resumed" : ""}`,
      ),
  });
  return { report, progress };
}

describe("runOutcomeEval", () => {
  it("a model that solves the task only with the skill: 1.0 with it, 0.0 without, the delta, tokens and tool calls per arm", async () => {
    const model = wordCountModel();
    const grader = graderModel();
    const { report, progress } = await evaluate(model, { model: grader, id: "mock/grader" });
    const [withSkill, baseline] = report.arms;
    expect(withSkill).toMatchObject({
      arm: "with-skill",
      passRate: { passed: 2, total: 2, rate: 1 },
      triggerRate: 1,
    });
    expect(baseline).toMatchObject({
      arm: "baseline",
      passRate: { passed: 0, total: 2, rate: 0 },
      triggerRate: 0,
    });
    expect(withSkill?.passRate).toEqual(wilsonInterval(2, 2));
    expect(withSkill!.passRate.low).toBeGreaterThan(0.3);
    expect(baseline!.passRate.high).toBeLessThan(0.7);
    expect(report.delta).toBe(1);
    expect(report.cases[0]?.delta).toBe(1);
    // Three model calls (load, run, answer) with the skill, one without: tokens and tool calls say so.
    expect(withSkill?.tokens).toEqual({ total: 300, mean: 150 });
    expect(baseline?.tokens).toEqual({ total: 100, mean: 50 });
    expect(withSkill?.toolCalls).toEqual({ total: 4, mean: 2 });
    expect(baseline?.toolCalls).toEqual({ total: 0, mean: 0 });
    expect(progress).toHaveLength(4);
    expect(progress.at(-1)).toMatch(/^4\/4 /);

    const trial = report.cases[0]!.trials.find((t) => t.arm === "with-skill")!;
    expect(trial.assertions.map((a) => [a.text, a.passed])).toEqual([
      ['out/count.json has JSON {"words":10}', true],
      ["evals/check-count.mjs exits 0", true],
      ['the answer contains "10 words"', true],
    ]);
    expect(trial.files).toEqual([{ path: "out/count.json", bytes: expect.any(Number) }]);
    const failed = report.cases[0]!.trials.find((t) => t.arm === "baseline")!;
    expect(failed.assertions[0]).toMatchObject({ passed: false, detail: "out/count.json was not written" });
    expect(failed.grader).toEqual({ skipped: "an assertion failed" });
    // The report on disk is the same report.
    expect(JSON.parse(await readFile(path.join(results, "report.json"), "utf8")).delta).toBe(1);
  });

  it("the grader's prompt holds the rubric, the final answer and the files; its verdict is in the report", async () => {
    const grader = graderModel();
    const { report } = await evaluate(wordCountModel(), { model: grader, id: "mock/grader" }, 1);
    expect(grader.prompts).toHaveLength(1); // the baseline failed its assertions: no grader call
    const prompt = grader.prompts[0]!;
    expect(prompt).toContain("Pass only when the count is exact; an estimate fails.");
    expect(prompt).toContain("Expected output: The answer gives the exact count, 10 words");
    expect(prompt).toContain("- The answer states that the poem has 10 words");
    expect(prompt).toContain("How many words are in poem.txt? Save the count.");
    expect(prompt).toContain("The poem has 10 words; the count is saved.");
    expect(prompt).toContain("## out/count.json");
    expect(prompt).toContain('{"file":"poem.txt","words":10}');
    const trial = report.cases[0]!.trials.find((t) => t.arm === "with-skill")!;
    expect(trial.grader).toMatchObject({
      verdict: { pass: true, reasons: "The answer gives the exact count, 10." },
      prompt,
    });
  });

  it("a grader that fails is reported, not counted as a pass — and a resumed run grades it again without rerunning", async () => {
    const model = wordCountModel();
    const down = graderModel(() => {
      throw new Error("grader provider down");
    });
    const first = await evaluate(model, { model: down, id: "mock/grader" }, 1);
    expect(first.report.arms[0]).toMatchObject({ passRate: { passed: 0, rate: 0 }, graderErrors: 1 });
    const trial = first.report.cases[0]!.trials.find((t) => t.arm === "with-skill")!;
    expect(trial.passed).toBe(false);
    expect(trial.grader).toMatchObject({ error: expect.stringContaining("grader provider down") });

    const garbled = await runOutcomeEval({
      cases: await fixtureCases(),
      arms: await arms(model),
      skill: { name: "word-count", dir: wordCountSkill },
      resultsDir: results,
      modelId: "mock/word-count",
      grader: { model: graderModel(() => "Looks fine to me!"), id: "mock/grader" },
      trials: 1,
    });
    expect(garbled.arms[0]).toMatchObject({ passRate: { passed: 0 }, graderErrors: 1 });
    expect(garbled.cases[0]!.trials[0]!.grader).toMatchObject({
      error: 'the grader\'s answer is not a verdict: "Looks fine to me!"',
    });

    const callsBefore = model.calls.length;
    const again = await evaluate(model, { model: graderModel(), id: "mock/grader" }, 1);
    expect(model.calls.length).toBe(callsBefore); // no trial ran again
    expect(again.report.resumedTrials).toBe(2);
    expect(again.progress.every((line) => line.endsWith(" resumed"))).toBe(true);
    expect(again.report.arms[0]).toMatchObject({ passRate: { passed: 1, rate: 1 }, graderErrors: 0 });
  });

  it("a finished trial is not rerun; more trials run only the new ones; another model runs them all again", async () => {
    const model = wordCountModel();
    const grader = { model: graderModel(), id: "mock/grader" };
    await evaluate(model, grader, 1);
    const once = model.calls.length;
    expect(once).toBe(4);
    const more = await evaluate(model, grader, 2);
    expect(more.report.resumedTrials).toBe(2);
    expect(model.calls.length).toBe(once * 2);
    const other = await runOutcomeEval({
      cases: await fixtureCases(),
      arms: await arms(model),
      skill: { name: "word-count", dir: wordCountSkill },
      resultsDir: results,
      modelId: "mock/another-model",
      grader,
      trials: 1,
    });
    expect(other.resumedTrials).toBe(0);
  });

  it("trigger checks: a skill that must load, one that must not (a negative control), over follow-up turns", async () => {
    const model = wordCountModel();
    const parsed = parseOutcomeCases(
      [
        "- {id: loads, prompt: How many words are in poem.txt?, should_trigger: true, turns: [thanks]}",
        "- {id: negative, prompt: Tell me a joke, forbid: [word-count]}",
      ].join("\n"),
    );
    if (!parsed.ok) throw new Error(parsed.message);
    const report = await runOutcomeEval({
      cases: parsed.cases,
      arms: await arms(model),
      skill: { name: "word-count", dir: wordCountSkill },
      resultsDir: results,
      modelId: "mock",
      trials: 1,
      concurrency: 1,
    });
    const byCase = Object.fromEntries(
      report.cases.map((c) => [
        c.id,
        c.trials.map((t) => [t.arm, t.passed, t.assertions.map((a) => a.text)]),
      ]),
    );
    // The mock model loads the skill whenever it is offered: right for one case, wrong for the other.
    expect(byCase).toEqual({
      loads: [
        ["with-skill", true, ["word-count loaded"]],
        ["baseline", false, ["word-count loaded"]],
      ],
      negative: [
        ["with-skill", false, ["word-count not loaded"]],
        ["baseline", true, ["word-count not loaded"]],
      ],
    });
    const followed = report.cases[0]!.trials[0]!.run.transcript.filter((m) => m.role === "user");
    expect(followed.map((m) => (typeof m.content === "string" ? m.content : ""))).toContain("thanks");
    expect(report.arms[0]?.passRate.rate).toBe(0.5);
  });

  it("runs at most `concurrency` trials at once", async () => {
    const model = wordCountModel();
    let inFlight = 0;
    let most = 0;
    const counted = (await arms(model)).map((arm) => ({
      ...arm,
      createAgent: async () => {
        const agent = await arm.createAgent();
        inFlight++;
        most = Math.max(most, inFlight);
        return {
          ...agent,
          send: agent.send,
          subscribe: agent.subscribe,
          get workspace() {
            return agent.workspace;
          },
          history: agent.history,
          close: async () => {
            inFlight--;
            await agent.close();
          },
        } as typeof agent;
      },
    }));
    const report = await runOutcomeEval({
      cases: await fixtureCases(),
      arms: counted,
      skill: { name: "word-count", dir: wordCountSkill },
      resultsDir: results,
      modelId: "mock",
      grader: { model: graderModel(), id: "g" },
      trials: 3,
      concurrency: 2,
    });
    expect(most).toBe(2);
    expect(report.arms.map((a) => a.passRate.total)).toEqual([3, 3]);
  });
});

describe("runOutcomeEval, interrupted", () => {
  it("a cancelled eval starts nothing more and throws; trials that did not run (or could not start) run again next time", async () => {
    const model = wordCountModel();
    const grader = { model: graderModel(), id: "g" };
    const stop = new AbortController();
    let starts = 0;
    const flaky = (await arms(model)).map((arm) => ({
      ...arm,
      createAgent: async () => {
        if (arm.id === "baseline" && ++starts === 1) throw new Error("no executor today");
        return arm.createAgent();
      },
    }));
    const options = {
      cases: await fixtureCases(),
      skill: { name: "word-count", dir: wordCountSkill },
      resultsDir: results,
      modelId: "mock",
      grader,
      trials: 2,
      concurrency: 1,
    };
    const seen: string[] = [];
    await expect(
      runOutcomeEval({
        ...options,
        arms: flaky,
        abortSignal: stop.signal,
        onProgress: (p) => {
          seen.push(`${p.arm} ${p.trial} ${p.passed}`);
          if (p.done === 3) stop.abort(new Error("stopped by the user"));
        },
      }),
    ).rejects.toThrow("stopped by the user");
    expect(seen).toEqual(["with-skill 1 true", "with-skill 2 true", "baseline 1 false"]);

    const again = await runOutcomeEval({ ...options, arms: flaky });
    // The two finished trials come from the first run; the one that could not start, and the one never
    // started, run now.
    expect(again.resumedTrials).toBe(2);
    const baseline = again.cases[0]!.trials.filter((t) => t.arm === "baseline");
    expect(baseline.map((t) => t.run.error)).toEqual([undefined, undefined]);
    expect(again.arms.map((a) => a.passRate.rate)).toEqual([1, 0]);
  });

  it("a trial whose agent cannot start fails with the reason, counted as an error", async () => {
    const broken = (await arms(wordCountModel())).map((arm) => ({
      ...arm,
      createAgent: async () => {
        throw new Error("the sandbox is missing");
      },
    }));
    const report = await runOutcomeEval({
      cases: await fixtureCases(),
      arms: broken,
      skill: { name: "word-count", dir: wordCountSkill },
      resultsDir: results,
      modelId: "mock",
      trials: 1,
    });
    expect(report.arms.map((a) => [a.passRate.rate, a.errors])).toEqual([
      [0, 1],
      [0, 1],
    ]);
    expect(report.cases[0]!.trials[0]).toMatchObject({
      passed: false,
      run: { error: "the agent could not be started: the sandbox is missing" },
      grader: { skipped: "the trial failed" },
    });
  });
});

describe("wilsonInterval", () => {
  it("is the Wilson score interval, sane at 0, 1 and no trials", () => {
    expect(wilsonInterval(0, 0)).toEqual({ passed: 0, total: 0, rate: 0, low: 0, high: 1 });
    expect(wilsonInterval(5, 10)).toEqual({ passed: 5, total: 10, rate: 0.5, low: 0.237, high: 0.763 });
    expect(wilsonInterval(10, 10)).toMatchObject({ rate: 1, low: 0.722, high: 1 });
    expect(wilsonInterval(0, 10)).toMatchObject({ rate: 0, low: 0, high: 0.278 });
  });
});
