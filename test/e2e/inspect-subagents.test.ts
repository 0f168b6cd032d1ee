/**
 * Subagents end to end: the built CLI's `ask` delegates (an agent from skillrt.config.json) against a
 * loopback provider, the store holds the child session linked to the parent turn, and `skillrt inspect`
 * in Chromium shows the child nested under the turn with per-agent tokens summing to the turn's total.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readTurnLog } from "../../src/inspect/turn-record.js";
import { createSqliteStore } from "../../src/store/create-sqlite-store.js";
import { hasChromium, launchChromium } from "./support/chromium.mjs";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, runCli } from "./support/run-cli.js";
import { stopChildren } from "./support/stop-children.js";

const repo = path.resolve(import.meta.dirname, "../..");
const bin = path.join(repo, "bin", "skillrt.js");
const examples = path.join(repo, "examples/skills");
const shots = path.join(repo, "test-results");
const csv = "name,age\nann,31\nbob,27\n";

let cwd: string;
let provider: LoopbackProvider | undefined;
let browser: Browser | undefined;
const children: ChildProcessWithoutNullStreams[] = [];

function startInspect(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [bin, "inspect", ...args], {
    cwd,
    env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: cwd, NO_COLOR: "1" },
  });
  children.push(child);
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => {
    err += String(d);
  });
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += String(d);
      const line = out.split("\n")[0];
      if (out.includes("\n") && line !== undefined) resolve(line);
    });
    child.on("close", (code) => reject(new Error(`inspect exited ${code}: ${err}`)));
  });
}

beforeAll(async () => {
  if (!hasChromium) return;
  assertBuilt();
  await mkdir(shots, { recursive: true });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-inspect-agents-"));
});
afterEach(async () => {
  await stopChildren(children);
  await provider?.close();
  provider = undefined;
  await rm(cwd, { recursive: true, force: true });
});

describe.skipIf(!hasChromium)(
  `subagents in skillrt inspect${hasChromium ? "" : " (skipped: /usr/bin/chromium is not installed)"}`,
  () => {
    it("ask delegates; the store links the child to the turn; the inspector nests it with per-agent tokens", async () => {
      // One provider serves the parent and (model: inherit) the child, in turn.
      provider = await startLoopbackProvider("openai", [
        { toolCalls: [{ name: "agent_run", input: { agent: "data", task: `Summarise this CSV:\n${csv}` } }] },
        { toolCalls: [{ name: "skill_load", input: { name: "csv-summary" } }] },
        { text: "2 rows; ages 27 to 31." },
        { text: "The data agent found 2 rows." },
      ]);
      await writeFile(
        path.join(cwd, "skillrt.config.json"),
        // `approval: never` asks for looser approvals than the parent's: narrowed, and the inspector says so.
        JSON.stringify({
          agents: { data: { description: "Summarises data files.", skills: ["csv-*"], approval: "never" } },
        }),
      );
      const ask = await runCli(["ask", "--json", "--root", examples, "what is in my csv?"], {
        cwd,
        env: {
          OPENAI_BASE_URL: provider.baseURL,
          OPENAI_API_KEY: "sk-loopback",
          AGENT_MODEL: "loopback-model",
        },
      });
      expect(ask.code).toBe(0);
      // ask --json carries the child's events, tagged.
      const events = ask.stdout
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as { type: string; agent?: string; event?: { type: string } });
      expect(
        events.some((e) => e.type === "agent-event" && e.agent === "data" && e.event?.type === "skill-load"),
      ).toBe(true);

      const store = createSqliteStore({ path: path.join(cwd, ".skillrt", "sessions.db") });
      const ids = (await store.list({ namespace: "conversation" })).map((s) => s.id);
      expect(ids).toHaveLength(2);
      const parentId = ids.find((id) => !id.includes(".agent."))!;
      const childId = ids.find((id) => id.startsWith(`${parentId}.agent.data.`))!;
      expect(childId).toBeDefined();
      const parentLog = await readTurnLog(store, parentId);
      const childLog = await readTurnLog(store, childId);
      await store.close();
      const end = parentLog.turns[0]!.events.find((e) => e.type === "agent-end") as
        | { sessionId: string; usage: { totalTokens: number } }
        | undefined;
      expect(end?.sessionId).toBe(childId);
      const narrowedNote = `agent 'data' (${path.join(cwd, "skillrt.config.json")}) asked for approval 'never'; it keeps its parent's stricter 'unlisted'.`;
      expect(parentLog.turns[0]!.events.find((e) => e.type === "agent-start")).toMatchObject({
        narrowed: [narrowedNote],
      });
      expect(end?.usage.totalTokens).toBe(childLog.turns[0]!.usage.totalTokens);
      const own = parentLog.turns[0]!.usage.totalTokens;
      const childTokens = childLog.turns[0]!.usage.totalTokens;
      expect(own).toBeGreaterThan(0);
      expect(childTokens).toBeGreaterThan(0);

      const url = await startInspect(["--root", examples, "--port", "0"]);
      const page = await (await browser!.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      await page.goto(`${url}#/session/${encodeURIComponent(parentId)}`);
      const nested = page.locator('section.turn[data-turn="1"] .subagents li[data-agent="data"]');
      await nested.waitFor();
      expect(await nested.getAttribute("data-session")).toBe(childId);
      expect(Number(await nested.getAttribute("data-tokens"))).toBe(childTokens);
      expect(await nested.locator(".narrowed li").textContent()).toBe(`narrowed: ${narrowedNote}`);
      const sums = page.locator('section.turn[data-turn="1"] .agent-tokens');
      expect(Number(await sums.getAttribute("data-own"))).toBe(own);
      expect(Number(await sums.getAttribute("data-total"))).toBe(own + childTokens);
      expect(await sums.textContent()).toContain(
        `= ${(own + childTokens).toLocaleString("en")} for the turn`,
      );
      await page.screenshot({ path: path.join(shots, "inspect-subagents.png"), fullPage: true });

      // The child's own session: its turn and context composition (csv-summary loaded).
      await nested.locator("a").click();
      // The parent's page has a turn 1 too: wait for the child's page itself (its id in the heading).
      await page.locator("h1 .id", { hasText: childId }).waitFor();
      const childTurn = page.locator('section.turn[data-turn="1"]');
      await childTurn.waitFor();
      expect(await page.locator("h1 .id").textContent()).toBe(childId);
      await childTurn.locator('.bar .seg[data-key="skill:csv-summary"]').waitFor();
      expect(await childTurn.locator('.bar .seg[data-key="skill:csv-summary"]').count()).toBe(1);
    }, 90_000);
  },
);
