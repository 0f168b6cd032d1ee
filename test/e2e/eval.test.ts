/**
 * `skillrt eval` end to end: the built CLI against a loopback OpenAI-compatible server whose script
 * decides which skills load, on the example skills; and `--selector lexical` with no model at all.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type LoopbackProvider,
  type ScriptedReply,
  startLoopbackProvider,
} from "./support/loopback-provider.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

const examples = path.resolve(import.meta.dirname, "../../examples/skills");
let cwd: string;
let server: LoopbackProvider | undefined;

beforeAll(() => assertBuilt());
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-eval-"));
  await writeFile(
    path.join(cwd, "cases.yaml"),
    [
      "- name: csv",
      "  prompt: summarise my csv please",
      "  expect: [csv-summary]",
      "  forbid: [git-changelog]",
      "- name: changelog",
      "  prompt: what changed since the last release?",
      "  expect: [git-changelog]",
      "",
    ].join("\n"),
  );
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(cwd, { recursive: true, force: true });
});

const load = (name: string): ScriptedReply => ({ toolCalls: [{ name: "skill_load", input: { name } }] });
// Runs go case by case, run by run (--concurrency 1): csv ×2, then changelog ×2.
const script = (): ScriptedReply[] => [
  load("csv-summary"),
  { text: "Done." },
  { text: "I can do that without a skill." }, // csv, run 2: the skill did not trigger
  load("git-changelog"),
  { text: "Here it is." },
  load("git-changelog"),
  { text: "Here it is." },
];

async function evalRun(args: string[]) {
  server = await startLoopbackProvider("openai", script());
  return runCli(["eval", "cases.yaml", "--root", examples, "--runs", "2", "--concurrency", "1", ...args], {
    cwd,
    env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "sk-loopback", AGENT_MODEL: "loopback-model" },
  });
}

describe("skillrt eval", () => {
  it("reports trigger rates, flakiness and tokens matching what the scripted model did (--json)", async () => {
    const run = await evalRun(["--json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      selector: "model",
      runsPerCase: 2,
      totalRuns: 4,
      passedRuns: 3,
      passRate: 0.75,
    });
    expect(report.flakyCases).toBe(1);
    const [csv, changelog] = report.cases;
    expect(csv).toMatchObject({
      name: "csv",
      passed: 1,
      flaky: true,
      triggerRate: { "csv-summary": 0.5 },
      falseTriggers: 0,
    });
    expect(changelog).toMatchObject({
      name: "changelog",
      passed: 2,
      flaky: false,
      triggerRate: { "git-changelog": 1 },
    });
    expect(csv.tokens).toBeGreaterThan(0);
    expect(report.skills).toEqual([
      {
        name: "csv-summary",
        expectedRuns: 2,
        triggered: 1,
        triggerRate: 0.5,
        forbiddenRuns: 0,
        falseTriggers: 0,
      },
      {
        name: "git-changelog",
        expectedRuns: 2,
        triggered: 2,
        triggerRate: 1,
        forbiddenRuns: 2,
        falseTriggers: 0,
      },
    ]);
    expect(server?.requests).toHaveLength(7);
  });

  it("prints tables on a terminal and exits 1 under --min-pass", async () => {
    const run = await evalRun(["--min-pass", "0.8"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^case +passed +trigger rate +false triggers +flaky +tokens\n/);
    expect(run.stdout).toMatch(/\ncsv +1\/2 +csv-summary 50% +0 +yes +\d+\n/);
    expect(run.stdout).toMatch(/\ngit-changelog +2\/2 100% +0\/2\n/);
    expect(run.stdout).toContain("3/4 runs passed (75%), 1 flaky case");
    expect(run.stderr).toBe("skillrt eval: pass rate 75% is below --min-pass 80%\n");
  });

  it("--selector lexical runs with no model configured at all", async () => {
    const run = await runCli(
      ["eval", "cases.yaml", "--root", examples, "--selector", "lexical", "--json", "--min-pass", "1"],
      { cwd, env: {} },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ selector: "lexical", totalRuns: 6, passedRuns: 6, tokens: 0 });
  });

  it("rejects a broken cases file with where and what", async () => {
    await writeFile(path.join(cwd, "bad.yaml"), "- prompt: hi\n  expect: pdf\n");
    const run = await runCli(["eval", "bad.yaml", "--root", examples, "--selector", "lexical"], {
      cwd,
      env: {},
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("bad.yaml: expected a list of cases");
    expect(run.stderr).toContain("at 0.expect");
  });
});
