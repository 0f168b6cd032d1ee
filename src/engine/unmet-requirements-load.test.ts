/**
 * A skill whose declared requirements are unmet: every profile's load tool says so (not only the name of
 * the requirement), as the catalog marks it.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import type { ProfileName } from "../context/profile-name.js";
import { scriptedModel } from "../test-kit.js";
import { createSkillAgent } from "./create-skill-agent.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillrt-unmet-load-"));
  await mkdir(path.join(root, "needy"));
  await writeFile(
    path.join(root, "needy", "SKILL.md"),
    "---\nname: needy\ndescription: Posts to the tracker.\nrequired_environment_variables: [SKILLRT_TEST_TRACKER_TOKEN]\n---\nPost with $SKILLRT_TEST_TRACKER_TOKEN.\n",
  );
});
afterEach(() => rm(root, { recursive: true, force: true }));

const loads: Record<ProfileName, [string, Record<string, string>]> = {
  skillrt: ["skill_load", { name: "needy" }],
  claude: ["Skill", { skill: "needy" }],
  trpc: ["skill_load", { skill: "needy" }],
  omni: ["load_skill", { name: "needy" }],
  aworld: ["active_skill", { skill_name: "needy" }],
  agentscope: ["load_skill_through_path", { skillId: "needy", path: "SKILL.md" }],
};

describe("loading a skill whose requirements are unmet here", () => {
  it.each(Object.keys(loads) as ProfileName[])(
    "%s: the load result says they are not met on this machine",
    async (profile) => {
      const [toolName, input] = loads[profile];
      const model = scriptedModel([
        { toolCalls: [{ name: toolName, input: JSON.stringify(input) }] },
        { text: "ok" },
      ]);
      const catalog = await createCatalog({ roots: [root] });
      const agent = await createSkillAgent({ model, catalog, profile, env: { PATH: "" } });
      try {
        const result = await agent.send("post it");
        const output = String(result.toolCalls[0]?.output);
        expect(output).toContain("Post with $SKILLRT_TEST_TRACKER_TOKEN.");
        expect(output).toContain(
          "Requirements not met: this skill needs env SKILLRT_TEST_TRACKER_TOKEN, which this machine does not provide.",
        );
      } finally {
        await agent.close();
      }
    },
  );
});
