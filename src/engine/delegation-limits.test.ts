import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Catalog } from "../catalog/types.js";
import { DelegationLimitError } from "../errors/delegation-limit-error.js";
import { createMemoryCatalog } from "../test-kit.js";
import { scriptedModel, toolNamesOf } from "../testing/scripted-model.js";
import type { ToolApprovalRequest } from "../tools/tool-approval.js";
import { createToolRegistry } from "../tools/tool-registry.js";
import { createSkillAgent } from "./create-skill-agent.js";
import { type EngineEvent, innermostEvent } from "./engine-event.js";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await createMemoryCatalog([
    { name: "alpha", description: "Alpha skill.", body: "Alpha body." },
    { name: "beta", description: "Beta skill.", body: "Beta body." },
  ]);
});

const twoCalls = (agent = "worker") => ({
  toolCalls: [
    { id: "call-a", name: "agent_run", input: JSON.stringify({ agent, task: "task a" }) },
    { id: "call-b", name: "agent_run", input: JSON.stringify({ agent, task: "task b" }) },
  ],
});

/** Resolves once `model` has received `n` calls (checked every few ms), or after `ms` regardless. */
function callsReach(model: { calls: unknown[] }, n: number, ms = 5_000): Promise<void> {
  return new Promise((resolve) => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (model.calls.length >= n || Date.now() - started > ms) {
        clearInterval(timer);
        resolve();
      }
    }, 2);
  });
}

/**
 * A model that, asked right after a user message, calls `agent_run` for `worker` `fanOut` times in one
 * step, and answers "done" once it has the results.
 */
function fanningModel(fanOut: number): MockLanguageModelV4 & { calls: LanguageModelV4CallOptions[] } {
  const calls: LanguageModelV4CallOptions[] = [];
  const model = new MockLanguageModelV4({
    doStream: async (options) => {
      calls.push(options);
      const answered = options.prompt.at(-1)?.role !== "user";
      const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if (answered) {
        parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "done" });
        parts.push({ type: "text-end", id: "t" });
      } else {
        for (let i = 0; i < fanOut; i++)
          parts.push({
            type: "tool-call",
            toolCallId: `call-${calls.length}-${i}`,
            toolName: "agent_run",
            input: JSON.stringify({ agent: "worker", task: `part ${i}` }),
          });
      }
      parts.push({
        type: "finish",
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        finishReason: { unified: answered ? "stop" : "tool-calls", raw: undefined },
      });
      return { stream: simulateReadableStream({ chunks: parts, chunkDelayInMs: null }) };
    },
  });
  return Object.assign(model, { calls });
}

/** Every agent-start at any depth of nesting. */
const starts = (events: EngineEvent[]) =>
  events.filter((e) => innermostEvent(e).type === "agent-start" || e.type === "agent-start");

const lifecycle = (events: EngineEvent[]): string[] =>
  events.flatMap((e) =>
    e.type === "agent-start" || e.type === "agent-end" ? [`${e.type.slice(6)}:${e.parentCallId}`] : [],
  );

