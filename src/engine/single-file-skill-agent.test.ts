/**
 * Single-file skills (`NAME.skill.md`, peterbot's Phase 2 form) in a `SkillAgent` on a scripted model: listed
 * in the catalog the model sees, activated by their `triggerPattern`, loaded whole by the model, and
 * confined to their one file — a read of a file beside them in their folder finds nothing.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { scriptedModel } from "../test-kit.js";
import { createSkillAgent } from "./create-skill-agent.js";

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "skillrt-single-agent-")));
  await mkdir(path.join(root, "skills"));
  await writeFile(
    path.join(root, "skills", "deploy.skill.md"),
    "---\nname: deploy\ndescription: Deploy the service to production.\ntriggerPattern: '\\bdeploy\\b'\ncategory: ops\n---\n\n# Deploy\n\nRun the pipeline, then watch the dashboard for 10 minutes.\n",
  );
  await writeFile(
    path.join(root, "skills", "handbook.skill.md"),
    "---\ndescription: Team handbook: holidays, on-call, expenses.\n---\n\nOn-call swaps go through the rota bot.\n",
  );
  await writeFile(path.join(root, "skills", "credentials.txt"), "PROD-DB-PASSWORD=hunter2\n");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const text = (value: unknown): string => JSON.stringify(value);

describe("single-file skills in an agent", () => {
  it("listed, triggered by their pattern, loaded whole, and never a door to the files beside them", async () => {
    const catalog = await createCatalog({ roots: [path.join(root, "skills")] });
    const model = scriptedModel([
      {
        toolCalls: [
          { name: "skill_read", input: JSON.stringify({ name: "deploy", path: "credentials.txt" }) },
        ],
      },
      {
        toolCalls: [
          { name: "skill_read", input: JSON.stringify({ name: "deploy", path: "../credentials.txt" }) },
        ],
      },
      { toolCalls: [{ name: "skill_load", input: JSON.stringify({ name: "handbook" }) }] },
      { text: "Deploying; on-call swaps go through the rota bot." },
    ]);
    const agent = await createSkillAgent({ model, catalog });
    try {
      const result = await agent.send("Please deploy the billing API tonight");
      expect(result.text).toBe("Deploying; on-call swaps go through the rota bot.");
      const first = text(model.calls[0]?.prompt);
      // The catalog names both; the triggered skill's body is in the first request.
      expect(first).toContain("deploy: Deploy the service to production.");
      expect(first).toContain("handbook: Team handbook: holidays, on-call, expenses.");
      expect(first).toContain("Run the pipeline, then watch the dashboard for 10 minutes.");
      expect(agent.session.loadedSkills()).toContain("deploy");
      // Beside the file is not inside the skill.
      const [beside, above, load] = result.toolCalls.map((c) => text(c.output));
      expect(beside).toContain("credentials.txt");
      expect(beside).toContain("SKILL.md");
      expect(above).toMatch(/\.\./);
      for (const output of [beside, above]) expect(output).not.toContain("hunter2");
      expect(text(model.calls.map((c) => c.prompt))).not.toContain("hunter2");
      expect(load).toContain("On-call swaps go through the rota bot.");
      expect(load).toContain(
        `Skill file: ${path.join(root, "skills", "handbook.skill.md")} (a single-file skill: no other files)`,
      );
      expect(load).not.toContain("Skill directory");
    } finally {
      await agent.close();
    }
  });
});
