import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../cli/__fixtures__/skill-tree.js";
import { createSkillSession } from "../context/create-skill-session.js";
import { createCatalog } from "./create-catalog.js";
import {
  checkSkillRequirements,
  evaluateSkillRequirements,
  requirementDeclarationsOf,
} from "./skill-requirements.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = path.join(repo, "bin", "skillrt.js");
const SECRET = "s3cr3t-value-9f2c";

const NEEDY = `---
name: needy
description: Calls the Foo API.
metadata:
  openclaw:
    requires:
      bins: [no-such-binary-xyz]
      anyBins: [sh, no-such-other]
required_environment_variables:
  FOO_TOKEN: Token for the Foo API
---
Run foo.
`;

let tmp: { dir: string; cleanup: () => Promise<void> };
let root: string;
beforeEach(async () => {
  tmp = await makeTempDir();
  root = path.join(tmp.dir, "skills");
  await fs.mkdir(path.join(root, "needy"), { recursive: true });
  await fs.writeFile(path.join(root, "needy", "SKILL.md"), NEEDY);
  await fs.mkdir(path.join(root, "plain"), { recursive: true });
  await fs.writeFile(
    path.join(root, "plain", "SKILL.md"),
    "---\nname: plain\ndescription: Nothing needed.\n---\nHi.\n",
  );
});
afterEach(() => tmp.cleanup());

describe("requirementDeclarationsOf / checkSkillRequirements", () => {
  it("reads every metadata.*.requires and required_environment_variables as a list or a map", () => {
    const decl = requirementDeclarationsOf({
      metadata: {
        a: { requires: { bins: ["git"], env: ["A"] } },
        b: '{"requires":{"anyBins":["rg","grep"]}}',
      },
      required_environment_variables: ["B", "A"],
    });
    expect(decl).toEqual({
      bins: ["git"],
      anyBins: ["rg", "grep"],
      env: ["A", "B"],
      config: [],
      always: false,
    });
    expect(requirementDeclarationsOf({ name: "x", metadata: { author: "me" } })).toBeUndefined();
  });

  it("reports missing names; an empty variable is unset; always: true overrides", async () => {
    const config = path.join(tmp.dir, "present.json");
    await fs.writeFile(config, "{}");
    const decl = {
      bins: ["git", "nope"],
      anyBins: ["x1", "x2"],
      env: ["A", "B"],
      config: [config, "/no/such"],
      always: false,
    };
    const result = checkSkillRequirements(decl, { env: { A: "1", B: "" }, hasBin: (n) => n === "git" });
    expect(result).toEqual({
      eligible: false,
      missing: { bins: ["nope"], anyBins: ["x1", "x2"], env: ["B"], config: ["/no/such"] },
    });
    expect(checkSkillRequirements({ ...decl, always: true }, { env: {}, hasBin: () => false }).eligible).toBe(
      true,
    );
  });
});

