import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSkillTree, type SkillTree } from "./__fixtures__/skill-tree.js";
import { createSkillSession } from "./create-skill-session.js";
import { restoreSkillSession } from "./restore-skill-session.js";
import type { Placement } from "./session-options.js";
import type { SkillSession } from "./skill-session.js";
import { createTokenCounter } from "./token-counter.js";

const counter = createTokenCounter();
let tree: SkillTree;
const NAMES = ["alpha", "beta", "gamma", "delta"];
const PATHS = ["SKILL.md", "references/a.md", "references/b.md", "notes.txt", "missing.md", "../x"];

beforeAll(async () => {
  tree = await makeSkillTree(
    NAMES.map((name, i) => ({
      name,
      description: `The ${name} skill: does ${name} things with files & <tags>.`,
      body: `# ${name}\n\n${`Step ${i}: follow the ${name} procedure carefully, then report. `.repeat(20 + i * 15)}\nArgs: $ARGUMENTS / $0`,
      files: {
        "references/a.md": `# A of ${name}\n\n${"Reference text line.\n".repeat(30 + i * 10)}`,
        "references/b.md": `# B\n\n${"More details about edge cases; see section 2.\n".repeat(10)}`,
        "notes.txt": "short notes\n",
      },
    })),
  );
});
afterAll(() => tree.cleanup());

const op = fc.oneof(
  fc.record({
    t: fc.constant("load" as const),
    name: fc.constantFrom(...NAMES),
    args: fc.option(fc.constantFrom("x y", "'a b' c"), { nil: undefined }),
  }),
  fc.record({ t: fc.constant("unload" as const), name: fc.constantFrom(...NAMES) }),
  fc.record({
    t: fc.constant("select" as const),
    name: fc.constantFrom(...NAMES),
    docs: fc.subarray(["references/a.md", "references/b.md", "notes.txt", "nope.md"]),
    mode: fc.constantFrom("add" as const, "replace" as const, "clear" as const),
    all: fc.boolean(),
  }),
  fc.record({
    t: fc.constant("read" as const),
    name: fc.constantFrom(...NAMES),
    path: fc.constantFrom(...PATHS),
    start: fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
  }),
  fc.record({ t: fc.constant("history" as const), tokens: fc.integer({ min: 0, max: 3_000 }) }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

async function apply(session: SkillSession, o: Op): Promise<void> {
  switch (o.t) {
    case "load":
      await session.load(
        o.name,
        o.args !== undefined ? { args: o.args, toolCallId: `c${Math.random()}` } : {},
      );
      return;
    case "unload":
      session.unload(o.name);
      return;
    case "select":
      await session.selectDocs(o.name, o.docs, o.mode, { includeAllDocs: o.all });
      return;
    case "read":
      await session.readFile(
        o.name,
        o.path,
        o.start !== undefined ? { startLine: o.start, endLine: o.start + 5 } : {},
      );
      return;
    case "history":
      session.history.setTokens(o.tokens);
      return;
  }
}

function checkLedger(session: SkillSession): void {
  const rendered = session.renderer.render();
  const ledger = session.ledger();
  const history = ledger.entries.find((e) => e.key === "history")?.tokens ?? 0;
  const historyBlocks = rendered.blocks
    .filter((b) => b.placement === "history")
    .reduce((s, b) => s + counter.count(b.text), 0);
  // The total is the tokens of the rendered system prompt, plus each history-placed block, plus history.
  expect(ledger.total).toBe(counter.count(rendered.system) + historyBlocks + history);
  expect(ledger.entries.map((e) => e.key)).toEqual([...rendered.blocks.map((b) => b.key), "history"]);
  // Rendering is deterministic: same state, same bytes.
  expect(session.renderer.render()).toEqual(rendered);
  expect(session.renderer.systemPrompt()).toBe(rendered.system);
}

describe("ledger property", () => {
  it("after any sequence of load / unload / select / read / evict, the ledger equals the tokens of what is rendered", async () => {
    let evictions = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 14 }),
        fc.constantFrom<Placement>("history", "system"),
        fc.integer({ min: 2_500, max: 9_000 }),
        fc.constantFrom("list" as const, "markdown" as const, "xml" as const, "agentskills" as const),
        fc.constantFrom("omni" as const, "trpc" as const),
        async (ops, placement, contextWindow, catalogFormat, systemLayout) => {
          const session = createSkillSession({
            catalog: tree.catalog,
            id: "p",
            placement,
            contextWindow,
            catalogFormat,
            systemLayout,
            catalogBudget: 150,
            skillBudget: 1_500,
          });
          session.on("budget-evict", () => {
            evictions += 1;
          });
          for (const o of ops) {
            await apply(session, o);
            checkLedger(session);
            expect(session.ledger().total - session.ledger().entries.at(-1)!.tokens).toBeLessThanOrEqual(
              Math.max(session.ledger().threshold, 0) + 1_500,
            );
          }
          const restored = await restoreSkillSession(JSON.parse(JSON.stringify(session.snapshot())), {
            catalog: tree.catalog,
            contextWindow,
            catalogFormat,
            systemLayout,
            catalogBudget: 150,
            skillBudget: 1_500,
          });
          expect(restored.renderer.render()).toEqual(session.renderer.render());
          expect(restored.ledger().total).toBe(session.ledger().total);
        },
      ),
      {
        numRuns: 60,
        // Random runs evict only when they happen to load enough; this one always does, so the
        // eviction path is exercised on every run of the suite.
        examples: [
          [
            [
              { t: "history", tokens: 1_200 },
              ...NAMES.map((name) => ({ t: "load" as const, name, args: undefined })),
              { t: "read", name: "delta", path: "references/a.md", start: undefined },
            ],
            "system",
            2_500,
            "list",
            "omni",
          ],
        ],
      },
    );
    expect(evictions).toBeGreaterThan(0);
  });
});
