/**
 * `` !`cmd` `` through the agent: a trusted skill's directive runs in the agent's `cwd` (the project), as
 * Claude Code runs it in the session's directory — the docs' own `` !`git branch --show-current` ``.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { probeSandbox } from "../exec/sandbox-executor.js";
import { scriptedModel } from "../testing/scripted-model.js";
import { createSkillAgent } from "./create-skill-agent.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-prerender-agent-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe.skipIf(!probeSandbox().ok)("!`cmd` in the project directory (sandboxed agent)", () => {
  it("a loaded skill's !`git branch --show-current` shows the branch of the agent's cwd", async () => {
    const project = path.join(dir, "project");
    await mkdir(project);
    execFileSync("git", ["init", "-q", "-b", "release-7"], { cwd: project });
    const skills = path.join(dir, "skills");
    await mkdir(path.join(skills, "pr-summary"), { recursive: true });
    await writeFile(
      path.join(skills, "pr-summary", "SKILL.md"),
      "---\nname: pr-summary\ndescription: Summarises the current branch.\n---\nCurrent branch: !`git branch --show-current`\n",
    );
    const model = scriptedModel([
      { toolCalls: [{ name: "skill_load", input: '{"name":"pr-summary"}' }] },
      { text: "ok" },
    ]);
    const agent = await createSkillAgent({
      model,
      catalog: await createCatalog({ roots: [skills] }),
      cwd: project,
      executor: "sandbox",
    });
    try {
      const result = await agent.send("summarise my branch");
      expect(String(result.toolCalls[0]?.output)).toContain("Current branch: release-7\n");
    } finally {
      await agent.close();
    }
  });
});
