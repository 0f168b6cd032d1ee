import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { createSkillSession } from "../context/create-skill-session.js";
import { createSkillTools } from "../tools/create-skill-tools.js";
import { scriptedModel, systemOf } from "./__fixtures__/scripted-model.js";
import type { EngineEvent } from "./engine-event.js";
import { fromSkillSession } from "./from-skill-session.js";
import { runAgent } from "./run-agent.js";

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
  const context = fromSkillSession(session, createSkillTools(session));
  return { session, context };
}

describe("fromSkillSession", () => {
  it("a user load joins the history as a load result; a model unload stubs it in the next step", async () => {
    const { context } = await setup("history");
    const load = await context.loadSkill("alpha", { by: "user" });
    expect(load.ok).toBe(true);
    if (!load.ok) return;
    expect(load.messages.map((m) => m.role)).toEqual(["assistant", "tool"]);
    const messages: ModelMessage[] = [...load.messages, { role: "user", content: "now forget alpha" }];
    const model = scriptedModel([
      { toolCalls: [{ name: "skill_unload", input: '{"name":"alpha"}' }] },
      { text: "done" },
    ]);
    const events: EngineEvent[] = [];
    const result = await runAgent({ model, context, messages, onEvent: (e) => events.push(e) });
    expect(result.text).toBe("done");
    expect(JSON.stringify(model.calls[0]!.prompt)).toContain("ALPHA BODY");
    expect(JSON.stringify(model.calls[1]!.prompt)).not.toContain("ALPHA BODY");
    expect(events).toContainEqual(
      expect.objectContaining({ type: "skill-unload", name: "alpha", by: "model" }),
    );
    expect(context.loadedSkills()).toEqual([]);
  });

  it("system placement renders the body into the system prompt from the next step on", async () => {
    const { context } = await setup("system");
    const model = scriptedModel([
      { toolCalls: [{ name: "skill_load", input: '{"name":"beta"}' }] },
      { text: "ok" },
    ]);
    const events: EngineEvent[] = [];
    await runAgent({
      model,
      context,
      messages: [{ role: "user", content: "beta please" }],
      onEvent: (e) => events.push(e),
    });
    expect(systemOf(model.calls[0]!)).toContain("- beta: Beta things.");
    expect(systemOf(model.calls[0]!)).not.toContain("BETA BODY.");
    expect(systemOf(model.calls[1]!)).toContain("BETA BODY.");
    expect(events).toContainEqual(expect.objectContaining({ type: "skill-load", name: "beta", by: "model" }));
  });

  it("lists skills with markers and costs, and the ledger counts the loaded body", async () => {
    const { context } = await setup("history");
    await context.loadSkill("beta", { by: "select" });
    const listing = context.listSkills();
    expect(listing.map((s) => [s.name, s.loaded])).toEqual([
      ["alpha", false],
      ["beta", true],
    ]);
    expect(listing.every((s) => s.tokens > 0)).toBe(true);
    const ledger = context.ledger();
    const bodies = ledger.entries.filter((e) => e.kind === "skill").reduce((a, e) => a + e.tokens, 0);
    expect(bodies).toBeGreaterThan(0);
    expect(ledger.entries.reduce((a, e) => a + e.tokens, 0)).toBe(ledger.total);
  });
});
