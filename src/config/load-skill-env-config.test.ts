import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "./__fixtures__/make-temp-dir.js";
import { loadSkillEnvConfig } from "./load-skill-env-config.js";

describe("loadSkillEnvConfig", () => {
  let cwd: string;
  let home: string;
  beforeEach(async () => {
    cwd = await makeTempDir();
    home = await makeTempDir();
    await mkdir(path.join(home, ".skillrt"));
  });
  afterEach(async () => {
    await rm(cwd, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: literal ${…} placeholder syntax under test
  it("merges user and project files, substitutes ${env:…}, project wins", async () => {
    await writeFile(
      path.join(home, ".skillrt", "config.json"),
      JSON.stringify({
        skills: { w: { env: { A: "user", B: "user-b" } } },
        future: "unknown top-level keys are ignored",
      }),
    );
    await writeFile(
      path.join(cwd, "skillrt.config.json"),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: literal ${…} placeholder syntax under test
      JSON.stringify({ skills: { w: { env: { A: "${env:MY_TOKEN}-x", C: "${env:UNSET}" } } } }),
    );
    const config = await loadSkillEnvConfig({ cwd, home, env: { MY_TOKEN: "tok" }, trustProject: true });
    expect(config.skills).toEqual({ w: { A: "tok-x", B: "user-b" } });
    expect(config.files).toHaveLength(2);
    expect(config.warnings.join()).toContain("UNSET");
    // An untrusted project names no host variable: its `${env:…}` values are left out, the user's stay.
    const untrusted = await loadSkillEnvConfig({ cwd, home, env: { MY_TOKEN: "tok" } });
    expect(untrusted.skills).toEqual({ w: { A: "user", B: "user-b" } });
    expect(untrusted.warnings).toEqual([]);
  });

  it("returns an empty config when no file exists", async () => {
    expect(await loadSkillEnvConfig({ cwd, home })).toEqual({ skills: {}, files: [], warnings: [] });
  });

  it("reports invalid JSON and invalid fields with the file and the field path", async () => {
    const file = path.join(cwd, "skillrt.config.json");
    await writeFile(file, "{ nope");
    await expect(loadSkillEnvConfig({ cwd, home })).rejects.toThrow(`${file}: invalid JSON`);
    await writeFile(
      file,
      JSON.stringify({ skills: { w: { env: { LD_PRELOAD: "x", "bad name": "y", N: 3 } } } }),
    );
    const error = await loadSkillEnvConfig({ cwd, home }).then(
      () => new Error("expected a failure"),
      (e: unknown) => e as Error,
    );
    expect(error.message).toContain(file);
    expect(error.message).toContain("skills.w.env.LD_PRELOAD");
    expect(error.message).toContain("skills.w.env.N");
  });
});
