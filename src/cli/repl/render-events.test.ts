import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createStyle } from "../create-style.js";
import { createHumanRenderer, toolChangeLines } from "./render-events.js";

describe("toolChangeLines", () => {
  it("one line per reason: a single tool keeps its line, many are counted and listed (cut near 100 characters)", () => {
    const open = Array.from({ length: 12 }, (_, i) => ({
      name: `mcp__files__tool_${i}`,
      reason: "tool gating is open",
    }));
    const lines = toolChangeLines("+", [
      ...open,
      { name: "mcp__t__create", reason: "granted by skill 'triage'" },
    ]);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\+ 12 tools \(tool gating is open\): mcp__files__tool_0, mcp__files__tool_1, .*, …$/,
    );
    expect(lines[0]!.length).toBeLessThan(160);
    expect(lines[1]).toBe("+ tool mcp__t__create: granted by skill 'triage'");
  });
});

describe("createHumanRenderer", () => {
  it("while a tool runs the spinner says which (not 'thinking')", () => {
    const labels: Array<string | undefined> = [];
    const out = new PassThrough();
    const renderer = createHumanRenderer({
      text: out,
      info: out,
      style: createStyle({ isTTY: false }, {}),
      spinner: { start: (label?: string) => void labels.push(label), stop: () => {} },
    });
    renderer.handle({ type: "step-start", step: 0, activeTools: [], systemTokens: 0 });
    renderer.handle({
      type: "tool-call",
      step: 0,
      toolCallId: "c",
      toolName: "mcp__files__export",
      input: {},
    });
    expect(labels).toEqual([undefined, "running mcp__files__export…"]);
  });
});

describe("createHumanRenderer: subagents", () => {
  it("a child's work is indented and collapsed: its calls and failures, not its text", () => {
    const out = new PassThrough();
    const renderer = createHumanRenderer({
      text: out,
      info: out,
      style: createStyle({ isTTY: false }, {}),
      spinner: { start: () => {}, stop: () => {} },
    });
    const tag = { agent: "data", parentCallId: "c1", depth: 1 } as const;
    const usage = { inputTokens: 20, outputTokens: 10, totalTokens: 30 };
    renderer.handle({
      type: "agent-start",
      step: 0,
      ...tag,
      sessionId: "s",
      model: "m",
      task: "Summarise\nthe CSV",
    });
    renderer.handle({
      type: "agent-event",
      step: 0,
      ...tag,
      event: {
        type: "tool-call",
        step: 0,
        toolCallId: "x",
        toolName: "skill_load",
        input: { name: "csv-summary" },
      },
    });
    renderer.handle({
      type: "agent-event",
      step: 1,
      ...tag,
      event: { type: "text-delta", step: 1, text: "secret" },
    });
    renderer.handle({
      type: "agent-end",
      step: 1,
      ...tag,
      sessionId: "s",
      usage,
      steps: 2,
      skillsLoaded: ["csv-summary"],
      files: [],
      aborted: false,
    });
    renderer.finish();
    expect(String(out.read())).toBe(
      "⇢ agent data: Summarise\n  → skill_load csv-summary\n⇠ agent data: 2 steps, 30 tokens\n",
    );
  });
});
