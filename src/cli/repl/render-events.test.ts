import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createStyle } from "../create-style.js";
import { createHumanRenderer, progressDetail, toolChangeLines } from "./render-events.js";

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
      spinner: {
        live: true,
        start: (label?: string) => void labels.push(label),
        update() {},
        stop: () => {},
      },
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

describe("createHumanRenderer: progress of a running tool", () => {
  const progress = (elapsedMs: number, message: string, done?: number) => ({
    type: "tool-progress" as const,
    step: 0,
    toolCallId: "c",
    toolName: "mcp__build__compile",
    ...(done === undefined ? {} : { progress: done, total: 3 }),
    message,
    elapsedMs,
  });

  it("on a terminal the spinner's label carries the server's progress and message", () => {
    const labels: string[] = [];
    const out = new PassThrough();
    const renderer = createHumanRenderer({
      text: out,
      info: out,
      style: createStyle({ isTTY: false }, {}),
      spinner: { live: true, start() {}, update: (label) => void labels.push(label), stop() {} },
    });
    renderer.handle(progress(300, "compiling parser.ts", 2));
    expect(labels).toEqual(["running mcp__build__compile… 2/3 compiling parser.ts"]);
    expect(out.read()).toBeNull();
  });

  it("without one, a line when the message is new, at most one a second per call", () => {
    const out = new PassThrough();
    const renderer = createHumanRenderer({
      text: out,
      info: out,
      style: createStyle({ isTTY: false }, {}),
      spinner: { live: false, start() {}, update() {}, stop() {} },
    });
    renderer.handle(progress(0, "step one", 1));
    renderer.handle(progress(400, "step two", 2)); // within the second: held back
    renderer.handle(progress(1500, "step two", 2));
    renderer.handle(progress(2600, "step two", 2)); // nothing new
    expect(
      String(out.read())
        .split("\n")
        .filter((l) => l !== ""),
    ).toEqual(["… mcp__build__compile: 1/3 step one", "… mcp__build__compile: 2/3 step two"]);
  });

  it("progressDetail: amount of total, amount alone, message alone", () => {
    expect(progressDetail({ progress: 2, total: 5, message: "copying" })).toBe("2/5 copying");
    expect(progressDetail({ progress: 7 })).toBe("7");
    expect(progressDetail({ message: "waiting for the build" })).toBe("waiting for the build");
  });
});

describe("createHumanRenderer: subagents", () => {
  it("a child's work is indented and collapsed: its calls and failures, not its text", () => {
    const out = new PassThrough();
    const renderer = createHumanRenderer({
      text: out,
      info: out,
      style: createStyle({ isTTY: false }, {}),
      spinner: { live: false, start: () => {}, update() {}, stop: () => {} },
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

  it("what a definition asked for and did not get is a warning line under the agent's start", () => {
    const out = new PassThrough();
    const renderer = createHumanRenderer({
      text: out,
      info: out,
      style: createStyle({ isTTY: false }, {}),
      spinner: { live: false, start: () => {}, update() {}, stop: () => {} },
    });
    renderer.handle({
      type: "agent-start",
      step: 0,
      agent: "ops",
      parentCallId: "c1",
      depth: 1,
      sessionId: "s",
      model: "m",
      task: "Deploy",
      narrowed: ["agent 'ops' (code) asked for approval 'never'; it keeps its parent's stricter 'unlisted'."],
    });
    renderer.finish();
    expect(String(out.read())).toBe(
      "⇢ agent ops: Deploy\n  ! agent 'ops' (code) asked for approval 'never'; it keeps its parent's stricter 'unlisted'.\n",
    );
  });
});
