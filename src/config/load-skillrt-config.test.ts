import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "./__fixtures__/make-temp-dir.js";
import { loadSkillrtConfig } from "./load-skillrt-config.js";

describe("loadSkillrtConfig", () => {
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

  it("lists the roots of both files, the project's first, local paths from their file, pins as #sha256=", async () => {
    const pin = "0f".repeat(32);
    await writeFile(path.join(home, ".skillrt", "config.json"), JSON.stringify({ roots: ["mine"] }));
    await writeFile(
      path.join(cwd, "skillrt.config.json"),
      JSON.stringify({
        roots: ["https://h/s.zip", { source: "vendor/p.tgz", sha256: pin }, "git+file:///r#v1"],
      }),
    );
    const config = await loadSkillrtConfig({ cwd, home });
    expect(config.roots).toEqual([
      "https://h/s.zip",
      `${path.join(cwd, "vendor/p.tgz")}#sha256=${pin}`,
      "git+file:///r#v1",
      path.join(home, ".skillrt", "mine"),
    ]);
    await writeFile(
      path.join(cwd, "skillrt.config.json"),
      JSON.stringify({ roots: [{ source: "x.zip", sha256: "12" }] }),
    );
    await expect(loadSkillrtConfig({ cwd, home })).rejects.toThrow(
      /roots\.0\.sha256: must be 64 hex digits|roots\.0/,
    );
  });

  it("reads every section from one file pair; the project wins per key; paths resolve from their file", async () => {
    await writeFile(
      path.join(home, ".skillrt", "config.json"),
      JSON.stringify({
        model: { model: "user-model", maxAttempts: 2 },
        session: { allow: ["team-*"], deny: ["old-*"] },
        exec: { executor: "local", timeoutSeconds: 60, hostDirs: ["shared"] },
        skills: { w: { env: { A: "user" } } },
      }),
    );
    await writeFile(
      path.join(cwd, "skillrt.config.json"),
      JSON.stringify({
        model: { model: "project-model" },
        session: { activeSkills: ["style"], deny: ["*-draft"] },
        exec: { denyCommands: ["curl"], artifactsDir: "build/artifacts" },
      }),
    );
    const config = await loadSkillrtConfig({ cwd, home });
    expect(config.model).toEqual({ model: "project-model", maxAttempts: 2 });
    expect(config.session).toEqual({ allow: ["team-*"], deny: ["*-draft"], activeSkills: ["style"] });
    expect(config.exec).toEqual({
      executor: "local",
      timeoutSeconds: 60,
      hostDirs: [path.join(home, ".skillrt", "shared")],
      denyCommands: ["curl"],
      artifactsDir: path.join(cwd, "build", "artifacts"),
    });
    expect(config.sources.map((s) => s.file)).toEqual([
      path.join(home, ".skillrt", "config.json"),
      path.join(cwd, "skillrt.config.json"),
    ]);
  });

  it("names the file and the key of a wrong setting in any section", async () => {
    const file = path.join(cwd, "skillrt.config.json");
    await writeFile(file, JSON.stringify({ session: { active: ["x"] }, exec: { executor: "vm" } }));
    const error = await loadSkillrtConfig({ cwd, home: null }).then(
      () => new Error("expected a failure"),
      (e: unknown) => e as Error,
    );
    expect(error.message).toContain(file);
    expect(error.message).toContain("session");
    expect(error.message).toContain("exec.executor");
  });

  it("is empty without files", async () => {
    expect(await loadSkillrtConfig({ cwd, home })).toEqual({ model: {}, session: {}, exec: {}, sources: [] });
  });
});