describe("delegation limits", () => {
  it("two delegations in one step run at once; concurrency 1 runs them one after the other", async () => {
    // Each child's request waits until both children have sent theirs: only overlapping runs get past
    // the gate without its fallback, and the event order shows whether they overlapped.
    let open = (): void => {};
    const bothAsked = new Promise<void>((resolve) => {
      open = resolve;
    });
    const gated = scriptedModel([
      { text: "done a", gate: bothAsked },
      { text: "done b", gate: bothAsked },
    ]);
    const events: EngineEvent[] = [];
    const agent = await createSkillAgent({
      model: scriptedModel([twoCalls(), { text: "both done" }]),
      catalog,
      executor: false,
      agents: { worker: { description: "Works.", model: "child" } },
      delegation: { models: { child: gated } },
    });
    void callsReach(gated, 2).then(open);
    try {
      const result = await agent.send("do both", { onEvent: (e) => events.push(e) });
      expect(result.text).toBe("both done");
      expect(lifecycle(events).slice(0, 2)).toEqual(["start:call-a", "start:call-b"]);
      expect(lifecycle(events).slice(2).sort()).toEqual(["end:call-a", "end:call-b"]);
    } finally {
      await agent.close();
    }

    const serialEvents: EngineEvent[] = [];
    const serial = await createSkillAgent({
      model: scriptedModel([twoCalls(), { text: "both done" }]),
      catalog,
      executor: false,
      agents: { worker: { description: "Works.", model: "child" } },
      delegation: { models: { child: scriptedModel([{ text: "done" }]) }, concurrency: 1 },
    });
    try {
      await serial.send("do both", { onEvent: (e) => serialEvents.push(e) });
      expect(lifecycle(serialEvents)).toEqual(["start:call-a", "end:call-a", "start:call-b", "end:call-b"]);
    } finally {
      await serial.close();
    }
  });

  it("aborting the parent turn ends both children", async () => {
    const never = new Promise<void>(() => {});
    const child = scriptedModel([{ text: "never", gate: never }]);
    const controller = new AbortController();
    const events: EngineEvent[] = [];
    const agent = await createSkillAgent({
      model: scriptedModel([twoCalls(), { text: "unreached" }]),
      catalog,
      executor: false,
      agents: { worker: { description: "Works.", model: "child" } },
      delegation: { models: { child } },
    });
    try {
      void callsReach(child, 2).then(() => controller.abort());
      const result = await agent.send("do both", {
        abortSignal: controller.signal,
        onEvent: (e) => events.push(e),
      });
      expect(result.aborted).toBe(true);
      expect(child.calls).toHaveLength(2);
      const ends = events.filter((e) => e.type === "agent-end");
      expect(ends).toHaveLength(2);
      expect(ends.every((e) => e.type === "agent-end" && e.aborted)).toBe(true);
    } finally {
      await agent.close();
    }
  });

  it("a child delegating past the depth limit gets a clear tool error", async () => {
    // One model serves parent and child in turn: parent delegates, child tries to, child answers, parent answers.
    const model = scriptedModel([
      { toolCalls: [{ id: "p1", name: "agent_run", input: '{"agent":"worker","task":"go"}' }] },
      { toolCalls: [{ id: "c1", name: "agent_run", input: '{"agent":"worker","task":"deeper"}' }] },
      { text: "could not go deeper" },
      { text: "done" },
    ]);
    const events: EngineEvent[] = [];
    const agent = await createSkillAgent({
      model,
      catalog,
      executor: false,
      agents: { worker: { description: "Works." } },
      delegation: { maxDepth: 1 },
    });
    try {
      await agent.send("go", { onEvent: (e) => events.push(e) });
      const refused = events.flatMap((e) =>
        e.type === "agent-event" && e.event.type === "tool-result" ? [e.event] : [],
      );
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatchObject({ toolName: "agent_run", isError: true });
      expect(String(refused[0]?.output)).toBe(
        "Cannot delegate to 'worker': this agent is at depth 1 and subagents may nest at most 1 deep " +
          "(delegation.maxDepth). Do the task yourself instead.",
      );
      expect(events.filter((e) => e.type === "agent-start")).toHaveLength(1);
    } finally {
      await agent.close();
    }
  });

  it("a child is offered only the parent's tools its definition lists; its approvals reach the parent's handler labelled", async () => {
    const echo = tool({
      description: "Echo.",
      inputSchema: z.object({ text: z.string() }),
      execute: async ({ text }) => `echo:${text}`,
    });
    const registry = createToolRegistry();
    const deployed: string[] = [];
    registry.register(
      "deploy",
      tool({
        description: "Deploy.",
        inputSchema: z.object({ env: z.string() }),
        execute: async ({ env }) => {
          deployed.push(env);
          return `deployed ${env}`;
        },
      }),
    );
    registry.register(
      "wipe",
      tool({ description: "Wipe.", inputSchema: z.object({}), execute: async () => "wiped" }),
    );
    const child = scriptedModel([
      { toolCalls: [{ name: "deploy", input: '{"env":"staging"}' }] },
      { text: "deployed to staging" },
    ]);
    const asked: ToolApprovalRequest[] = [];
    const agent = await createSkillAgent({
      model: scriptedModel([
        { toolCalls: [{ name: "agent_run", input: '{"agent":"ops","task":"deploy staging"}' }] },
        { text: "ok" },
      ]),
      catalog,
      executor: false,
      tools: { echo },
      toolRegistry: registry,
      toolGating: "open",
      approval: {
        mode: "always",
        onApproval: (request) => {
          asked.push(request);
          return "yes";
        },
      },
      agents: {
        // `shell` is no tool of the parent: listing it gives the child nothing.
        ops: { description: "Operations.", tools: ["deploy", "echo", "shell"], model: "child" },
      },
      delegation: { models: { child } },
    });
    try {
      await agent.send("deploy");
      const offered = toolNamesOf(child.calls[0]!);
      expect(offered).toEqual(expect.arrayContaining(["deploy", "echo"]));
      expect(offered).not.toContain("wipe");
      expect(offered).not.toContain("shell");
      expect(asked).toEqual([
        expect.objectContaining({ toolName: "deploy", input: { env: "staging" }, agent: "ops" }),
      ]);
      expect(deployed).toEqual(["staging"]);
    } finally {
      await agent.close();
    }
  });

  it("a model asking for 500 subagents in one step gets 16 started and the limit's message for the other 484", async () => {
    const child = scriptedModel([{ text: "part done" }]);
    const events: EngineEvent[] = [];
    const parent = fanningModel(500);
    const agent = await createSkillAgent({
      model: parent,
      catalog,
      executor: false,
      agents: { worker: { description: "Works.", model: "child" } },
      delegation: { models: { child } },
    });
    try {
      const result = await agent.send("split it 500 ways", { onEvent: (e) => events.push(e) });
      expect(result.text).toBe("done");
      const delegations = result.toolCalls.filter((c) => c.toolName === "agent_run");
      expect(delegations).toHaveLength(500);
      const refused = delegations.filter((c) => c.isError);
      expect(refused).toHaveLength(484);
      for (const call of refused)
        expect(call.output).toBe(
          "Delegation limit reached: 16 subagents started this turn (limit 16, delegation.maxPerTurn); " +
            "'worker' was not started. Do the remaining work yourself, or with the answers the subagents " +
            "already gave.",
        );
    } finally {
      await agent.close();
    }
    // Children started: 16 agent-start events, 16 child conversations (one model call each).
    expect(starts(events)).toHaveLength(16);
    expect(child.calls).toHaveLength(16);
    expect(events.filter((e) => e.type === "agent-end")).toHaveLength(16);
  });

  it("the per-turn limit counts every level of nesting, and starts afresh the next turn", async () => {
    // Parent fans out to 3 workers, each of which fans out to 3 more (depth 2): 12 wanted, 5 allowed.
    const events: EngineEvent[] = [];
    const parent = fanningModel(3);
    const worker = fanningModel(3);
    const agent = await createSkillAgent({
      model: parent,
      catalog,
      executor: false,
      agents: { worker: { description: "Works.", model: "worker" } },
      delegation: { models: { worker }, maxPerTurn: 5, maxDepth: 2 },
    });
    try {
      await agent.send("first", { onEvent: (e) => events.push(e) });
      expect(starts(events)).toHaveLength(5);
      const refusals = events
        .map(innermostEvent)
        .filter((e) => e.type === "tool-result" && e.toolName === "agent_run" && e.isError);
      // The 3 workers start 2 more between them; their other 7 calls hit the limit. The 2 at depth 2 find
      // the depth limit instead (3 calls each).
      const texts = refusals.map((e) => (e.type === "tool-result" ? String(e.output) : ""));
      expect(texts.filter((t) => t.startsWith("Delegation limit reached: 5 subagents"))).toHaveLength(7);
      expect(texts.filter((t) => t.startsWith("Cannot delegate to 'worker'"))).toHaveLength(6);
      expect(texts).toHaveLength(13);

      events.length = 0;
      await agent.send("second", { onEvent: (e) => events.push(e) });
      expect(starts(events)).toHaveLength(5);
    } finally {
      await agent.close();
    }
  });

  it("delegation.maxPerTurn 0 starts no subagent; delegate() outside a turn is refused with the same message", async () => {
    const agent = await createSkillAgent({
      model: scriptedModel([{ text: "unused" }]),
      catalog,
      executor: false,
      agents: { worker: { description: "Works." } },
      delegation: { maxPerTurn: 0 },
    });
    try {
      const refused = await agent.delegate("worker", "task").catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DelegationLimitError);
      expect(refused).toMatchObject({ code: "delegation-limit", limit: 0 });
      expect(String((refused as Error).message)).toContain(
        "Delegation limit reached: 0 subagents started this turn (limit 0, delegation.maxPerTurn)",
      );
    } finally {
      await agent.close();
    }
  });
});
