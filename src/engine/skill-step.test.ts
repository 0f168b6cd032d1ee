import { asSchema, type ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { createSkillSession } from "../context/create-skill-session.js";
import { listSkills } from "../context/list-skills.js";
import { loadForUser } from "../context/load-for-user.js";
import { restoreSkillSession } from "../context/restore-skill-session.js";
import { scriptedModel, systemOf } from "../test-kit.js";
import { createSkillTools } from "../tools/create-skill-tools.js";
import type { ProfileName } from "../tools/profile-types.js";
import { SUMMARY_PREFIX } from "./compact-history.js";
import type { EngineEvent } from "./engine-event.js";
import { runAgent } from "./run-agent.js";
import { createSkillStep } from "./skill-step.js";

async function setup(placement: "history" | "system") {
  const catalog = await createCatalog({
    roots: [],
    memory: [
      {
        name: "alpha",
        description: "Alpha things. Use for alpha tasks.",
        body: "ALPHA BODY: do the alpha steps.",
      },
      { name: "beta", description: "Beta things. Use for beta tasks.", body: "BETA BODY." },
    ],
  });
  const session = createSkillSession({ catalog, placement });
  return { session, skillTools: createSkillTools(session) };
}

describe("the engine over a skill session", () => {
  it("a user load joins the history as a load result; a model unload stubs it in the next step", async () => {
    const { session, skillTools } = await setup("history");
    const load = await loadForUser(session, "alpha", { by: "user" });
    expect(load.ok).toBe(true);
    if (!load.ok) return;
    expect(load.messages.map((m) => m.role)).toEqual(["assistant", "tool"]);
    const messages: ModelMessage[] = [...load.messages, { role: "user", content: "now forget alpha" }];
    const model = scriptedModel([
      { toolCalls: [{ name: "skill_unload", input: '{"name":"alpha"}' }] },
      { text: "done" },
    ]);
    const events: EngineEvent[] = [];
    const result = await runAgent({ model, session, skillTools, messages, onEvent: (e) => events.push(e) });
    expect(result.text).toBe("done");
    // Loaded before the first user message: sent right after it, never first.
    expect(model.calls[0]!.prompt.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(JSON.stringify(model.calls[0]!.prompt)).toContain("ALPHA BODY");
    expect(JSON.stringify(model.calls[1]!.prompt)).not.toContain("ALPHA BODY");
    expect(events).toContainEqual(
      expect.objectContaining({ type: "skill-unload", name: "alpha", by: "model" }),
    );
    expect(session.loadedSkills()).toEqual([]);
  });

  it("system placement renders the body into the system prompt from the next step on", async () => {
    const { session, skillTools } = await setup("system");
    const model = scriptedModel([
      { toolCalls: [{ name: "skill_load", input: '{"name":"beta"}' }] },
      { text: "ok" },
    ]);
    const events: EngineEvent[] = [];
    await runAgent({
      model,
      session,
      skillTools,
      messages: [{ role: "user", content: "beta please" }],
      onEvent: (e) => events.push(e),
    });
    expect(systemOf(model.calls[0]!)).toContain("- beta: Beta things.");
    expect(systemOf(model.calls[0]!)).not.toContain("BETA BODY.");
    expect(systemOf(model.calls[1]!)).toContain("BETA BODY.");
    expect(events).toContainEqual(expect.objectContaining({ type: "skill-load", name: "beta", by: "model" }));
  });

  it("lists skills with markers and costs, and the ledger counts the loaded body", async () => {
    const { session } = await setup("history");
    await loadForUser(session, "beta", { by: "select" });
    const listing = listSkills(session);
    expect(listing.map((s) => [s.name, s.loaded])).toEqual([
      ["alpha", false],
      ["beta", true],
    ]);
    expect(listing.every((s) => s.tokens > 0)).toBe(true);
    const ledger = session.ledger();
    const bodies = ledger.entries.filter((e) => e.kind === "skill").reduce((a, e) => a + e.tokens, 0);
    expect(bodies).toBeGreaterThan(0);
    expect(ledger.entries.reduce((a, e) => a + e.tokens, 0)).toBe(ledger.total);
  });
});

describe("active skills in history placement", () => {
  async function activeSetup(profile: ProfileName = "skillrt") {
    const catalog = await createCatalog({
      roots: [],
      memory: [
        {
          name: "house-style",
          description: "House writing style. Always on.",
          body: "HOUSE STYLE BODY: write short sentences.",
          extras: { active: "true" },
        },
        { name: "beta", description: "Beta things. Use for beta tasks.", body: "BETA BODY." },
      ],
    });
    // Nothing but createSkillSession: the engine runs init() itself before the first step.
    const session = createSkillSession({ catalog, profile });
    const skillTools = createSkillTools(session);
    return { session, skillTools, step: createSkillStep(session, skillTools) };
  }

  it("reaches the model on the first step as a load call and result after the first user message, byte-identical later", async () => {
    const { session, skillTools } = await activeSetup();
    const model = scriptedModel([
      { toolCalls: [{ name: "skill_load", input: '{"name":"beta"}' }] },
      { toolCalls: [{ name: "skill_unload", input: '{"name":"house-style"}' }] },
      { text: "done" },
    ]);
    const events: EngineEvent[] = [];
    await runAgent({
      model,
      session,
      skillTools,
      messages: [{ role: "user", content: "write me a note" }],
      onEvent: (e) => events.push(e),
    });
    const first = model.calls[0]!.prompt;
    expect(first.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(first[2]).toMatchObject({
      content: [
        {
          type: "tool-call",
          toolCallId: "init-load-house-style",
          toolName: "skill_load",
          input: { name: "house-style" },
        },
      ],
    });
    expect(JSON.stringify(first[3])).toContain("HOUSE STYLE BODY: write short sentences.");
    expect(systemOf(model.calls[0]!)).not.toContain("HOUSE STYLE BODY");
    // Step 2: the same prefix, byte for byte (prompt caches keep hitting).
    const second = model.calls[1]!.prompt;
    expect(JSON.stringify(second.slice(0, 4))).toBe(JSON.stringify(first));
    // Step 3: unloaded by the model, so its result is now a stub.
    const third = JSON.stringify(model.calls[2]!.prompt[3]);
    expect(third).not.toContain("HOUSE STYLE BODY");
    expect(third).toContain("Skill 'house-style' was removed from the context");
    expect(events).toContainEqual(expect.objectContaining({ type: "skill-load", name: "house-style" }));
    expect(session.loadedSkills()).toEqual(["beta"]);
  });

  it("is not injected twice when the host keeps it, nor after compaction (re-materialised instead)", async () => {
    const { session, step } = await activeSetup();
    await step.prepare();
    const opening = session.history.openingMessages();
    const kept: ModelMessage[] = [
      { role: "user", content: "hi" },
      ...opening,
      { role: "user", content: "more" },
    ];
    expect(step.messages(kept)).toEqual(kept);
    const compacted: ModelMessage[] = [
      { role: "user", content: `${SUMMARY_PREFIX}\nWe talked.` },
      { role: "user", content: session.history.rematerialize() },
      { role: "user", content: "go on" },
    ];
    const rewritten = step.messages(compacted);
    expect(rewritten).toEqual(compacted);
    expect(JSON.stringify(rewritten).split("HOUSE STYLE BODY").length - 1).toBe(1);
  });

  it("survives a restore: the restored session shows it again and init() does not reload it once unloaded", async () => {
    const { session, step } = await activeSetup();
    await step.prepare();
    const catalog = session.catalog;
    const restored = await restoreSkillSession(session.snapshot(), { catalog });
    const again = createSkillStep(restored, createSkillTools(restored));
    const messages = again.messages([{ role: "user", content: "hi" }]);
    expect(JSON.stringify(messages)).toContain("HOUSE STYLE BODY");
    restored.unload("house-style");
    await again.prepare();
    expect(restored.loadedSkills()).toEqual([]);
    expect(JSON.stringify(again.messages([{ role: "user", content: "hi" }]))).not.toContain(
      "HOUSE STYLE BODY",
    );
  });

  it("adds nothing in system placement (the body is in the system prompt)", async () => {
    const catalog = await createCatalog({
      roots: [],
      memory: [{ name: "on", description: "On.", body: "ON BODY.", extras: { active: "true" } }],
    });
    const session = createSkillSession({ catalog, placement: "system" });
    const step = createSkillStep(session, createSkillTools(session));
    await step.prepare();
    const messages: ModelMessage[] = [{ role: "user", content: "hi" }];
    expect(step.messages(messages)).toEqual(messages);
    expect(step.render().instructions).toContain("ON BODY.");
  });
});

describe("synthetic load calls use the profile's load tool and input shape", () => {
  const expected: Record<ProfileName, { toolName: string; input: Record<string, unknown> }> = {
    skillrt: { toolName: "skill_load", input: { name: "alpha", args: "x y" } },
    claude: { toolName: "Skill", input: { skill: "alpha", args: "x y" } },
    trpc: { toolName: "skill_load", input: { skill: "alpha" } },
    agentscope: { toolName: "load_skill_through_path", input: { skillId: "alpha", path: "SKILL.md" } },
    omni: { toolName: "load_skill", input: { name: "alpha" } },
    aworld: { toolName: "active_skill", input: { skill_name: "alpha" } },
  };

  it.each(Object.keys(expected) as ProfileName[])("%s", async (profile) => {
    const catalog = await createCatalog({
      roots: [],
      memory: [
        { name: "alpha", description: "Alpha things.", body: "ALPHA BODY $ARGUMENTS." },
        { name: "on", description: "Always on.", body: "ON BODY.", extras: { active: "true" } },
      ],
    });
    const session = createSkillSession({ catalog, profile });
    const skillTools = createSkillTools(session);
    const load = await loadForUser(session, "alpha", { by: "user", args: "x y" });
    if (!load.ok) throw new Error(load.message);
    const call = load.messages[0]?.content;
    const want = expected[profile];
    expect(call).toEqual([expect.objectContaining({ type: "tool-call", ...want })]);
    expect(load.messages[1]).toMatchObject({ content: [{ toolName: want.toolName }] });
    // The synthetic input is valid for the profile's own load tool.
    const loadTool = skillTools.tools[want.toolName];
    if (loadTool === undefined) throw new Error(`no ${want.toolName}`);
    expect((await asSchema(loadTool.inputSchema).validate?.(want.input))?.success).toBe(true);
    // init() loads use the same shape.
    await createSkillStep(session, skillTools).prepare();
    const { args: _args, ...initInput } = expected[profile].input;
    const opening = session.history.openingMessages()[0]?.content;
    const nameKey = Object.keys(initInput).find((k) => initInput[k] === "alpha") ?? "";
    expect(opening).toEqual([
      expect.objectContaining({ toolName: want.toolName, input: { ...initInput, [nameKey]: "on" } }),
    ]);
  });
});
