/**
 * `triggerPattern` end to end: SKILL.md files with patterns, a `SkillAgent` on a scripted model; the
 * matching skill is in the first request, patterns that are invalid or backtrack without end are skipped.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { validateSkillDir } from "../catalog/validate-skill-dir.js";
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

  it("a pattern that would need backtracking is reported when the skill is loaded and validated", async () => {
    await skill("e-backref", "(deploy)\\s+\\1", "BACKREF BODY");
    await skill("f-lookahead", "deploy(?!ment)", "LOOKAHEAD BODY");
    const catalog = await createCatalog({ roots: [root] });
    const codes = (name: string) => catalog.get(name)?.diagnostics.map((d) => d.code);
    expect(codes("e-backref")).toContain("trigger-pattern-unsupported");
    expect(codes("f-lookahead")).toContain("trigger-pattern-unsupported");
    expect(codes("c-sales")).not.toContain("trigger-pattern-unsupported");
    const validated = validateSkillDir(path.join(root, "f-lookahead"), { mode: "lenient" });
    const warning = validated.diagnostics.find((d) => d.code === "trigger-pattern-unsupported");
    expect(warning?.message).toContain("lookahead and lookbehind");
    expect(warning?.line).toBe(4);
    expect(matchesTrigger("deploy(?!ment)", "deploy now")).toBe(false);
  });
});

describe("triggerPattern under load", () => {
  const PATTERNS = ["^(a+)+$", "\\b(sales|revenue)\\b.*\\.csv", "\\.csv\\b", "(x+x+)+y", "^\\s*/?deploy\\b"];
  /** 20,000 messages per pattern: 100,000 matches, many of them the inputs that make RegExp backtrack. */
  function answers(): boolean[] {
    const out: boolean[] = [];
    for (let k = 0; k < 20_000; k++) {
      const n = 20 + (k % 17);
      const messages = [
        `${"a".repeat(n)}${k % 3 === 0 ? "" : "!"}`,
        `total the revenue of q${k % 4}.csv please`,
        `${"x".repeat(n)}${k % 5 === 0 ? "y" : ""}`,
        `  deploy ${k}`,
        `sales ${k}.txt`,
      ];
      for (let p = 0; p < PATTERNS.length; p++)
        out.push(matchesTrigger(PATTERNS[p]!, messages[(k + p) % 5]!));
    }
    return out;
  }

  it("100,000 matches under a CPU-burning neighbour give the same answers as at idle", async () => {
    const idle = answers();
    expect(idle).toHaveLength(100_000);
    expect(idle.filter(Boolean).length).toBeGreaterThan(10_000);
    const burners = os.availableParallelism();
    const children = Array.from({ length: burners }, () =>
      spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const loaded = answers();
      let differing = 0;
      for (let k = 0; k < idle.length; k++) if (loaded[k] !== idle[k]) differing++;
      expect(differing).toBe(0);
      // Each answer is RegExp's, where RegExp can answer in time.
      expect(idle[0]).toBe(new RegExp(PATTERNS[0]!, "i").test(`${"a".repeat(20)}`));
    } finally {
      for (const child of children) child.kill("SIGKILL");
    }
  }, 120_000);
});
