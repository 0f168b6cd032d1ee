/**
 * Deferred approvals (the AI SDK's approval flow, as `skillrt serve` uses it): a call that needs approval
 * ends the turn waiting, saved in the history; the next turn — in a new agent, as on another replica —
 * runs it only when the client approved it, refuses it when denied, and a new message refuses it too.
 */
import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createMemoryStore } from "../store/create-memory-store.js";
import { createMemoryCatalog, scriptedModel } from "../test-kit.js";
import { createToolRegistry } from "../tools/tool-registry.js";
import { createSkillAgent } from "./create-skill-agent.js";
import type { EngineEvent } from "./engine-event.js";

function deployRegistry(deployed: string[]) {
  const registry = createToolRegistry();
  registry.register(
    "deploy",
    tool({
      description: "Deploy the site.",
      inputSchema: z.object({ env: z.string() }),
      execute: async ({ env }) => {
        deployed.push(env);
        return `deployed to ${env}`;
      },
    }),
  );
  return registry;
}

async function setup(script: Parameters<typeof scriptedModel>[0]) {
  const deployed: string[] = [];
  const store = createMemoryStore();
  const model = scriptedModel(script);
  const catalog = await createMemoryCatalog([]);
  // A fresh agent per turn, as a stateless server builds one per request.
  const agentFor = () =>
    createSkillAgent({
      model,
      catalog,
      store,
      sessionId: "c1",
      executor: false,
      toolRegistry: deployRegistry(deployed),
      approval: { mode: "always", defer: true },
    });
  return { deployed, model, agentFor };
}

const turn = async (
  agentFor: () => ReturnType<typeof createSkillAgent>,
  input: string,
  approvals?: Array<{ approvalId: string; approved: boolean; reason?: string }>,
) => {
  const agent = await agentFor();
  const events: EngineEvent[] = [];
  try {
    const result = await agent.send(input, {
      onEvent: (e) => events.push(e),
      ...(approvals === undefined ? {} : { approvals }),
    });
    return { result, events };
  } finally {
    await agent.close();
  }
};

describe("deferred approvals", () => {
  it("a call waits for the client, then runs only after it approves (in another agent)", async () => {
    const { deployed, model, agentFor } = await setup([
      { toolCalls: [{ name: "deploy", input: '{"env":"prod"}' }] },
      { text: "Deployed." },
    ]);
    const first = await turn(agentFor, "ship it");
    const request = first.events.find((e) => e.type === "tool-approval-request");
    expect(request).toMatchObject({ toolName: "deploy", input: { env: "prod" } });
    expect(deployed).toEqual([]);
    expect(model.calls).toHaveLength(1);
    const approvalId = (request as { approvalId: string }).approvalId;
    const second = await turn(agentFor, "", [{ approvalId, approved: true }]);
    expect(deployed).toEqual(["prod"]);
    expect(second.result.text).toBe("Deployed.");
    expect(second.events).toContainEqual(
      expect.objectContaining({ type: "tool-result", toolName: "deploy", output: "deployed to prod" }),
    );
    // The answer cannot be replayed: nothing waits any more.
    await expect(turn(agentFor, "", [{ approvalId, approved: true }])).rejects.toThrow(
      /No tool call of this conversation waits for approval/,
    );
    expect(deployed).toEqual(["prod"]);
  });

  it("a denied call never runs and the model reads that it was refused", async () => {
    const { deployed, model, agentFor } = await setup([
      { toolCalls: [{ name: "deploy", input: '{"env":"prod"}' }] },
      { text: "Not deployed." },
    ]);
    const first = await turn(agentFor, "ship it");
    const request = first.events.find((e) => e.type === "tool-approval-request") as { approvalId: string };
    const second = await turn(agentFor, "", [
      { approvalId: request.approvalId, approved: false, reason: "not on a Friday" },
    ]);
    expect(deployed).toEqual([]);
    expect(second.result.text).toBe("Not deployed.");
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain("not on a Friday");
  });

  it("a new message instead of an answer refuses the waiting call; an unknown approval id is refused", async () => {
    const { deployed, model, agentFor } = await setup([
      { toolCalls: [{ name: "deploy", input: '{"env":"prod"}' }] },
      { text: "Fine, no deploy." },
    ]);
    await turn(agentFor, "ship it");
    await expect(turn(agentFor, "", [{ approvalId: "made-up", approved: true }])).rejects.toThrow(
      /No tool call waits for approval 'made-up'/,
    );
    const next = await turn(agentFor, "never mind");
    expect(next.result.text).toBe("Fine, no deploy.");
    expect(deployed).toEqual([]);
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain("instead of approving this call");
  });

  it("a subagent's call that needs approval is refused: a subagent cannot pause its parent's turn", async () => {
    const deployed: string[] = [];
    const child = scriptedModel([
      { toolCalls: [{ name: "deploy", input: '{"env":"prod"}' }] },
      { text: "could not" },
    ]);
    const agent = await createSkillAgent({
      model: scriptedModel([
        {
          toolCalls: [
            { id: "p1", name: "agent_run", input: JSON.stringify({ agent: "worker", task: "deploy" }) },
          ],
        },
        { text: "the worker could not deploy" },
      ]),
      catalog: await createMemoryCatalog([]),
      store: createMemoryStore(),
      executor: false,
      toolRegistry: deployRegistry(deployed),
      approval: { mode: "always", defer: true },
      agents: { worker: { description: "Works.", model: "child" } },
      delegation: { models: { child } },
    });
    try {
      const events: EngineEvent[] = [];
      const result = await agent.send("deploy via the worker", { onEvent: (e) => events.push(e) });
      expect(result.text).toBe("the worker could not deploy");
      expect(deployed).toEqual([]);
      expect(events.some((e) => e.type === "tool-approval-request")).toBe(false);
      const childResult = events.find(
        (e) => e.type === "agent-event" && e.event.type === "tool-result" && e.event.toolName === "deploy",
      );
      expect(JSON.stringify(childResult)).toContain("was not approved");
    } finally {
      await agent.close();
    }
  });
});
