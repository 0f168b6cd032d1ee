/**
 * `skillrt eval --outcome` end to end: the built CLI over a copy of the word-count fixture skill (its
 * evals/evals.json has input files, assertions, a script check and a rubric) against a loopback
 * OpenAI-compatible server. Trials run one at a time (--concurrency 1), so the script is the order of
 * the model calls: with the skill the model loads it, runs its script in the sandbox and answers, and the
 * grader (the same model) gives a verdict; without it the model guesses. Then the HTML report in Chromium.
 */
import { execFileSync, spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hasChromium, launchChromium } from "./support/chromium.mjs";
import {
  type LoopbackProvider,
  loopbackEnv,
  type ScriptedReply,
  startLoopbackProvider,
} from "./support/loopback-provider.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

const repo = path.resolve(import.meta.dirname, "../..");
const fixture = path.join(repo, "src/eval/__fixtures__/word-count");
const shots = path.join(repo, "test-results");
let cwd: string;
let server: LoopbackProvider | undefined;

beforeAll(() => assertBuilt());
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-eval-outcome-"));
  await cp(fixture, path.join(cwd, "word-count"), { recursive: true });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(cwd, { recursive: true, force: true });
});

const verdict = (pass: boolean): ScriptedReply => ({
  text: JSON.stringify({
    pass,
    reasons: pass ? "The answer gives the exact count, 10 words." : "No exact count.",
    expectations: [
      { text: "The answer states that the poem has 10 words", passed: pass, evidence: "the answer" },
    ],
  }),
});
const solved: ScriptedReply[] = [
  { toolCalls: [{ name: "skill_load", input: { name: "word-count" } }] },
  {
    toolCalls: [
      {
        name: "skill_run",
        input: { name: "word-count", command: 'node scripts/count.mjs "$WORK_DIR/inputs/poem.txt"' },
      },
    ],
  },
  { text: "The poem has 10 words; the count is saved in out/count.json." },
  verdict(true), // the grader
];
const guessed: ScriptedReply = { text: "It looks like a short poem of about a dozen words." };

async function outcome(script: ScriptedReply[], args: string[]) {
  server = await startLoopbackProvider("openai", script);
  return runCli(["eval", "--outcome", "word-count", "--concurrency", "1", ...args], {
    cwd,
    env: loopbackEnv(server),
    timeoutMs: 120_000,
  });
}

