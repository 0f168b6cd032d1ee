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
});
