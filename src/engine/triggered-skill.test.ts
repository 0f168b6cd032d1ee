/**
 * `triggerPattern` end to end: SKILL.md files with patterns, a `SkillAgent` on a scripted model; the
 * matching skill is in the first request, patterns that are invalid or backtrack without end are skipped.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { createSkillSession } from "../context/create-skill-session.js";
import { scriptedModel } from "../test-kit.js";
import { createSkillAgent } from "./create-skill-agent.js";
import type { EngineEvent } from "./engine-event.js";
import {
  MAX_PATTERN_LENGTH,
  matchesTrigger,
  sessionTriggeredSkill,
  triggeredSkill,
} from "./triggered-skill.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillrt-trigger-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function skill(name: string, pattern: string, body: string): Promise<void> {
  await mkdir(path.join(root, name));
  await writeFile(
    path.join(root, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${name} things.\ntriggerPattern: '${pattern}'\n---\n\n${body}\n`,
  );
}

async function turn(message: string) {
  const catalog = await createCatalog({ roots: [root] });
  const model = scriptedModel([{ text: "ok" }]);
  const agent = await createSkillAgent({ model, catalog });
  const events: EngineEvent[] = [];
  try {
    await agent.send(message, { onEvent: (e) => events.push(e) });
    return { prompt: JSON.stringify(model.calls[0]?.prompt), events, loaded: agent.session.loadedSkills() };
  } finally {
    await agent.close();
  }
}

describe("triggerPattern", () => {
  beforeEach(async () => {
    // Catalog order is by name: a-broken (invalid), b-evil (backtracks), c-sales, d-csv (also matches csv).
    await skill("a-broken", "([", "BROKEN BODY");
    await skill("b-evil", "^(a+)+$", "EVIL BODY");
    await skill("c-sales", "\\b(sales|revenue)\\b.*\\.csv", "SALES BODY: group by region.");
    await skill("d-csv", "\\.csv\\b", "CSV BODY: summarise columns.");
  });

  it("the first skill whose pattern matches (case-insensitive) is loaded before the model answers", async () => {
    const { prompt, events, loaded } = await turn("Please total the REVENUE in q3.csv");
    expect(loaded).toEqual(["c-sales"]);
    expect(prompt).toContain("SALES BODY: group by region.");
    expect(prompt).not.toContain("CSV BODY");
    expect(events.find((e) => e.type === "skill-load")).toMatchObject({ name: "c-sales", by: "select" });
  });

  it("a later skill wins when the earlier patterns do not match; no match loads nothing", async () => {
    expect((await turn("what is in data.csv?")).loaded).toEqual(["d-csv"]);
    expect((await turn("hello there")).loaded).toEqual([]);
  });

  it("a pattern that backtracks without end is stopped and counts as no match", async () => {
    const { loaded, prompt } = await turn(`${"a".repeat(40)}!`);
    expect(loaded).toEqual([]);
    expect(prompt).not.toContain("EVIL BODY");
  });

  it("a session finds what its visible list finds: hidden skills skipped, a re-scan's new patterns seen", async () => {
    const catalog = await createCatalog({ roots: [root] });
    const all = createSkillSession({ catalog });
    const noSales = createSkillSession({ catalog, deny: ["c-sales"] });
    const message = "Please total the REVENUE in q3.csv";
    expect(sessionTriggeredSkill(message, all)).toBe("c-sales");
    expect(sessionTriggeredSkill(message, noSales)).toBe("d-csv");
    expect(sessionTriggeredSkill(message, noSales)).toBe(triggeredSkill(message, noSales.visibleList()));
    await skill("b-revenue", "revenue", "REVENUE BODY");
    await catalog.refresh();
    expect(sessionTriggeredSkill(message, all)).toBe("b-revenue");
    expect(sessionTriggeredSkill("hello there", all)).toBeUndefined();
  });

  it("guards: invalid and over-long patterns never match", () => {
    expect(matchesTrigger("([", "([")).toBe(false);
    expect(matchesTrigger(`x${"?".repeat(MAX_PATTERN_LENGTH)}`, "x")).toBe(false);
    expect(matchesTrigger("^(a+)+$", `${"a".repeat(40)}!`)).toBe(false);
    expect(matchesTrigger("CSV", "a csv file")).toBe(true);
  });
});
