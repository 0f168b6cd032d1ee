import { execFileSync } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { createSkillAgent } from "../engine/create-skill-agent.js";
import { graderModel, wordCountModel, wordCountSkill } from "./__fixtures__/word-count-model.js";
import { parseOutcomeCases } from "./outcome-cases.js";
import { runOutcomeEval } from "./run-outcome-eval.js";
import { skillAtGitRef } from "./skill-at-git-ref.js";

let tmp: string;
let repo: string;
let skill: string;
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=eval", "-c", "user.email=eval@example.com", ...args], {
    cwd: repo,
    encoding: "utf8",
  });

// v1 of the skill counted lines, not words; the work tree has the fixed script.
const OLD_SCRIPT = `import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
const file = process.argv[2];
const words = readFileSync(file, "utf8").split("\\n").filter(Boolean).length;
writeFileSync(path.join(process.env.OUTPUT_DIR ?? ".", "count.json"), JSON.stringify({ file: path.basename(file), words }));
process.stdout.write(\`\${words} words\\n\`);
`;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "skillrt-gitref-"));
  repo = path.join(tmp, "repo");
  skill = path.join(repo, "skills", "word-count");
  await cp(wordCountSkill, skill, { recursive: true });
  git("init", "-q");
  await writeFile(path.join(skill, "scripts/count.mjs"), OLD_SCRIPT);
  git("add", "-A");
  git("commit", "-qm", "word-count v1");
  git("tag", "v1");
  await cp(path.join(wordCountSkill, "scripts/count.mjs"), path.join(skill, "scripts/count.mjs"));
  git("commit", "-qam", "word-count: count words, not lines");
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("skillAtGitRef", () => {
  it("writes the skill folder as it was at the revision, leaving the work tree as it is", async () => {
    const old = await skillAtGitRef(skill, "v1", path.join(tmp, "old"));
    expect(old).toBe(path.join(tmp, "old", "word-count"));
    expect(await readFile(path.join(old, "scripts/count.mjs"), "utf8")).toBe(OLD_SCRIPT);
    expect(await readFile(path.join(old, "evals/files/poem.txt"), "utf8")).toContain("little cat feet");
    expect(await readFile(path.join(skill, "scripts/count.mjs"), "utf8")).not.toBe(OLD_SCRIPT);
    expect(git("status", "--porcelain")).toBe("");
  });

  it("says what is wrong: not a repository, an unknown revision, a folder that did not exist then", async () => {
    await expect(skillAtGitRef(wordCountSkill, "--output=x", tmp)).rejects.toThrow(
      "'--output=x' is not a git revision",
    );
    const outside = await mkdtemp(path.join(os.tmpdir(), "skillrt-nogit-"));
    try {
      await expect(skillAtGitRef(outside, "v1", tmp)).rejects.toThrow(/is not in a git repository/);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
    await expect(skillAtGitRef(skill, "no-such-tag", tmp)).rejects.toThrow(
      "the skill folder skills/word-count does not exist at git revision 'no-such-tag'",
    );
  });

  it("a baseline from a git ref of the same skill runs the old version", async () => {
    const old = await skillAtGitRef(skill, "v1", path.join(tmp, "old"));
    const parsed = parseOutcomeCases(await readFile(path.join(skill, "evals/evals.json"), "utf8"));
    if (!parsed.ok) throw new Error(parsed.message);
    const model = wordCountModel();
    const arm = (id: string, dir: string) => ({
      id,
      label: id,
      fingerprint: id,
      createAgent: async () =>
        createSkillAgent({
          model,
          catalog: await createCatalog({ roots: [dir] }),
          cwd: dir,
          executor: "auto",
        }),
    });
    const report = await runOutcomeEval({
      cases: parsed.cases,
      arms: [arm("with-skill", skill), arm("baseline", old)],
      skill: { name: "word-count", dir: skill },
      resultsDir: path.join(tmp, "results"),
      modelId: "mock",
      grader: { model: graderModel(), id: "mock/grader" },
      trials: 1,
    });
    expect(report.arms.map((a) => [a.arm, a.passRate.rate, a.triggerRate])).toEqual([
      ["with-skill", 1, 1],
      ["baseline", 0, 1],
    ]);
    const oldTrial = report.cases[0]!.trials.find((t) => t.arm === "baseline")!;
    // The old script counted the poem's 3 lines.
    expect(oldTrial.run.answer).toBe("The poem has 3 words; the count is saved.");
    expect(oldTrial.assertions[0]).toMatchObject({ passed: false, detail: "words is 3, expected 10" });
    expect(report.delta).toBe(1);
  });
});
