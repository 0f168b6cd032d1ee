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
