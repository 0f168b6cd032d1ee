import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createExecutor } from "../exec/create-executor.js";
import { probeSandbox } from "../exec/sandbox-executor.js";
import { checkAssertion, type TrialOutputs } from "./check-assertion.js";
import type { OutcomeAssertion } from "./outcome-cases.js";

let tmp: string;
let skill: string;
let outputs: TrialOutputs;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "skillrt-check-"));
  skill = path.join(tmp, "skill");
  const trialDir = path.join(tmp, "trial");
  await mkdir(path.join(skill, "evals"), { recursive: true });
  await mkdir(path.join(trialDir, "files", "out"), { recursive: true });
  await writeFile(
    path.join(trialDir, "files", "out", "data.json"),
    '{"rows": [{"name": "ann"}], "total": 2}',
  );
  await writeFile(path.join(trialDir, "files", "out", "report.md"), "# Report\nrows: 2\n");
  await writeFile(path.join(trialDir, "answer.md"), "There are 2 rows.");
  await writeFile(
    path.join(skill, "evals", "check.mjs"),
    [
      'import { readFileSync } from "node:fs";',
      'const answer = readFileSync(process.env.ANSWER_FILE, "utf8");',
      'const report = readFileSync("out/report.md", "utf8");',
      "const secret = process.argv[2];",
      "if (secret) { try { readFileSync(secret); console.log('read the secret'); } catch { console.log('no secret'); process.exit(3); } }",
      "process.exit(answer.includes('2 rows') && report.includes('rows: 2') ? 0 : 1);",
    ].join("\n"),
  );
  outputs = {
    trialDir,
    filesDir: path.join(trialDir, "files"),
    answer: "There are 2 rows.",
    answerFile: path.join(trialDir, "answer.md"),
  };
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const check = (a: OutcomeAssertion, options = {}) => checkAssertion(a, outputs, skill, options);

describe("checkAssertion", () => {
  it("checks files and the answer: exists, contains, not_contains, matches, JSON fields", async () => {
    expect(await check({ file: "out/report.md" })).toEqual({ text: "out/report.md exists", passed: true });
    expect(await check({ file: "out/missing.md" })).toMatchObject({
      passed: false,
      detail: "out/missing.md was not written",
    });
    expect(await check({ file: "out/missing.md", exists: false })).toMatchObject({ passed: true });
    expect(await check({ file: "out/report.md", matches: "rows: \\d+" })).toMatchObject({ passed: true });
    expect(await check({ file: "out/report.md", contains: "columns" })).toMatchObject({
      passed: false,
      detail: '"columns" not found',
    });
    expect(await check({ not_contains: "3 rows" })).toMatchObject({
      text: 'the answer does not contain "3 rows"',
      passed: true,
    });
    expect(await check({ file: "out/data.json", json: { "rows.0.name": "ann", total: 2 } })).toMatchObject({
      passed: true,
    });
    expect(await check({ file: "out/data.json", json: { total: 3 } })).toMatchObject({
      passed: false,
      detail: "total is 2, expected 3",
    });
    expect(await check({ file: "out/report.md", json: { a: 1 } })).toMatchObject({
      passed: false,
      detail: "not JSON",
    });
    expect(await check({ file: "../answer.md" })).toMatchObject({
      passed: false,
      detail: "../answer.md is outside the trial's files",
    });
  });

  it("runs a script of the skill's evals/ on the host: exit 0 passes; a missing or outside script fails", async () => {
    expect(await check({ script: "evals/check.mjs" }, { searchPath: process.env["PATH"] })).toMatchObject({
      text: "evals/check.mjs exits 0",
      passed: true,
    });
    outputs.answer = "no idea";
    await writeFile(outputs.answerFile, "no idea");
    expect(await check({ script: "evals/check.mjs" }, { searchPath: process.env["PATH"] })).toMatchObject({
      passed: false,
      detail: "exited 1",
    });
    expect(await check({ script: "evals/nope.py" })).toMatchObject({
      passed: false,
      detail: "evals/nope.py does not exist in the skill folder",
    });
    await writeFile(path.join(tmp, "outside.sh"), "exit 0\n");
    await symlink(path.join(tmp, "outside.sh"), path.join(skill, "evals", "link.sh"));
    expect(await check({ script: "evals/link.sh" })).toMatchObject({
      passed: false,
      detail: "evals/link.sh is outside the skill folder",
    });
  });

  it.skipIf(!probeSandbox().ok)(
    "in the sandbox the script sees the skill and the trial, not the rest of the host",
    async () => {
      const executor = createExecutor({ kind: "sandbox" }).executor;
      const options = { executor, searchPath: process.env["PATH"] };
      expect(await check({ script: "evals/check.mjs" }, options)).toMatchObject({ passed: true });
      const secret = path.join(tmp, "secret.txt");
      await writeFile(secret, "key");
      // On the host the script can read any file the user can; in the sandbox it cannot.
      expect(
        await check({ script: "evals/check.mjs", args: [secret] }, { searchPath: process.env["PATH"] }),
      ).toMatchObject({
        passed: true,
        detail: "read the secret",
      });
      expect(await check({ script: "evals/check.mjs", args: [secret] }, options)).toMatchObject({
        passed: false,
        detail: "exited 3: no secret",
      });
    },
  );
});
