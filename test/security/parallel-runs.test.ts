/**
 * Parallel `skill_run` calls in one session (a model's parallel tool calls in one step): all succeed,
 * each gets its own run folder, and staging the same skill and inputs at the same time never races.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SkillRecord } from "../../src/catalog/types.js";
import { createWorkspace } from "../../src/exec/create-workspace.js";
import type { Workspace } from "../../src/exec/workspace.js";
import { attackExecutor, attackSkill, contextFor, runAndShow, tempDir } from "./support.js";

describe("parallel runs in one workspace", () => {
  let base: string;
  let skill: SkillRecord;
  let ws: Workspace;
  beforeAll(async () => {
    base = await tempDir("skillrt-sec-par-");
    skill = await attackSkill(base);
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  for (const count of [3, 12]) {
    it(`${count} parallel calls on a fresh workspace (first staging included) all succeed`, async () => {
      ws = await createWorkspace({ baseDir: base });
      const context = contextFor(ws, skill, attackExecutor());
      try {
        const calls = Array.from({ length: count }, (_, i) =>
          runAndShow(
            {
              name: "attacker",
              command: `cat $WORK_DIR/inputs/SKILL-${i}.md >/dev/null && echo run-${i} > $RUN_DIR/mark.txt && echo out-${i} > $OUTPUT_DIR/o-${i}.txt && cat $RUN_DIR/mark.txt`,
              inputs: [
                { from: "skill://attacker/SKILL.md", to: `inputs/SKILL-${i}.md` },
                { from: "skill://attacker/scripts", to: `inputs/scripts-${i}` },
              ],
              outputs: { globs: [`out/o-${i}.txt`], inline: true },
            },
            context,
          ),
        );
        const results = await Promise.all(calls);
        const ran = results.map((r) => r.result);
        for (const [i, r] of ran.entries()) {
          if (r.status !== "ran") throw new Error(r.message);
          expect(r.exitCode, results[i]?.seen).toBe(0);
          expect(r.stdout).toBe(`run-${i}\n`);
          expect(r.outputFiles[0]?.content).toBe(`out-${i}\n`);
        }
        const runDirs = new Set(ran.map((r) => (r.status === "ran" ? r.runDir : "")));
        expect(runDirs.size).toBe(count);
        for (const dir of runDirs) expect(path.dirname(dir)).toBe("runs");
        console.info(JSON.stringify({ attack: "parallel-calls", calls: count, failures: 0 }));
      } finally {
        await ws.dispose();
      }
    }, 120_000);
  }
});
