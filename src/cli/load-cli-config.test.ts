import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "./__fixtures__/skill-tree.js";
import {
  cliExecutorChoice,
  cliProfileSettings,
  cliRunSettings,
  cliSessionSettings,
  loadCliConfig,
} from "./load-cli-config.js";

let tmp: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => {
  await tmp.cleanup();
});

describe("loadCliConfig", () => {
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
    // Untrusted, the project's file sets nothing skill runs see: A and C are left out, and the warning
    // says so.
    const untrusted: string[] = [];
    const restricted = await loadCliConfig({ cwd, env: { HOME: home }, warn: (w) => untrusted.push(w) });
    expect(restricted.skillEnv).toEqual({ w: { A: "user", B: "user-b" } });
    expect(untrusted.join("\n")).toContain("skills.w.env.A (would set the environment of skill runs)");
    expect(untrusted.join("\n")).toContain("skills.w.env.C (would read environment variables)");
    expect(untrusted.join("\n")).toContain(`skillrt trust ${cwd}`);
    const warnings: string[] = [];
    const config = await loadCliConfig({
      cwd,
      env: { HOME: home },
      warn: (w) => warnings.push(w),
      trustAll: true,
    });
    expect(config.skillEnv).toEqual({ w: { A: "project", B: "user-b" } });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: literal ${…} placeholder syntax under test
    expect(warnings.join("\n")).toContain("${env:UNSET}");
  });

  it("names the file when a config is invalid", async () => {
    await writeFile(path.join(tmp.dir, "skillrt.config.json"), "{ nope");
    await expect(loadCliConfig({ cwd: tmp.dir, env: { HOME: tmp.dir }, warn: () => {} })).rejects.toThrow(
      `${path.join(tmp.dir, "skillrt.config.json")}: invalid JSON`,
    );
  });

  it("turns the session and exec sections into session options and run settings; flags replace lists", async () => {
    await writeFile(
      path.join(tmp.dir, "skillrt.config.json"),
      JSON.stringify({
        session: { activeSkills: ["style"], allow: ["team-*"], deny: [] },
        exec: {
          executor: "local",
          requireLoaded: true,
          timeoutSeconds: 30,
          allowCommands: ["python3"],
          denyCommands: ["curl"],
          hostDirs: ["data"],
        },
      }),
    );
    // Untrusted: the session filters, the timeout, requireLoaded and the command lists narrow and apply;
    // the local executor and the host directories would loosen the sandbox and do not.
    const restricted = await loadCliConfig({ cwd: tmp.dir, env: { HOME: tmp.dir }, warn: () => {} });
    expect(cliSessionSettings(restricted)).toEqual({ activeSkills: ["style"], allow: ["team-*"] });
    expect(cliExecutorChoice(restricted, undefined)).toBe("auto");
    expect(cliRunSettings(restricted, { cwd: tmp.dir, defaultHostDirs: [tmp.dir] })).toMatchObject({
      environment: { hostDirs: [tmp.dir] },
      policy: { allow: ["python3"], deny: ["curl"], requireLoaded: true, defaultTimeoutSeconds: 30 },
    });
    const config = await loadCliConfig({
      cwd: tmp.dir,
      env: { HOME: tmp.dir },
      warn: () => {},
      trustAll: true,
    });
    expect(cliSessionSettings(config)).toEqual({ activeSkills: ["style"], allow: ["team-*"] });
    expect(cliSessionSettings(config, { allow: ["x"], deny: ["y-*"] })).toEqual({
      activeSkills: ["style"],
      allow: ["x"],
      deny: ["y-*"],
    });
    expect(cliExecutorChoice(config, undefined)).toBe("local");
    expect(cliExecutorChoice(config, "sandbox")).toBe("sandbox");
    const run = cliRunSettings(config, { cwd: tmp.dir, defaultHostDirs: [tmp.dir] });
    expect(run).toMatchObject({
      environment: { hostDirs: [path.join(tmp.dir, "data")] },
      policy: { allow: ["python3"], deny: ["curl"], requireLoaded: true, defaultTimeoutSeconds: 30 },
    });
    expect(run.environment?.artifactStore).toBeDefined();
  });

  it("defaults: host inputs from the given directories, artifacts under .skillrt/artifacts", async () => {
    const config = await loadCliConfig({ cwd: tmp.dir, env: { HOME: tmp.dir }, warn: () => {} });
    const run = cliRunSettings(config, { cwd: tmp.dir, defaultHostDirs: [tmp.dir] });
    expect(run.environment?.hostDirs).toEqual([tmp.dir]);
    expect(run.policy).toBeUndefined();
    await run.environment?.artifactStore?.save("a.txt", new TextEncoder().encode("hi"), "text/plain");
    expect((await run.environment?.artifactStore?.get("a.txt"))?.version).toBe(1);
    expect(await readdir(path.join(tmp.dir, ".skillrt", "artifacts"))).toEqual(["a%2Etxt"]);
  });

  it("reads the profile settings of the session section (also from an untrusted project file); flags win", async () => {
    await writeFile(
      path.join(tmp.dir, "skillrt.config.json"),
      JSON.stringify({
        session: {
          loadMode: "once",
          maxOverviewSkills: 5,
          maxLoadedSkills: 2,
          skillTools: ["skill_load"],
          preamble: false,
        },
      }),
    );
    const config = await loadCliConfig({ cwd: tmp.dir, env: { HOME: tmp.dir }, warn: () => {} });
    expect(cliSessionSettings(config)).toEqual({});
    expect(cliProfileSettings(config)).toEqual({
      loadMode: "once",
      maxOverviewSkills: 5,
      maxLoadedSkills: 2,
      skillTools: ["skill_load"],
      preamble: "",
    });
    expect(
      cliProfileSettings(config, { loadMode: "session", maxLoadedSkills: 3, skillTools: ["skill_run"] }),
    ).toEqual({
      loadMode: "session",
      maxOverviewSkills: 5,
      maxLoadedSkills: 3,
      skillTools: ["skill_run"],
      preamble: "",
    });
    await writeFile(
      path.join(tmp.dir, "skillrt.config.json"),
      JSON.stringify({ session: { loadMode: "forever" } }),
    );
    await expect(loadCliConfig({ cwd: tmp.dir, env: { HOME: tmp.dir }, warn: () => {} })).rejects.toThrow(
      /loadMode/,
    );
  });
});
