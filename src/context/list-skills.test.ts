import { afterEach, expect, it } from "vitest";
import { makeSkillTree, type SkillTree, standardSkills } from "./__fixtures__/skill-tree.js";
import { createSkillSession } from "./create-skill-session.js";
import { listSkills, skillListing } from "./list-skills.js";

let tree: SkillTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

it("finds one skill's listing by name exactly as listSkills gives it, and leaves out what it leaves out", async () => {
  tree = await makeSkillTree([
    ...standardSkills(),
    { name: "filtered", description: "Denied by the session's filters." },
  ]);
  const session = createSkillSession({ catalog: tree.catalog, deny: ["filtered"] });
  await session.load("docx", { by: "user" });
  const listed = listSkills(session);
  expect(listed.map((s) => s.name)).toEqual(["background", "docx", "pdf", "secret-ops"]);
  for (const entry of listed) expect(skillListing(session, entry.name)).toEqual(entry);
  expect(skillListing(session, "docx")).toMatchObject({ loaded: true, userInvocable: true });
  expect(skillListing(session, "background")).toMatchObject({ loaded: false, userInvocable: false });
  expect(skillListing(session, "filtered")).toBeUndefined();
  expect(skillListing(session, "nope")).toBeUndefined();
  expect(session.findSkill("secret-ops")).toMatchObject({ forModel: false, userInvocable: true });
});

it("counts a skill's catalog line once per record: a second listing gives the same costs without re-counting", async () => {
  tree = await makeSkillTree(standardSkills());
  let counted = 0;
  const counter = {
    name: "chars",
    count: (text: string) => {
      counted++;
      return text.length;
    },
  };
  const session = createSkillSession({ catalog: tree.catalog, tokenCounter: counter });
  const first = listSkills(session);
  const after = counted;
  expect(listSkills(session)).toEqual(first);
  expect(counted).toBe(after);
  expect(first.find((s) => s.name === "docx")?.tokens).toBe(
    "- docx: Create and edit Word documents with tracked changes.".length,
  );
});