describe("skillrt eval --outcome", () => {
  it("with the skill 1.0, without it 0.0: the delta, tokens per arm, the grader's verdict, exit 0 at the thresholds; a rerun resumes", async () => {
    const run = await outcome(
      [...solved, ...solved, guessed, guessed],
      ["--trials", "2", "--json", "--min-pass", "1", "--min-delta", "1"],
    );
    expect(run.stderr).toContain("fields kept in the report but not used: evals.0.difficulty");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ skill: "word-count", trialsPerArm: 2, delta: 1, minPass: 1, minDelta: 1 });
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
    // The loopback server counts 120 tokens a call: three agent calls with the skill, one without.
    expect(withSkill.tokens).toEqual({ total: 720, mean: 360 });
    expect(baseline.tokens).toEqual({ total: 240, mean: 120 });
    expect(withSkill.toolCalls).toEqual({ total: 4, mean: 2 });
    const trial = report.cases[0].trials[0];
    expect(trial).toMatchObject({ arm: "with-skill", passed: true, files: [{ path: "out/count.json" }] });
    expect(trial.assertions.every((a: { passed: boolean }) => a.passed)).toBe(true);
    expect(trial.grader.verdict).toMatchObject({
      pass: true,
      reasons: "The answer gives the exact count, 10 words.",
    });
    expect(report.cases[0].extra).toEqual({ difficulty: "easy" });
    expect(server!.requests).toHaveLength(10);
    // The agent saw the skill without its evals/ folder (cases, expected outputs, checks).
    const afterLoad = JSON.stringify(server!.requests[1]!.body.messages);
    expect(afterLoad).toContain("<file>scripts/count.mjs</file>");
    expect(afterLoad).not.toContain("evals/");
    // The grader's request (the 4th) carried the rubric, the answer and the file the trial left.
    const graderRequest = JSON.stringify(server!.requests[3]!.body.messages);
    expect(graderRequest).toContain("Pass only when the count is exact; an estimate fails.");
    expect(graderRequest).toContain("The poem has 10 words; the count is saved in out/count.json.");
    expect(graderRequest).toContain('{\\"file\\":\\"poem.txt\\",\\"words\\":10}');
    const results = path.join(cwd, ".skillrt", "evals", "word-count");
    expect((await stat(path.join(results, "report.html"))).size).toBeGreaterThan(1000);
    expect(JSON.parse(await readFile(path.join(results, "report.json"), "utf8")).delta).toBe(1);

    // Again over the same results: nothing runs (no model calls), the table comes from the saved trials.
    const again = await outcome([], ["--trials", "2"]);
    expect(again.code).toBe(0);
    expect(server!.requests).toHaveLength(0);
    expect(again.stderr).toContain("[4/4] case 1 · baseline · trial 2: fail (from an earlier run)");
    expect(again.stdout).toMatch(
      /^case +with the skill +without the skill +delta\n1 +2\/2 100% \[34\.2%-100%\] +0\/2 0% \[0%-65\.8%\] +\+100 pts\n/,
    );
    expect(again.stdout).toContain(
      "Delta +100 pts (with the skill against without the skill), 2 trials per case and arm",
    );
    expect(again.stdout).toContain("4 trials from an earlier run");
  }, 180_000);

  it("exits 1 under --min-pass and --min-delta, saying which", async () => {
    const run = await outcome(
      [guessed, guessed],
      ["--trials", "1", "--min-pass", "0.5", "--min-delta", "0.2"],
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("skillrt eval: pass rate with the skill 0% is below --min-pass 50%\n");
    expect(run.stderr).toContain("skillrt eval: the skill's delta 0 pts is below --min-delta +20 pts\n");
  }, 120_000);

  it("--baseline REV runs the skill as it was at a git revision", async () => {
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=eval", "-c", "user.email=eval@example.com", ...args], { cwd });
    const script = path.join(cwd, "word-count", "scripts", "count.mjs");
    const fixed = await readFile(script, "utf8");
    // v1 counted lines, not words.
    await writeFile(script, fixed.replace(".split(/\\s+/)", '.split("\\n")'));
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "v1");
    git("tag", "v1");
    await writeFile(script, fixed);
    git("commit", "-qam", "count words");
    const run = await outcome(
      [...solved, ...solved.slice(0, 3)],
      ["--trials", "1", "--baseline", "v1", "--json"],
    );
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(
      report.arms.map((a: { label: string; passRate: { rate: number } }) => [a.label, a.passRate.rate]),
    ).toEqual([
      ["with the skill", 1],
      ["the skill at v1", 0],
    ]);
    const old = report.cases[0].trials.find((t: { arm: string }) => t.arm === "baseline");
    expect(old.loaded).toEqual(["word-count"]);
    expect(old.assertions[0]).toMatchObject({ passed: false, detail: "words is 3, expected 10" });
    expect(git("status", "--porcelain", "--", "word-count").toString()).toBe("");
  }, 120_000);

  it("Ctrl-C stops the eval (exit 130) keeping finished trials; the same command goes on from there", async () => {
    server = await startLoopbackProvider("openai", [...solved, { text: "slow", delayMs: 30_000 }]);
    const child = spawn(
      process.execPath,
      [
        path.join(repo, "bin/skillrt.js"),
        "eval",
        "--outcome",
        "word-count",
        "--concurrency",
        "1",
        "--trials",
        "2",
      ],
      {
        cwd,
        env: {
          PATH: process.env["PATH"] ?? "/usr/bin:/bin",
          HOME: cwd,
          NO_COLOR: "1",
          ...loopbackEnv(server),
        },
      },
    );
    let stderr = "";
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    await new Promise<void>((resolve) =>
      child.stderr.on("data", (chunk) => {
        stderr += String(chunk);
        if (stderr.includes("[1/4]")) resolve();
      }),
    );
    // The second trial is waiting on the model now.
    while (server.requests.length < 5) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toContain("skillrt eval: cancelled; finished trials are kept in");
    await server.close();

    server = await startLoopbackProvider("openai", [...solved, guessed, guessed]);
    const again = await runCli(
      ["eval", "--outcome", "word-count", "--concurrency", "1", "--trials", "2", "--json"],
      {
        cwd,
        env: loopbackEnv(server),
        timeoutMs: 120_000,
      },
    );
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("[1/4] case 1 · with-skill · trial 1: pass (from an earlier run)");
    expect(again.stderr).toMatch(/\[2\/4\] case 1 · with-skill · trial 2: pass \(\d/);
    expect(JSON.parse(again.stdout)).toMatchObject({ resumedTrials: 1, delta: 1 });
    expect(server.requests).toHaveLength(6);
  }, 180_000);

  it("says what is wrong: no cases, bad flags, a baseline that is neither a folder nor a revision", async () => {
    await rm(path.join(cwd, "word-count", "evals", "evals.json"));
    const none = await runCli(["eval", "--outcome", "word-count"], { cwd, env: {} });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      "has no evals/evals.json or evals/cases.yaml; write one, or give --cases FILE",
    );
    const flag = await runCli(["eval", "--outcome", "word-count", "--min-delta", "2"], { cwd, env: {} });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("--min-delta takes a number from -1 to 1, got '2'");
    const misplaced = await runCli(["eval", "cases.yaml", "--trials", "2"], { cwd, env: {} });
    expect(misplaced.code).toBe(2);
    expect(misplaced.stderr).toContain("--trials goes with --outcome");
    await cp(path.join(fixture, "evals", "evals.json"), path.join(cwd, "word-count", "evals", "evals.json"));
    await rm(path.join(cwd, "word-count", "evals", "files", "poem.txt"));
    const missing = await runCli(["eval", "--outcome", "word-count"], { cwd, env: {} });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("case '1' names input file 'evals/files/poem.txt', which is not in");
    await cp(
      path.join(fixture, "evals", "files", "poem.txt"),
      path.join(cwd, "word-count", "evals", "files", "poem.txt"),
    );
    const baseline = await runCli(["eval", "--outcome", "word-count", "--baseline", "v0"], {
      cwd,
      env: { OPENAI_API_KEY: "sk-x", AGENT_MODEL: "m", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
    });
    expect(baseline.code).toBe(1);
    expect(baseline.stderr).toContain(
      "--baseline v0 is neither a skill folder nor a git revision of the skill",
    );
  });
});

