import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { describeDiagnosticCodes } from "./describe-diagnostic-codes.js";
import { parseSkillMd } from "./parse-skill-md.js";
import type { ParseSkillResult } from "./types.js";

const fixtureDir = new URL("./__fixtures__/lenient/", import.meta.url);
const seeds = [
  ...readdirSync(fixtureDir).map((f) => readFileSync(new URL(f, fixtureDir), "utf8")),
  "---\nname: my-skill\ndescription: A test skill\nlicense: MIT\nmetadata:\n  author: x\n  version: 1.0\nallowed-tools: Read Bash(git:*)\n---\n# My Skill\n\nBody.\n",
];

const insertions = [
  "---",
  "---\n",
  ": ",
  "\t",
  "'",
  '"',
  "\ufeff",
  "\r\n",
  "#",
  "[",
  "{",
  "&a ",
  "*a",
  "!!str ",
  "|",
  ">-",
  "- ",
  "\u0000",
  "\ud800",
  "é",
  "😀",
];

type Mutation = (lines: string[], rnd: (n: number) => number) => string[];
const mutations: Mutation[] = [
  (l, r) => l.filter((_, i) => i !== r(l.length)),
  (l, r) => {
    const i = r(l.length);
    return [...l.slice(0, i + 1), l[i] ?? "", ...l.slice(i + 1)];
  },
  (l, r) => {
    const i = r(l.length);
    const line = l[i] ?? "";
    const at = r(line.length + 1);
    const copy = [...l];
    copy[i] = line.slice(0, at) + insertions[r(insertions.length)] + line.slice(at);
    return copy;
  },
  (l, r) => {
    const copy = [...l];
    copy.splice(r(l.length + 1), 0, "---");
    return copy;
  },
  (l, r) => {
    const copy = [...l];
    copy[r(l.length)] = "x".repeat(1 + r(r(10) === 0 ? 100_000 : 2_000));
    return copy;
  },
  (l, r) => l.map((line) => (r(4) === 0 ? `\t${line}` : line)),
];

const mutatedText = fc
  .tuple(
    fc.constantFrom(...seeds),
    fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
    fc.integer(),
    fc.boolean(),
  )
  .map(([seed, ops, salt, crlf]) => {
    let state = salt;
    const rnd = (n: number) => {
      state = (Math.imul(state ^ (state >>> 15), 2246822507) + 0x9e3779b9) | 0;
      return n <= 0 ? 0 : Math.abs(state) % n;
    };
    let lines = seed.split("\n");
    for (const op of ops) lines = mutations[op % mutations.length]!(lines, rnd);
    const text = lines.join("\n");
    return crlf ? text.replace(/\n/g, "\r\n") : text;
  });

const anyText = fc.oneof(
  { weight: 4, arbitrary: mutatedText },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 300 }) },
  {
    weight: 1,
    arbitrary: fc.string({ unit: "grapheme-composite", maxLength: 300 }).map((s) => `---\n${s}\n---\n${s}`),
  },
);
const anyBytes = fc.oneof(
  fc.uint8Array({ maxLength: 2000 }),
  mutatedText.map((t) => {
    const bytes = new TextEncoder().encode(t);
    if (bytes.length > 0) bytes[bytes.length >> 1] = 0xff;
    return bytes;
  }),
);

const severities = new Set(["error", "warning"]);

function expectWellFormed(result: ParseSkillResult, lenient: boolean): void {
  for (const d of result.diagnostics) {
    expect(
      Object.keys(d).every((k) => ["code", "severity", "message", "path", "line", "column"].includes(k)),
    ).toBe(true);
    expect(d.code in describeDiagnosticCodes).toBe(true);
    expect(severities.has(d.severity)).toBe(true);
    expect(typeof d.message === "string" && d.message.length > 0).toBe(true);
    // The parser's last-resort catch must never be what answers.
    expect(d.message.startsWith("SKILL.md could not be parsed")).toBe(false);
    expect(typeof d.path).toBe("string");
    if (d.line !== undefined) expect(Number.isInteger(d.line) && d.line >= 1).toBe(true);
    if (d.column !== undefined) expect(Number.isInteger(d.column) && d.column >= 1).toBe(true);
  }
  const skill = result.skill;
  if (skill === undefined) {
    expect(result.diagnostics.some((d) => d.severity === "error")).toBe(true);
    return;
  }
  expect(skill.name.trim()).not.toBe("");
  expect(skill.description.trim()).not.toBe("");
  expect(typeof skill.body).toBe("string");
  expect(skill.bodyLine).toBeGreaterThanOrEqual(1);
  if (lenient && skill.allowedTools !== undefined)
    expect(skill.allowedTools.every((t) => typeof t === "string")).toBe(true);
  if (skill.metadata !== undefined)
    expect(Object.values(skill.metadata).every((v) => typeof v === "string")).toBe(true);
}

function check(input: string | Uint8Array): void {
  for (const mode of ["strict", "lenient"] as const) {
    for (const dirName of [undefined, "my-skill"]) {
      const options = dirName === undefined ? { mode } : { mode, dirName };
      expectWellFormed(parseSkillMd(input, options), mode === "lenient");
    }
  }
}

describe("parseSkillMd on arbitrary input", () => {
  test("10,000 random and mutated texts: never throws, every diagnostic well-formed", () => {
    fc.assert(fc.property(anyText, check), { numRuns: 10_000 });
  }, 120_000);

  test("2,000 random and corrupted byte arrays", () => {
    fc.assert(fc.property(anyBytes, check), { numRuns: 2_000 });
  }, 120_000);

  test("a 10 MB input of random bytes and a 10 MB unclosed frontmatter are handled", () => {
    const random = new Uint8Array(10 * 1024 * 1024);
    let x = 12345;
    for (let i = 0; i < random.length; i++) {
      x = (x * 1103515245 + 12345) >>> 0;
      random[i] = x >>> 24;
    }
    check(random);
    const huge = `---\nname: my-skill\ndescription: ${"word ".repeat(2_000_000)}\n`;
    const r = parseSkillMd(huge, { dirName: "my-skill" });
    expect(r.skill?.name).toBe("my-skill");
    expect(r.diagnostics.map((d) => d.code)).toContain("frontmatter-unclosed");
    const deep = `---\nname: ${"[".repeat(100_000)}\n---\n`;
    check(deep);
  });
});
