import { describe, expect, it } from "vitest";
import { progressReporter, type ToolProgress } from "./tool-progress.js";

const call = { toolCallId: "c1", toolName: "mcp__build__compile" };

describe("progressReporter", () => {
  it("hands each report on with the call's identity, the message as one clean line", () => {
    const seen: ToolProgress[] = [];
    const reporter = progressReporter((p) => seen.push(p), call, 0);
    reporter.report({ progress: 1, total: 3, message: "compiling\u001b[31m lexer.ts\n" });
    reporter.report({ message: "x".repeat(500) });
    expect(seen[0]).toMatchObject({ ...call, progress: 1, total: 3, message: "compiling lexer.ts" });
    expect(seen[0]?.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(seen[1]?.message).toHaveLength(200);
    expect(seen[1]).not.toHaveProperty("progress");
  });

  it("within the interval only the latest report is held back, delivered by done(); nothing after it", () => {
    const seen: ToolProgress[] = [];
    const reporter = progressReporter((p) => seen.push(p), call, 60_000);
    reporter.report({ message: "first" });
    for (let i = 0; i < 1000; i++) reporter.report({ message: `flood ${i}` });
    reporter.done();
    reporter.report({ message: "after the end" });
    expect(seen.map((p) => p.message)).toEqual(["first", "flood 999"]);
  });

  it("a held report is delivered when the interval ends", async () => {
    const seen: ToolProgress[] = [];
    const reporter = progressReporter((p) => seen.push(p), call, 30);
    reporter.report({ message: "one" });
    reporter.report({ message: "two" });
    reporter.report({ message: "three" });
    await new Promise((resolve) => setTimeout(resolve, 120));
    reporter.done();
    expect(seen.map((p) => p.message)).toEqual(["one", "three"]);
  });

  it("without a listener it does nothing", () => {
    const reporter = progressReporter(undefined, call);
    expect(() => reporter.report({ message: "x" })).not.toThrow();
  });
});
