import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { createSkillAgent } from "../engine/create-skill-agent.js";
import type { EngineEvent } from "../engine/engine-event.js";
import { createMemoryStore } from "../store/create-memory-store.js";
import { scriptedModel } from "../testing/scripted-model.js";
import { recordTurns } from "./record-turns.js";
import { readTurnLog, TURN_LOG_NAMESPACE } from "./turn-record.js";

const SECRET = "sk-record-turns-secret";

async function catalog() {
  return createCatalog({
    roots: [],
    memory: [{ name: "csv", description: "Summarises CSV files.", body: "# CSV\nCount rows." }],
  });
}

describe("recordTurns", () => {
  it("an agent with a store and no recorder saves its conversation and writes no turn log", async () => {
    const store = createMemoryStore();
    const agent = await createSkillAgent({
      model: scriptedModel([{ text: "hello" }]),
      catalog: await catalog(),
      store,
      env: { OPENAI_API_KEY: SECRET },
    });
    try {
      await agent.send("hi");
      expect((await store.list({ namespace: "conversation" })).map((s) => s.id)).toEqual([agent.sessionId]);
      expect(await store.list({ namespace: TURN_LOG_NAMESPACE })).toEqual([]);
    } finally {
      await agent.close();
    }
  });

  it("attached through subscribe, records every turn, a failed one too (its error redacted)", async () => {
    const store = createMemoryStore();
    const agent = await createSkillAgent({
      model: scriptedModel([{ text: "hello" }, { error: new Error(`provider refused key ${SECRET}`) }]),
      catalog: await catalog(),
      store,
      instructions: "Be brief.",
    });
    recordTurns(agent, { store, env: { OPENAI_API_KEY: SECRET, HOME: "/home/someone" } });
    try {
      await agent.loadSkill("csv");
      await agent.send("hi");
      await expect(agent.send("again")).rejects.toThrow();
      const log = await readTurnLog(store, agent.sessionId);
      expect(log.turns.map((t) => [t.turn, t.userText, t.error === undefined])).toEqual([
        [1, "hi", true],
        [2, "again", false],
      ]);
      // The user's load before the first turn opens its timeline.
      expect(log.turns[0]?.events[0]).toMatchObject({ type: "skill-load", name: "csv", by: "user" });
      expect(log.turns[0]?.segments.some((s) => s.key === "skill:csv")).toBe(true);
      expect(log.turns[1]?.error).toContain("provider refused key");
      expect(JSON.stringify(log)).not.toContain(SECRET);
      expect(log.texts[log.turns[0]?.host?.textId ?? ""]).toBe("Be brief.");
    } finally {
      await agent.close();
    }
  });

  it("a turn a tracer recorded carries its trace id; without a tracer the record has none", async () => {
    const store = createMemoryStore();
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    for (const traced of [true, false]) {
      const agent = await createSkillAgent({
        model: scriptedModel([{ text: "hello" }]),
        catalog: await catalog(),
        store,
        ...(traced ? { tracerProvider } : {}),
      });
      recordTurns(agent, { store });
      try {
        await agent.send("hi");
        const [turn] = (await readTurnLog(store, agent.sessionId)).turns;
        const span = exporter.getFinishedSpans().find((s) => s.name === "invoke_agent skillrt");
        expect(turn?.traceId).toBe(traced ? span?.spanContext().traceId : undefined);
        if (traced) expect(turn?.traceId).toMatch(/^[0-9a-f]{32}$/);
      } finally {
        await agent.close();
      }
    }
    await tracerProvider.shutdown();
  });

  it("records a subagent's turn in its own conversation's log before delegate settles", async () => {
    const store = createMemoryStore();
    const agent = await createSkillAgent({
      model: scriptedModel([{ text: "child answer" }]),
      catalog: await catalog(),
      store,
      agents: { helper: { description: "Helps.", instructions: "Be brief." } },
    });
    const unsubscribe = recordTurns(agent, { store });
    try {
      const result = await agent.delegate("helper", "Say hi.");
      const child = await readTurnLog(store, result.sessionId);
      expect(child.turns.map((t) => [t.userText, t.usage.totalTokens])).toEqual([
        ["Say hi.", result.usage.totalTokens],
      ]);
      // No turn of the parent ran: only the child's log.
      expect((await store.list({ namespace: TURN_LOG_NAMESPACE })).map((s) => s.id)).toEqual([
        result.sessionId,
      ]);
      unsubscribe();
    } finally {
      await agent.close();
    }
  });

  it("records the subagent of a context: fork skill the user runs between turns (/NAME args), as a model-started one", async () => {
    const store = createMemoryStore();
    const agent = await createSkillAgent({
      model: scriptedModel([{ text: "Ideas: kites." }, { text: "Kites it is." }]),
      catalog: await createCatalog({
        roots: [],
        memory: [
          {
            name: "brainstorm",
            description: "Brainstorms.",
            body: "Brainstorm about $ARGUMENTS.",
            extras: { context: "fork" },
          },
        ],
      }),
      store,
      executor: false,
    });
    const unsubscribe = recordTurns(agent, { store });
    const shown: EngineEvent[] = [];
    try {
      const outcome = await agent.loadSkill("brainstorm", { args: "wind", onEvent: (e) => shown.push(e) });
      expect(outcome).toMatchObject({ ok: true, agent: "general-purpose" });
      // The caller sees the child start and end, as the events of a model-started child.
      const start = shown.find((e) => e.type === "agent-start");
      expect(start).toMatchObject({ agent: "general-purpose", depth: 1, task: "Brainstorm about wind." });
      expect(shown.at(-1)).toMatchObject({ type: "agent-end", agent: "general-purpose", steps: 1 });
      // The inspector's recorder wrote the child's turn in its own log.
      const childId = start?.type === "agent-start" ? start.sessionId : "";
      const child = await readTurnLog(store, childId);
      expect(child.turns.map((t) => t.userText)).toEqual(["Brainstorm about wind."]);
      // The parent's next turn opens with the child's start and end, linking to the child's session.
      await agent.send("/brainstorm wind");
      const parent = await readTurnLog(store, agent.sessionId);
      const types = parent.turns[0]?.events.map((e) => e.type) ?? [];
      expect(types.slice(0, 2)).toEqual(["agent-start", "agent-end"]);
      expect(parent.turns[0]?.events[0]).toMatchObject({ agent: "general-purpose", sessionId: childId });
      unsubscribe();
    } finally {
      await agent.close();
    }
  });

  it("subscribers see turn-start and turn-end around a turn; the turn's own stream does not", async () => {
    const agent = await createSkillAgent({
      model: scriptedModel([{ text: "hello" }]),
      catalog: await catalog(),
    });
    const seen: EngineEvent[] = [];
    agent.subscribe((e) => seen.push(e));
    try {
      const own: EngineEvent[] = [];
      const turn = agent.send("hi", { onEvent: (e) => own.push(e) });
      const streamed: EngineEvent[] = [];
      for await (const event of turn) streamed.push(event);
      expect(seen[0]).toMatchObject({
        type: "turn-start",
        sessionId: agent.sessionId,
        text: "hi",
        between: [],
      });
      const end = seen.at(-1);
      expect(end).toMatchObject({ type: "turn-end", sessionId: agent.sessionId });
      expect(end?.type === "turn-end" && end.conversation().history).toHaveLength(2);
      // Serialised, the end is small: the live conversation is behind a function.
      expect(JSON.parse(JSON.stringify(end))).toEqual({
        type: "turn-end",
        step: 0,
        sessionId: agent.sessionId,
      });
      expect(seen.slice(1, -1)).toEqual(streamed);
      expect(own).toEqual(streamed);
      expect(streamed.some((e) => e.type === "turn-start" || e.type === "turn-end")).toBe(false);
    } finally {
      await agent.close();
    }
  });
});