describe("a skill needing FOO_TOKEN and a missing binary", () => {
  it("skill_load names both, never a value, and the skill's config env makes FOO_TOKEN set", async () => {
    const catalog = await createCatalog({ roots: [{ path: root, scope: "project" }] });
    const needy = catalog.get("needy");
    expect(needy).toBeDefined();
    if (needy === undefined) return;
    const host = { PATH: process.env["PATH"] ?? "" };
    expect(evaluateSkillRequirements(needy, { env: host })?.missing).toEqual({
      bins: ["no-such-binary-xyz"],
      anyBins: [],
      env: ["FOO_TOKEN"],
      config: [],
    });

    const session = createSkillSession({ catalog, placement: "history" });
    const result = await session.load("needy");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.notice).toContain("env FOO_TOKEN");
    expect(result.notice).toContain("bin no-such-binary-xyz");
    expect(result.notice).toContain("Tell the user");

    // The secret set in the skill's config env: the variable is met, the binary still is not, and the secret is nowhere.
    const withEnv = createSkillSession({
      catalog,
      placement: "history",
      skillEnv: { needy: { FOO_TOKEN: SECRET } },
    });
    const loaded = await withEnv.load("needy");
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.notice).not.toContain("FOO_TOKEN");
    expect(loaded.notice).toContain("bin no-such-binary-xyz");
    expect(JSON.stringify(loaded)).not.toContain(SECRET);
    expect(JSON.stringify(withEnv.snapshot())).not.toContain(SECRET);
    expect(
      evaluateSkillRequirements(needy, { env: host, skillEnv: { FOO_TOKEN: SECRET }, hasBin: () => true }),
    ).toEqual({ eligible: true, missing: { bins: [], anyBins: [], env: [], config: [] } });
  });

  function runCli(args: string[], env: Record<string, string> = {}) {
    const result = spawnSync(process.execPath, [bin, ...args], {
      cwd: tmp.dir,
      env: { PATH: process.env["PATH"] ?? "", HOME: tmp.dir, NO_COLOR: "1", ...env },
      encoding: "utf8",
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  it("the built CLI's list and validate mark it; config env makes the variable set", async () => {
    await fs.access(path.join(repo, "dist", "cli", "main.js")); // run `npm run build` first
    const text = runCli(["list", "--root", root]);
    expect(text.code).toBe(0);
    const needyLine = text.stdout.split("\n").find((l) => l.startsWith("needy"));
    expect(needyLine).toContain("[unmet: env FOO_TOKEN, bin no-such-binary-xyz]");
    expect(text.stdout.split("\n").find((l) => l.startsWith("plain"))).not.toContain("unmet");

    const json = JSON.parse(runCli(["list", "--json", "--root", root]).stdout) as {
      skills: {
        name: string;
        requirements?: { eligible: boolean; missing: { env: string[]; bins: string[] } };
      }[];
    };
    const row = json.skills.find((s) => s.name === "needy");
    expect(row?.requirements).toEqual({
      eligible: false,
      missing: { bins: ["no-such-binary-xyz"], anyBins: [], env: ["FOO_TOKEN"], config: [] },
    });
    expect(json.skills.find((s) => s.name === "plain")?.requirements).toBeUndefined();

    const validate = runCli(["validate", "--json", "--root", root]);
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain('"code":"requirements-unmet"');
    expect(validate.stdout).toContain("env FOO_TOKEN");

    // The host variable set to a secret: met, and the secret appears nowhere in any output.
    const hostSet = runCli(["list", "--json", "--root", root], { FOO_TOKEN: SECRET });
    expect(hostSet.stdout).not.toContain(SECRET);
    expect(
      JSON.parse(hostSet.stdout).skills.find((s: { name: string }) => s.name === "needy").requirements.missing
        .env,
    ).toEqual([]);

    // Set in the skill's config env (from a host variable): the variable counts as set — from the user's
    // config; an untrusted project's config names no host variable.
    const needyEnv = JSON.stringify({ skills: { needy: { env: { FOO_TOKEN: `\${env:MY_FOO}` } } } });
    await fs.writeFile(path.join(tmp.dir, "skillrt.config.json"), needyEnv);
    const fromProject = runCli(["list", "--root", root], { MY_FOO: SECRET });
    expect(fromProject.stdout).toContain("[unmet: env FOO_TOKEN, bin no-such-binary-xyz]");
    expect(fromProject.stderr).toContain("skills.needy.env.FOO_TOKEN (would read environment variables)");
    await fs.rm(path.join(tmp.dir, "skillrt.config.json"));
    await fs.mkdir(path.join(tmp.dir, ".skillrt"), { recursive: true });
    await fs.writeFile(path.join(tmp.dir, ".skillrt", "config.json"), needyEnv);
    const configured = runCli(["list", "--root", root], { MY_FOO: SECRET });
    expect(configured.stdout).toContain("[unmet: bin no-such-binary-xyz]");
    expect(configured.stdout + configured.stderr).not.toContain(SECRET);
    const v2 = runCli(["validate", "--root", root], { MY_FOO: SECRET });
    expect(v2.stdout + v2.stderr).not.toContain(SECRET);
    expect(v2.stdout + v2.stderr).not.toContain("env FOO_TOKEN");
  });
});
