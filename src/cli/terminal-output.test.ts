import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createProgress } from "./create-progress.js";
import { createStyle } from "./create-style.js";
import { displayPath, formatDiagnostic } from "./format-diagnostic.js";
import { terminalWidth, truncateText } from "./terminal-width.js";
import { writeJson, writeJsonList } from "./write-output.js";

function sink(highWaterMark: number) {
  const chunks: string[] = [];
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString("utf8"));
      setTimeout(callback, 1);
    },
  });
  return Object.assign(stream, {
    text: () => chunks.join(""),
    writes: () => chunks.length,
    lengths: () => chunks.map((c) => c.length),
  });
}

describe("terminal output helpers", () => {
  it("colours only on a TTY without NO_COLOR", () => {
    expect(createStyle({ isTTY: true }, {}).red("x")).toBe("\u001b[31mx\u001b[39m");
    expect(createStyle({ isTTY: true }, { NO_COLOR: "1" }).red("x")).toBe("x");
    expect(createStyle({}, {}).red("x")).toBe("x");
  });

  it("writes large JSON in one write with a trailing newline, waiting for drain: compact when piped, indented on a TTY", async () => {
    const value = { skills: Array.from({ length: 2000 }, (_, i) => ({ name: `s${i}` })) };
    const piped = sink(16);
    await writeJson(piped, value);
    expect(piped.writes()).toBe(1);
    expect(piped.text()).toBe(`${JSON.stringify(value)}\n`);
    const tty = Object.assign(sink(16), { isTTY: true });
    await writeJson(tty, value);
    expect(tty.writes()).toBe(1);
    expect(tty.text()).toBe(`${JSON.stringify(value, null, 2)}\n`);
  });

  it("writes large non-ASCII JSON byte for byte in one write, with the newline", async () => {
    const value = {
      skills: Array.from({ length: 3000 }, (_, i) => ({
        name: `s${i}`,
        description: `Zoë ✓ 😀 "q" \\ \u0001 ${i}`,
      })),
      missing: undefined,
    };
    const piped = sink(16);
    await writeJson(piped, value);
    expect(piped.writes()).toBe(1);
    expect(piped.text()).toBe(`${JSON.stringify(value)}\n`);
    expect(piped.text().length).toBeGreaterThan(64 * 1024);
    const tty = Object.assign(sink(16), { isTTY: true });
    await writeJson(tty, value);
    expect(tty.writes()).toBe(1);
    expect(tty.text()).toBe(`${JSON.stringify(value, null, 2)}\n`);
  });

  it("writes a long list as the same JSON text as writeJson, piped in several ordered writes", async () => {
    const item = (i: number): unknown =>
      i % 7 === 3 ? undefined : { name: `s${i}`, note: i % 5 === 0 ? 'Zoë "✓"\n\u0000' : undefined, n: i };
    for (const [count, rest] of [
      [0, { diagnostics: [] }],
      [1000, { diagnostics: [{ code: "x" }] }],
      [1001, {}],
      [2000, { diagnostics: [], extra: undefined }],
      [2501, { diagnostics: [{ code: "y", line: 1 }], more: "😀" }],
    ] as const) {
      const items = Array.from({ length: count }, (_, i) => item(i));
      const expected = `${JSON.stringify({ skills: items, ...rest })}\n`;
      const piped = sink(16);
      await writeJsonList(piped, "skills", items, rest);
      expect(piped.text()).toBe(expected);
      // Chunks of whole items of about 32 KiB: every write but the last reaches it, none goes far past.
      const lengths = piped.lengths();
      for (const length of lengths.slice(0, -1)) {
        expect(length).toBeGreaterThanOrEqual(32 * 1024);
        expect(length).toBeLessThan(32 * 1024 + 64);
      }
      if (expected.length > 64 * 1024) expect(lengths.length).toBeGreaterThan(1);
      const tty = Object.assign(sink(16), { isTTY: true });
      await writeJsonList(tty, "skills", items, rest);
      expect(tty.text()).toBe(`${JSON.stringify({ skills: items, ...rest }, null, 2)}\n`);
    }
  });

  it("draws progress on a TTY only, and clears it", async () => {
    const tty = Object.assign(sink(1024), { isTTY: true });
    const progress = createProgress(tty, { label: "validating", total: 3, now: () => 0 });
    progress.update(1);
    progress.update(2); // throttled: same instant
    progress.update(3); // last one always drawn
    progress.clear();
    await new Promise<void>((resolve) => tty.end(resolve));
    expect(tty.text()).toBe("\r\u001b[Kvalidating 1/3\r\u001b[Kvalidating 3/3\r\u001b[K");
    const piped = sink(1024);
    const silent = createProgress(piped, { label: "validating", total: 3 });
    silent.update(3);
    silent.clear();
    expect(piped.text()).toBe("");
  });

  it("truncates to the terminal width with an ellipsis, counting code points", () => {
    expect(truncateText("héllo   wörld\nagain", 9)).toBe("héllo wö…");
    expect(truncateText("short", 9)).toBe("short");
    expect(truncateText("a\nb", undefined)).toBe("a b");
    expect(terminalWidth({ isTTY: true, columns: 100 }, {})).toBe(100);
    expect(terminalWidth({}, { COLUMNS: "60" })).toBe(60);
    expect(terminalWidth({}, {})).toBeUndefined();
  });

  it("formats diagnostics linter-style with paths relative to the cwd", () => {
    const style = createStyle({}, {});
    expect(
      formatDiagnostic(
        {
          code: "name-missing",
          severity: "error",
          message: "Missing name",
          path: "/w/skills/x/SKILL.md",
          line: 2,
        },
        "/w",
        style,
      ),
    ).toBe("skills/x/SKILL.md:2  error  Missing name  name-missing");
    expect(
      formatDiagnostic(
        { code: "bom-stripped", severity: "warning", message: "BOM", path: "/elsewhere/SKILL.md" },
        "/w",
        style,
      ),
    ).toBe("/elsewhere/SKILL.md  warning  BOM  bom-stripped");
    expect(displayPath("/w", "/w")).toBe(".");
  });
});
