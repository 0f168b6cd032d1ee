import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { createSkillSession } from "../context/create-skill-session.js";
import type { EngineEvent } from "../engine/engine-event.js";
import { createMemoryStore } from "../store/create-memory-store.js";
import { appendTurnRecord, createTurnRecorder, readTurnLog, TURN_LOG_NAMESPACE } from "./turn-record.js";

async function session() {
  const catalog = await createCatalog({
    roots: [],
    memory: [
      {
        name: "pdf",
        description: "Reads PDF files.",
        body: "# PDF\nUse the script.",
        resources: { "ref.md": "Ref." },
      },
      { name: "csv", description: "Summarises CSV files.", body: "# CSV\nCount rows." },
    ],
  });
  return createSkillSession({ catalog, id: "c1" });
}

describe("turn records", () => {
  it("record the session ledger with block texts, events in order without text deltas, and redact secrets", async () => {
    const s = await session();
    let clock = 1_000;
    const recorder = createTurnRecorder({
      userText: "read the pdf",
      secrets: ["sk-very-secret-key"],
      now: () => clock,
    });
    const seen: EngineEvent[] = [];
    const onEvent = recorder.listen((e) => seen.push(e));
    await s.load("pdf", { toolCallId: "call-1" });
    await s.readFile("pdf", "ref.md", { toolCallId: "call-2" });
    const events: EngineEvent[] = [
      { type: "step-start", step: 0, activeTools: ["skill_load"], systemTokens: 10 },
      { type: "tool-call", step: 0, toolCallId: "call-1", toolName: "skill_load", input: { name: "pdf" } },
      { type: "skill-load", step: 0, name: "pdf", tokens: 20, by: "model" },
      {
        type: "tool-result",
        step: 0,
        toolCallId: "call-3",
        toolName: "skill_run",
        output: "key=sk-very-secret-key",
        isError: false,
        bytes: 20,
      },
      { type: "text-delta", step: 0, text: "Done" },
      {
        type: "step-end",
        step: 0,
        usage: { inputTokens: 100, outputTokens: 5, totalTokens: 105 },
        finishReason: "stop",
      },
    ];
    for (const e of events) {
      clock += 10;
      onEvent(e);
    }
    expect(seen).toEqual(events);
    const messages: ModelMessage[] = [
      { role: "user", content: "read the pdf" },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "call-3", toolName: "skill_run", input: {} }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call-3",
            toolName: "skill_run",
            output: { type: "text", value: "rows: 2" },
          },
        ],
      },
      { role: "assistant", content: "Done" },
    ];
    const { record, texts } = recorder.finish({ session: s, messages, system: "Be helpful." });
    const ledger = s.ledger();
    expect(record.segments.map((g) => [g.key, g.tokens])).toEqual(
      ledger.entries.map((e) => [e.key, e.tokens]),
    );
    expect(record.ledgerTotal).toBe(ledger.total);
    expect(record.segments.find((g) => g.key === "history")?.tokens).toBeGreaterThan(0);
    const body = record.segments.find((g) => g.key === "skill:pdf");
    expect(texts[body?.textId ?? ""]).toContain("Use the script.");
    expect(texts[record.host?.textId ?? ""]).toBe("Be helpful.");
    expect(record.toolResultTokens).toBe(s.counter.count("rows: 2"));
    expect(record.events.map((e) => e.type)).toEqual([
      "step-start",
      "tool-call",
      "skill-load",
      "tool-result",
      "step-end",
    ]);
    expect(record.events.map((e) => e.at)).toEqual([10, 20, 30, 40, 60]);
    expect(JSON.stringify(record)).not.toContain("sk-very-secret-key");
    expect(record.events[3]).toMatchObject({ output: "key=[redacted]" });
    expect(record.usage).toEqual({ inputTokens: 100, outputTokens: 5, totalTokens: 105 });
    expect(record.messageEnd).toBe(4);
  });

  it("append numbered turns next to the conversation and keep only texts a turn points to", async () => {
    const store = createMemoryStore();
    const s = await session();
    await s.load("pdf");
    const first = createTurnRecorder({ userText: "one" }).finish({ session: s, messages: [] });
    await appendTurnRecord(store, "c1", { ...first, texts: { ...first.texts, orphan: "unused" } });
    s.unload("pdf");
    await s.load("csv");
    await appendTurnRecord(
      store,
      "c1",
      createTurnRecorder({ userText: "two" }).finish({ session: s, messages: [] }),
    );
    const log = await readTurnLog(store, "c1");
    expect(log.turns.map((t) => [t.turn, t.userText])).toEqual([
      [1, "one"],
      [2, "two"],
    ]);
    expect(log.texts["orphan"]).toBeUndefined();
    const ids = log.turns.flatMap((t) =>
      t.segments.flatMap((g) => (g.textId === undefined ? [] : [g.textId])),
    );
    expect(Object.keys(log.texts).sort()).toEqual([...new Set(ids)].sort());
    expect((await store.list({ namespace: TURN_LOG_NAMESPACE })).map((i) => i.id)).toEqual(["c1"]);
    // Anything else stored under the id reads as an empty log, never as an error.
    await store.put("c2", { version: 9 }, { namespace: TURN_LOG_NAMESPACE });
    expect((await readTurnLog(store, "c2")).turns).toEqual([]);
  });
});
