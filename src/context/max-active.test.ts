import { describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { defineSkill } from "../catalog/memory-source.js";
import { createSkillSession } from "./create-skill-session.js";

const skills = ["alpha", "beta", "gamma"].map((name) =>
  defineSkill({ name, description: `The ${name} skill.`, body: `Do ${name}.` }),
);

describe("maxActive (SKILLS_MAX_ACTIVE)", () => {
  it("refuses a model's load past the cap, naming what is active and asking for an unload first", async () => {
    const catalog = await createCatalog({ roots: [], memory: skills });
    const session = createSkillSession({ catalog, maxActive: 2 });
    expect((await session.load("alpha")).ok).toBe(true);
    expect((await session.load("beta")).ok).toBe(true);
    const refused = await session.load("gamma");
    expect(refused).toMatchObject({ ok: false, code: "too-many-active" });
    expect(refused.ok ? "" : refused.message).toBe(
      "At most 2 skills may be active at once, and 2 are: alpha, beta. Call skill_unload on one you no longer need, then load 'gamma' again.",
    );
    expect(session.loadedSkills()).toEqual(["alpha", "beta"]);
    // Loading an active skill again is not a new load; after an unload there is room.
    expect((await session.load("beta")).ok).toBe(true);
    expect((await session.unload("alpha")).ok).toBe(true);
    expect((await session.load("gamma")).ok).toBe(true);
    expect(session.loadedSkills().sort()).toEqual(["beta", "gamma"]);
  });

  it("does not cap what the user loads, and no option means no cap", async () => {
    const catalog = await createCatalog({ roots: [], memory: skills });
    const capped = createSkillSession({ catalog, maxActive: 1 });
    expect((await capped.load("alpha")).ok).toBe(true);
    expect((await capped.load("beta", { by: "user" })).ok).toBe(true);
    const open = createSkillSession({ catalog });
    for (const s of skills) expect((await open.load(s.name)).ok).toBe(true);
  });
});
