import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { createSkillSession } from "./create-skill-session.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillrt-unmet-"));
  await mkdir(path.join(root, "needy"));
  await writeFile(
    path.join(root, "needy", "SKILL.md"),
    '---\nname: needy\ndescription: Posts to the tracker.\nrequired_environment_variables: [SKILLRT_TEST_TRACKER_TOKEN]\nmetadata:\n  openclaw: \'{"requires":{"bins":["skillrt-no-such-bin"]}}\'\n---\nBody.\n',
  );
  await mkdir(path.join(root, "plain"));
  await writeFile(
    path.join(root, "plain", "SKILL.md"),
    "---\nname: plain\ndescription: Needs nothing.\n---\nBody.\n",
  );
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("the model's catalog marks ineligible skills", () => {
  it("names what is missing (names only); a variable from the skill's config env counts as set", async () => {
    const catalog = await createCatalog({ roots: [root] });
    const bare = createSkillSession({ catalog });
    const prompt = bare.renderer.systemPrompt();
    expect(prompt).toContain(
      "Posts to the tracker. [unavailable here: needs env SKILLRT_TEST_TRACKER_TOKEN, bin skillrt-no-such-bin]",
    );
    expect(prompt).toMatch(/plain: Needs nothing\.\n/);

    const withEnv = createSkillSession({
      catalog,
      skillEnv: { needy: { SKILLRT_TEST_TRACKER_TOKEN: "tok-secret-value" } },
    });
    const configured = withEnv.renderer.systemPrompt();
    expect(configured).toContain("[unavailable here: needs bin skillrt-no-such-bin]");
    expect(configured).not.toContain("tok-secret-value");
  });

  it("checks against the host variables it is given (PATH finds programs), or not at all with false", async () => {
    const catalog = await createCatalog({ roots: [root] });
    const bin = path.join(root, "bin");
    await mkdir(bin);
    await writeFile(path.join(bin, "skillrt-no-such-bin"), "#!/bin/sh\n", { mode: 0o755 });
    const given = createSkillSession({
      catalog,
      requirementsEnv: { SKILLRT_TEST_TRACKER_TOKEN: "set", PATH: bin },
    });
    expect(given.renderer.systemPrompt()).not.toContain("unavailable here");
    const met = await given.load("needy");
    expect(met.ok && met.notice).toBe("");

    const unchecked = createSkillSession({ catalog, requirementsEnv: false });
    expect(unchecked.renderer.systemPrompt()).not.toContain("unavailable here");
    const load = await unchecked.load("needy");
    expect(load.ok && load.notice).toBe("");

    const bare = createSkillSession({ catalog, requirementsEnv: { PATH: "" } });
    const loaded = await bare.load("needy");
    expect(loaded.ok && loaded.notice).toContain(
      "Requirements not met: this skill needs env SKILLRT_TEST_TRACKER_TOKEN, bin skillrt-no-such-bin",
    );
  });
});
