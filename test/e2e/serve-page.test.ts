/**
 * The chat page of `skillrt serve` in headless Chromium (playwright-core, /usr/bin/chromium): a person
 * types a message, sees the streamed answer and the skill activity, answers an approval with a click, and
 * after a reload sees the conversation again. Screenshots go to test-results/. Skipped (with the reason)
 * where Chromium is not installed.
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { trackerStdio } from "../../src/tools/mcp-client/__fixtures__/tracker.js";
import { hasChromium, launchChromium } from "./support/chromium.mjs";
import { type LoopbackProvider, loopbackEnv, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, writeTrustedConfig } from "./support/run-cli.js";
import { type ServeProcess, startServe } from "./support/start-serve.js";

const repo = path.resolve(import.meta.dirname, "../..");
const shots = path.join(repo, "test-results");
const examples = path.join(repo, "examples", "skills");
const TOKEN = "serve-page-token-0123456789abcdefghijklmnop";
const CSV = "name,age\nann,31\nbob,27\n";

let browser: Browser | undefined;
let cwd: string;
let provider: LoopbackProvider | undefined;
let served: ServeProcess | undefined;

beforeAll(async () => {
  assertBuilt();
  if (!hasChromium) return;
  await mkdir(shots, { recursive: true });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-serve-page-"));
  await writeFile(path.join(cwd, "token"), `${TOKEN}\n`, { mode: 0o600 });
});
afterEach(async () => {
  await served?.stop();
  served = undefined;
  await provider?.close();
  provider = undefined;
  await rm(cwd, { recursive: true, force: true });
});

describe("the chat page at /", { timeout: 90_000 }, () => {
  it("type a message, see the streamed answer and the skill activity; approve a call with a click; reload resumes", async (context) => {
    if (browser === undefined) return context.skip();
    const log = path.join(cwd, "calls.jsonl");
    await writeTrustedConfig(cwd, {
      mcpServers: { tracker: trackerStdio({ TRACKER_LOG: log }) },
      tools: { gating: "open" },
    });
    provider = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "skill_load", input: { name: "csv-summary" } }] },
      {
        toolCalls: [
          {
            name: "skill_run",
            input: { name: "csv-summary", command: "node scripts/summarize.mjs -", stdin: CSV },
          },
        ],
      },
      { text: "The file has 2 rows; age from 27 to 31." },
      { toolCalls: [{ name: "mcp__tracker__create_issue", input: { title: "Ages look odd" } }] },
      { text: "Filed the issue." },
    ]);
    served = await startServe(
      ["--store", "sqlite:sessions.db", "--token-file", "token", "--root", examples, "--executor", "local"],
      { cwd, env: loopbackEnv(provider) },
    );
    const page = await browser.newPage({ viewport: { width: 1000, height: 760 } });
    try {
      // The token travels in the fragment, which the browser never sends to the server.
      await page.goto(`${served.url}/?c=page-chat#token=${TOKEN}`);
      expect(page.url()).not.toContain(TOKEN);
      await page.fill("#input", "summarise my csv");
      await page.press("#input", "Enter");
      const answer = page.locator(".message.assistant .text", { hasText: "The file has 2 rows" });
      await answer.waitFor();
      const activity = await page.locator(".message.assistant .activity").allTextContents();
      expect(activity).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^✓ skill_load/),
          expect.stringMatching(/^◆ loaded skill csv-summary \(\d+ tokens\)$/),
          expect.stringMatching(/^✓ skill_run /),
        ]),
      );
      const run = page.locator(".message.assistant .activity", { hasText: "✓ skill_run" });
      expect(await run.getAttribute("title")).toContain("min=27 max=31 mean=29");
      expect(await page.locator("#status").textContent()).toMatch(/done · \d+ tokens/);
      await page.screenshot({ path: path.join(shots, "serve-chat-answer.png") });

      // An approval: the call waits, shown with Approve/Deny; it runs only after the click.
      await page.fill("#input", "file an issue about the ages");
      await page.press("#input", "Enter");
      const question = page.locator(".approval", { hasText: "mcp__tracker__create_issue" });
      await question.waitFor();
      expect(await readFile(log, "utf8").catch(() => "")).toBe("");
      await page.screenshot({ path: path.join(shots, "serve-chat-approval.png") });
      await question.getByRole("button", { name: "Approve" }).click();
      await page.locator(".message.assistant .text", { hasText: "Filed the issue." }).waitFor();
      expect(JSON.parse((await readFile(log, "utf8")).trim())).toMatchObject({
        tool: "create_issue",
        input: { title: "Ages look odd" },
      });

      // A reload shows the saved conversation again (GET /api/chat/ID), from the store.
      await page.reload();
      await page.locator(".message.user", { hasText: "summarise my csv" }).waitFor();
      await page.locator(".message.assistant .text", { hasText: "Filed the issue." }).waitFor();
      await page.screenshot({ path: path.join(shots, "serve-chat-resumed.png"), fullPage: true });
      expect((await stat(path.join(shots, "serve-chat-answer.png"))).size).toBeGreaterThan(5000);
    } finally {
      await page.close();
    }
  });
});
