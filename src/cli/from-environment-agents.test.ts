import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fromEnvironment } from "./from-environment.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-env-agents-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("fromEnvironment: agents", () => {
  it("reads agents/*.md next to the project and user roots and the config's agents section, which wins", async () => {
    const cwd = path.join(dir, "project");
    const home = path.join(dir, "home");
    await mkdir(path.join(cwd, ".claude", "agents"), { recursive: true });
    await mkdir(path.join(home, ".agents", "agents"), { recursive: true });
    await writeFile(
      path.join(cwd, ".claude", "agents", "reviewer.md"),
      "---\nname: reviewer\ndescription: Reviews code.\nskills: lint-*\n---\nReview carefully.\n",
    );
    await writeFile(
      path.join(home, ".agents", "agents", "writer.md"),
      "---\nname: writer\ndescription: Writes docs.\n---\nWrite.\n",
    );
    await writeFile(path.join(home, ".agents", "agents", "broken.md"), "no frontmatter");
    await writeFile(
      path.join(cwd, "skillrt.config.json"),
      JSON.stringify({ agents: { writer: { description: "Writes docs, from config.", maxSteps: 4 } } }),
    );
    const warnings: string[] = [];
    const parts = await fromEnvironment({
      cwd,
      env: { HOME: home },
      model: false,
      store: false,
      tools: false,
      cache: false,
      onWarning: (w) => warnings.push(w),
    });
    try {
      const agents = parts.agents as Record<string, { description: string; source: string }>;
      expect(Object.keys(agents).sort()).toEqual(["reviewer", "writer"]);
      expect(agents["reviewer"]).toMatchObject({
        skills: ["lint-*"],
        instructions: "Review carefully.",
        source: path.join(cwd, ".claude", "agents", "reviewer.md"),
      });
      expect(agents["writer"]).toMatchObject({
        description: "Writes docs, from config.",
        maxSteps: 4,
        source: path.join(cwd, "skillrt.config.json"),
      });
      expect(warnings.some((w) => w.startsWith(path.join(home, ".agents", "agents", "broken.md")))).toBe(
        true,
      );
    } finally {
      await parts.close();
    }
  });

  it("gives the config's delegation limits, the lowest of the two files; an agent file's approval, executor and shellPreRender are read", async () => {
    const cwd = path.join(dir, "project");
    const home = path.join(dir, "home");
    await mkdir(path.join(cwd, ".claude", "agents"), { recursive: true });
    await mkdir(path.join(home, ".skillrt"), { recursive: true });
    await writeFile(
      path.join(cwd, ".claude", "agents", "ops.md"),
      "---\nname: ops\ndescription: Operations.\napproval: never\nexecutor: local\nshellPreRender: true\n---\nOps.\n",
    );
    await writeFile(
      path.join(home, ".skillrt", "config.json"),
      JSON.stringify({ delegation: { maxPerTurn: 8, concurrency: 2 } }),
    );
    // The project's file cannot raise the user's limits: only a lower value (maxDepth, set by no one else) counts.
    await writeFile(
      path.join(cwd, "skillrt.config.json"),
      JSON.stringify({ delegation: { maxPerTurn: 200, concurrency: 1, maxDepth: 1 } }),
    );
    const parts = await fromEnvironment({
      cwd,
      env: { HOME: home },
      model: false,
      store: false,
      tools: false,
      cache: false,
    });
    try {
      expect(parts.delegation).toEqual({ maxPerTurn: 8, concurrency: 1, maxDepth: 1 });
      expect(parts.agents?.["ops"]).toMatchObject({
        approval: "never",
        executor: "local",
        shellPreRender: true,
      });
    } finally {
      await parts.close();
    }
    await writeFile(
      path.join(cwd, "skillrt.config.json"),
      JSON.stringify({ delegation: { maxPerTurn: 100000 } }),
    );
    await expect(
      fromEnvironment({ cwd, env: { HOME: home }, model: false, store: false, tools: false, cache: false }),
    ).rejects.toThrow(/delegation\.maxPerTurn/);
  });
});
