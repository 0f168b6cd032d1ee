import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "./__fixtures__/skill-tree.js";
import { loadCliSkillEnv } from "./load-cli-skill-env.js";

let tmp: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => {
  await tmp.cleanup();
});

describe("loadCliSkillEnv", () => {
  it("reads ~/.skillrt/config.json under the run's HOME, lets the project file win, and passes warnings on", async () => {
    const home = path.join(tmp.dir, "home");
    const cwd = path.join(tmp.dir, "project");
    await mkdir(path.join(home, ".skillrt"), { recursive: true });
    await mkdir(cwd);
    await writeFile(
      path.join(home, ".skillrt", "config.json"),
      JSON.stringify({ skills: { w: { env: { A: "user", B: "user-b" } } } }),
    );
    await writeFile(
      path.join(cwd, "skillrt.config.json"),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: literal ${…} placeholder syntax under test
      JSON.stringify({ skills: { w: { env: { A: "project", C: "${env:UNSET}" } } } }),
    );
    const warnings: string[] = [];
    const skills = await loadCliSkillEnv({ cwd, env: { HOME: home }, warn: (w) => warnings.push(w) });
    expect(skills).toEqual({ w: { A: "project", B: "user-b" } });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: literal ${…} placeholder syntax under test
    expect(warnings.join("\n")).toContain("${env:UNSET}");
  });

  it("names the file when a config is invalid", async () => {
    await writeFile(path.join(tmp.dir, "skillrt.config.json"), "{ nope");
    await expect(loadCliSkillEnv({ cwd: tmp.dir, env: { HOME: tmp.dir }, warn: () => {} })).rejects.toThrow(
      `${path.join(tmp.dir, "skillrt.config.json")}: invalid JSON`,
    );
  });
});