describe.skipIf(!hasChromium)(
  `the outcome report in Chromium${hasChromium ? "" : " (skipped: /usr/bin/chromium is not installed)"}`,
  () => {
    it("shows both arms and, one click away, a trial's transcript", async () => {
      const run = await outcome([...solved, guessed], ["--trials", "1"]);
      expect(run.code).toBe(0);
      const html = path.join(cwd, ".skillrt", "evals", "word-count", "report.html");
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
        await page.goto(pathToFileURL(html).href);
        const overall = page.locator("table.arms").first();
        expect(await overall.locator("tbody th").allTextContents()).toEqual([
          "with the skill",
          "without the skill",
        ]);
        expect(await overall.locator("tbody td.rate").allTextContents()).toEqual([
          expect.stringMatching(/^100% \(1\/1; 95% CI 20\.7%–100%\)$/),
          expect.stringMatching(/^0% \(0\/1; 95% CI 0%–79\.3%\)$/),
        ]);
        expect(await page.locator(".headline").textContent()).toBe("Delta: +100 pts");
        const trial = page.locator("details.trial.pass").first();
        const transcript = trial.locator(".transcript");
        expect(await transcript.isVisible()).toBe(false);
        await trial.locator("summary").click();
        expect(await transcript.isVisible()).toBe(true);
        expect(await transcript.textContent()).toContain("→ skill_run");
        expect(await trial.locator(".verdict").first().textContent()).toContain(
          "Grader: pass — The answer gives the exact count, 10 words.",
        );
        expect(await trial.locator(".files").textContent()).toContain("out/count.json");
        await page.screenshot({ path: path.join(shots, "eval-outcome-report.png"), fullPage: true });
      } finally {
        await browser.close();
      }
    }, 120_000);
  },
);
