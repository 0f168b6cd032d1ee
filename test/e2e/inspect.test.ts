/**
 * `skillrt inspect` end to end in a real browser: the built CLI as child processes (`ask` / `chat` against
 * a loopback provider, then `inspect`), Debian's Chromium driven by playwright-core. Assertions are on the
 * rendered DOM; screenshots go to test-results/. Skipped (with the reason) where Chromium is not installed;
 * `.ci/run` installs it.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../../src/catalog/create-catalog.js";
import { restoreSkillSession } from "../../src/context/restore-skill-session.js";
import { loadConversation } from "../../src/engine/saved-conversation.js";
import { readTurnLog } from "../../src/inspect/turn-record.js";
import { createSqliteStore } from "../../src/store/create-sqlite-store.js";
import { hasChromium, launchChromium } from "./support/chromium.mjs";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";
import { counter, requestHistoryTokens, requestToolTokens, writeBigSkill } from "./support/request-tokens.js";
import { assertBuilt, runCli } from "./support/run-cli.js";
import { stopChildren } from "./support/stop-children.js";

const repo = path.resolve(import.meta.dirname, "../..");
const bin = path.join(repo, "bin", "skillrt.js");
const examples = path.join(repo, "examples/skills");
const shots = path.join(repo, "test-results");
const BODY_MARK = "Run the bundled script"; // from csv-summary's SKILL.md body
const csv = "name,age,city\nann,31,Paris\nbob,27,Rome\n";

let cwd: string;
let provider: LoopbackProvider | undefined;
let browser: Browser | undefined;
const children: ChildProcessWithoutNullStreams[] = [];

const env = (p: LoopbackProvider): Record<string, string> => ({
  OPENAI_BASE_URL: p.baseURL,
  OPENAI_API_KEY: "sk-loopback-inspector-secret",
  AGENT_MODEL: "loopback-model",
});

/** Starts `skillrt inspect …` and resolves with its first stdout line (the URL) and what it wrote to stderr. */
function startInspect(
  args: string[],
): Promise<{ url: string; child: ChildProcessWithoutNullStreams; stderr: () => string }> {
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
      if (out.includes("\n") && line !== undefined) resolve({ url: line, child, stderr: () => err });
    });
    child.on("close", (code) => reject(new Error(`inspect exited ${code}: ${err}`)));
  });
}

async function newPage(width = 1280, height = 800): Promise<Page> {
  if (browser === undefined) throw new Error("no browser");
  const context = await browser.newContext({ viewport: { width, height } });
  return context.newPage();
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
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-inspect-"));
});
afterEach(async () => {
  await stopChildren(children);
  await provider?.close();
  provider = undefined;
  await rm(cwd, { recursive: true, force: true });
});

describe.skipIf(!hasChromium)(
  `skillrt inspect in Chromium${hasChromium ? "" : " (skipped: /usr/bin/chromium is not installed; .ci/run installs it)"}`,
  () => {
    it("shows a scripted ask: the session, per-turn composition equal to the session ledger, load → read → run in order", async () => {
      provider = await startLoopbackProvider("openai", [
        { toolCalls: [{ name: "skill_load", input: { name: "csv-summary" } }] },
        { toolCalls: [{ name: "skill_read", input: { name: "csv-summary", path: "references/format.md" } }] },
        {
          toolCalls: [
            {
              name: "skill_run",
              input: { name: "csv-summary", command: "node scripts/summarize.mjs -", stdin: csv },
            },
          ],
        },
        { text: "The file has 2 rows." },
      ]);
      const ask = await runCli(["ask", "--root", examples, "summarise my csv"], { cwd, env: env(provider) });
      expect(ask.code).toBe(0);

      // The session ledger, measured independently: restore the saved session and measure its history.
      const store = createSqliteStore({ path: path.join(cwd, ".skillrt", "sessions.db") });
      const [info] = await store.list({ namespace: "conversation" });
      const id = info!.id;
      const saved = await loadConversation(store, id, "conversation");
      const catalog = await createCatalog({ roots: [{ path: examples, scope: "project" }] });
      const session = await restoreSkillSession(saved!.skills, { catalog });
      session.history.measure(saved!.messages);
      const ledger = session.ledger();
      const log = await readTurnLog(store, id);
      await store.close();
      expect(ledger.entries.map((e) => e.key)).toEqual(
        expect.arrayContaining(["catalog", "skill:csv-summary", "history"]),
      );
      expect(ledger.entries.some((e) => e.kind === "read")).toBe(true);

      const { url } = await startInspect(["--root", examples, "--port", "0"]);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const page = await newPage();
      await page.goto(url);
      const row = page.locator(`#sessions tr[data-session="${id}"]`);
      await row.waitFor();
      expect(await row.textContent()).toContain("csv-summary");
      await page.screenshot({ path: path.join(shots, "inspect-sessions.png") });

      await row.locator("a").click();
      const turn = page.locator('section.turn[data-turn="1"]');
      await turn.waitFor();
      const segments = await turn.locator('.bar .seg[data-ledger="true"]').evaluateAll((els) =>
        els.map((e) => ({
          key: e.getAttribute("data-key"),
          tokens: Number(e.getAttribute("data-tokens")),
        })),
      );
      const expected = ledger.entries
        .filter((e) => e.tokens > 0)
        .map((e) => ({ key: e.key, tokens: e.tokens }));
      expect(segments).toEqual(expected);
      expect(log.turns[0]!.ledgerTotal).toBe(ledger.total);
      expect(await turn.locator("[data-ledger-total]").getAttribute("data-ledger-total")).toBe(
        String(ledger.total),
      );

      // Timeline: the load, the read and the run, in that order.
      const timeline = await turn
        .locator("ol.timeline > li")
        .evaluateAll((els) =>
          els.map(
            (e) =>
              `${e.getAttribute("data-type")}:${e.getAttribute("data-name") ?? e.getAttribute("data-tool") ?? ""}`,
          ),
        );
      const order = ["skill-load:csv-summary", "tool-call:skill_read", "tool-call:skill_run"].map((e) =>
        timeline.indexOf(e),
      );
      expect(order.every((i) => i >= 0)).toBe(true);
      expect(order).toEqual([...order].sort((a, b) => a - b));
      // The run's result as the model saw it; the API key never reaches the page.
      await turn.locator('li[data-tool="skill_run"] summary').click();
      expect(await turn.locator('li[data-tool="skill_run"]').textContent()).toMatch(/rows: 2/);
      expect(await page.content()).not.toContain("sk-loopback-inspector-secret");

      // Clicking a block shows its exact text.
      await turn.locator('.bar .seg[data-key="skill:csv-summary"]').click();
      await page.locator("dialog#block[open]").waitFor();
      expect(await page.locator("#block-text").textContent()).toContain(BODY_MARK);
      await page.screenshot({ path: path.join(shots, "inspect-block.png") });
      await page.keyboard.press("Escape");
      await page.locator("dialog#block[open]").waitFor({ state: "detached" });
      await page.screenshot({ path: path.join(shots, "inspect-session.png"), fullPage: true });

      // Phone width: the page still lays out without horizontal overflow of the document.
      const phone = await newPage(390, 844);
      await phone.goto(`${url}#/session/${encodeURIComponent(id)}`);
      await phone.locator('section.turn[data-turn="1"]').waitFor();
      const overflow = await phone.evaluate<number>(
        "document.documentElement.scrollWidth - window.innerWidth",
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await phone.screenshot({ path: path.join(shots, "inspect-session-phone.png"), fullPage: true });

      // Keyboard only: Tab reaches the session's link in the list, Enter opens it and moves focus to the view;
      // Tab reaches a block of the composition bar, Enter shows its text, Escape closes it and focus returns.
      const keys = await newPage();
      await keys.goto(url);
      await keys.locator(`#sessions tr[data-session="${id}"]`).waitFor();
      const focusedIn = (selector: string): Promise<boolean> =>
        keys.evaluate<boolean>(`document.activeElement?.closest(${JSON.stringify(selector)}) != null`);
      const tabUntil = async (selector: string): Promise<number> => {
        for (let presses = 1; presses <= 40; presses++) {
          await keys.keyboard.press("Tab");
          if (await focusedIn(selector)) return presses;
        }
        throw new Error(`Tab never reached ${selector}`);
      };
      await tabUntil(`#sessions tr[data-session="${id}"] a`);
      await keys.keyboard.press("Enter");
      await keys.locator('section.turn[data-turn="1"]').waitFor();
      expect(await keys.evaluate<string>("document.activeElement?.id")).toBe("view");
      await tabUntil('.bar .seg[data-key="skill:csv-summary"]');
      await keys.keyboard.press("Enter");
      await keys.locator("dialog#block[open]").waitFor();
      expect(await keys.locator("#block-text").textContent()).toContain(BODY_MARK);
      await keys.keyboard.press("Escape");
      await keys.locator("dialog#block[open]").waitFor({ state: "detached" });
      expect(await focusedIn('.bar .seg[data-key="skill:csv-summary"]')).toBe(true);
      // The focused element is visibly outlined.
      expect(await keys.evaluate<string>("getComputedStyle(document.activeElement).outlineStyle")).not.toBe(
        "none",
      );

      // Catalog: every example skill, with its status and body tokens; search ranks like skill_search.
      await page.goto(`${url}#/catalog`);
      await page.locator("#catalog tbody tr").first().waitFor();
      expect(await page.locator("#catalog tbody tr").count()).toBe(catalog.list().length);
      expect(await page.locator('#catalog tr[data-skill="csv-summary"]').getAttribute("data-status")).toBe(
        "full",
      );
      await page.fill("#catalog-search", "table of contents");
      await page
        .locator("#catalog tbody tr")
        .first()
        .and(page.locator('[data-skill="markdown-toc"]'))
        .waitFor();
      expect(await page.locator("#catalog tbody tr").count()).toBeLessThan(catalog.list().length);
      await page.screenshot({ path: path.join(shots, "inspect-catalog.png") });
    }, 90_000);

    it("after /unload: the last turn's history is what the request carried, tool definitions listed; the dialog closes on navigation; sessions show their first message", async () => {
      const root = path.join(cwd, "skills");
      const bodyTokens = await writeBigSkill(root, "ledger-audit", 7000);
      provider = await startLoopbackProvider("openai", [{ text: "Loaded and read." }, { text: "Done." }]);
      const chat = spawn(process.execPath, [bin, "chat", "--root", root], {
        cwd,
        env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: cwd, NO_COLOR: "1", ...env(provider) },
      });
      children.push(chat);
      let out = "";
      chat.stdout.on("data", (d) => {
        out += String(d);
      });
      chat.stdin.end(
        ["/skill ledger-audit", "audit it", "/unload ledger-audit", "and now?", "/exit", ""].join("\n"),
      );
      await new Promise((resolve) => chat.on("close", resolve));
      expect(out).toContain("Done.");
      const request = provider.requests[1]!.body;
      const sent = requestHistoryTokens(request);
      const toolTokens = requestToolTokens(request);
      const toolsTotal = [...toolTokens.values()].reduce((a, b) => a + b, 0);

      const { url } = await startInspect(["--root", root, "--port", "0"]);
      const page = await newPage();
      await page.goto(url);
      const row = page.locator("#sessions tbody tr").first();
      await row.waitFor();
      expect(await row.locator(".first-message").textContent()).toBe("audit it");
      await row.locator("a").click();

      const first = page.locator('section.turn[data-turn="1"]');
      const last = page.locator('section.turn[data-turn="2"]');
      await last.waitFor();
      const tokensOf = async (turn: typeof last, key: string): Promise<number> =>
        Number(await turn.locator(`.bar .seg[data-key="${key}"]`).getAttribute("data-tokens"));
      // Turn 1 had the body in context; turn 2 only its stub, in a history within 5% of the request's.
      expect(await tokensOf(first, "skill:ledger-audit")).toBeGreaterThanOrEqual(bodyTokens);
      expect(await last.locator('.bar .seg[data-key="skill:ledger-audit"]').count()).toBe(0);
      const history = await tokensOf(last, "history");
      expect(Math.abs(history - sent) / sent).toBeLessThan(0.05 + counter.count("Done.") / sent);
      expect(history).toBe(sent + counter.count("Done."));
      // The user's /skill and /unload are in the timelines of the turns they preceded.
      expect(await first.locator('ol.timeline > li[data-type="skill-load"]').textContent()).toMatch(
        /loaded skill ledger-audit by user/,
      );
      expect(await last.locator('ol.timeline > li[data-type="skill-unload"]').textContent()).toMatch(
        /ledger-audit/,
      );
      // The tool definitions: their total in the bar, one line per tool in the block.
      expect(await tokensOf(last, "tools")).toBe(toolsTotal);
      await last.locator('.bar .seg[data-key="tools"]').click();
      await page.locator("dialog#block[open]").waitFor();
      const listed = (await page.locator("#block-text").textContent()) ?? "";
      for (const [name, tokens] of toolTokens)
        expect(listed).toMatch(new RegExp(`^${name}\\s+${tokens}$`, "m"));
      await page.screenshot({ path: path.join(shots, "inspect-tools.png") });

      // Navigating away (the browser's Back) closes the dialog.
      await page.goBack();
      await page.locator("#sessions tbody tr").first().waitFor();
      await page.locator("dialog#block[open]").waitFor({ state: "detached" });
    }, 90_000);

    it("live: a second turn of a running chat appears on the open page within 2 s, without a reload", async () => {
      provider = await startLoopbackProvider("openai", [
        { toolCalls: [{ name: "skill_load", input: { name: "markdown-toc" } }] },
        { text: "Loaded." },
        { text: "Second answer." },
      ]);
      const chat = spawn(process.execPath, [bin, "chat", "--root", examples], {
        cwd,
        env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: cwd, NO_COLOR: "1", ...env(provider) },
      });
      children.push(chat);
      let out = "";
      chat.stdout.on("data", (d) => {
        out += String(d);
      });
      chat.stderr.on("data", (d) => {
        out += String(d);
      });
      const waitFor = async (text: string): Promise<void> => {
        const deadline = Date.now() + 30_000;
        while (!out.includes(text)) {
          if (Date.now() > deadline) throw new Error(`chat never printed '${text}':\n${out}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      chat.stdin.write("make a toc\n");
      await waitFor("Loaded.");

      const { url } = await startInspect(["--root", examples, "--port", "0"]);
      const page = await newPage();
      await page.goto(url);
      const link = page.locator("#sessions tbody tr a").first();
      await link.waitFor();
      await link.click();
      await page.locator('section.turn[data-turn="1"]').waitFor();
      await page.locator('#live[data-state="live"]').waitFor();
      await page.evaluate('window.marker = "same page"');

      chat.stdin.write("and again\n");
      await waitFor("Second answer.");
      const answered = Date.now();
      await page.locator('section.turn[data-turn="2"]').waitFor({ timeout: 2_000 });
      const delay = Date.now() - answered;
      expect(delay).toBeLessThan(2_000);
      expect(await page.evaluate<string>("window.marker")).toBe("same page");
      expect(await page.locator('section.turn[data-turn="2"] .user-text').textContent()).toBe("and again");
      await page.screenshot({ path: path.join(shots, "inspect-live.png"), fullPage: true });
      chat.stdin.end("/exit\n");
    }, 90_000);
  },
);

describe.skipIf(!hasChromium)("skillrt inspect: a catalog larger than one page", () => {
  it("shows the first page at once, the rest on request, exactly the skills a status holds, findings by keyboard", async () => {
    const root = path.join(cwd, "many");
    const names = Array.from({ length: 450 }, (_, i) => `tool-${String(i).padStart(3, "0")}`);
    await Promise.all(
      names.map(async (name, i) => {
        await mkdir(path.join(root, name), { recursive: true });
        const extra = i === 3 ? "colour: teal\n" : "";
        await writeFile(
          path.join(root, name, "SKILL.md"),
          `---\nname: ${name}\ndescription: Does task number ${i} for the test catalog.\n${extra}---\nBody ${i}.\n`,
        );
      }),
    );
    const store = createSqliteStore({ path: path.join(cwd, "s.db") });
    await store.close();
    const { url } = await startInspect([
      "--store",
      "s.db",
      "--root",
      root,
      "--catalog-budget",
      "600",
      "--port",
      "0",
    ]);
    const page = await newPage();
    await page.goto(`${url}#/catalog`);
    const rows = page.locator("#catalog tbody tr");
    await rows.first().waitFor();
    expect(await rows.count()).toBe(200);
    const summary = page.locator("#catalog-summary");
    const leftOut = Number(await summary.getAttribute("data-left-out"));
    const listed = ["full", "shortened", "name-only"].map(async (k) =>
      Number(await summary.getAttribute(`data-${k}`)),
    );
    expect(leftOut).toBeGreaterThan(200);
    expect(leftOut + (await Promise.all(listed)).reduce((a, b) => a + b, 0)).toBe(450);
    expect(await page.locator("#catalog-shown").textContent()).toBe(
      "200 of 450 matching, 450 skill(s) in all",
    );

    // Keyboard: the findings of tool-003 open from its button, and "Show 200 more" adds the next page.
    const findings = page.locator('#catalog tr[data-skill="tool-003"] button.findings');
    expect(await findings.textContent()).toBe("1 finding(s)");
    await findings.focus();
    await page.keyboard.press("Enter");
    expect(await findings.getAttribute("aria-expanded")).toBe("true");
    expect(await page.locator('#catalog tr[data-skill="tool-003"] .findings-list').textContent()).toContain(
      "unknown-field",
    );
    await page.locator("#catalog-more").focus();
    await page.keyboard.press("Enter");
    await rows.nth(399).waitFor();
    expect(await rows.count()).toBe(400);
    expect(await rows.nth(399).getAttribute("data-skill")).toBe("tool-399");

    // The status filter lists exactly the skills the budget left out.
    await page.selectOption("#catalog-status", "left-out");
    await page.click("#catalog-all");
    await page.locator("#catalog-more").waitFor({ state: "hidden" });
    expect(await rows.count()).toBe(leftOut);
    expect(await page.locator('#catalog tbody tr:not([data-status="left-out"])').count()).toBe(0);
    await page.screenshot({ path: path.join(shots, "inspect-catalog-pages.png") });
  }, 90_000);
});

describe("skillrt inspect failures: one clear line each", () => {
  beforeAll(() => assertBuilt());

  it("a store URL it cannot read", async () => {
    const bad = await runCli(["inspect", "--store", "mysql://db/x"], { cwd, env: {} });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr.trim().split("\n")).toEqual([
      "skillrt inspect: unsupported store URL 'mysql://db/x': give a SQLite file (PATH or sqlite:PATH) or a postgres:// URL",
    ]);
    const missing = await runCli(["inspect", "--store", "nowhere.db"], { cwd, env: {} });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split("\n")).toEqual([
      `skillrt inspect: no session database at ${path.join(cwd, "nowhere.db")} (check --store)`,
    ]);
  });

  it("a port in use", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    const store = createSqliteStore({ path: path.join(cwd, "s.db") });
    await store.close();
    try {
      const run = await runCli(["inspect", "--store", "s.db", "--port", String(port)], { cwd, env: {} });
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split("\n")).toEqual([
        `skillrt inspect: port ${port} on 127.0.0.1 is in use; pick another with --port N (--port 0 picks a free one)`,
      ]);
    } finally {
      blocker.close();
    }
  });

  it("a non-loopback host: serves, with one warning line", async () => {
    const store = createSqliteStore({ path: path.join(cwd, "s.db") });
    await store.close();
    const { url, stderr } = await startInspect([
      "--store",
      "s.db",
      "--port",
      "0",
      "--host",
      "0.0.0.0",
      "--root",
      examples,
    ]);
    expect(url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/$/);
    const deadline = Date.now() + 5_000;
    while (!stderr().includes("Ctrl-C") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const warnings = stderr()
      .trim()
      .split("\n")
      .filter((l) => l.includes("warning"));
    expect(warnings).toEqual([
      "skillrt inspect: warning: listening on 0.0.0.0, not loopback: anyone who can reach this address can read your conversations",
    ]);
  });
});

describe.skipIf(!hasChromium)("skillrt inspect: malformed links", () => {
  it("a session link that is not valid percent-encoding shows an error view, and the page renders again after it", async () => {
    const store = createSqliteStore({ path: path.join(cwd, "s.db") });
    await store.put("kept-session", { note: "x" });
    await store.close();
    const { url } = await startInspect(["--store", "s.db", "--port", "0"]);
    const page = await newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${url}#/session/%E0%A4%A`);
    const bad = page.locator("#bad-link");
    await bad.waitFor();
    expect(await bad.getAttribute("role")).toBe("alert");
    expect(await bad.textContent()).toBe(
      "The address #/session/%E0%A4%A does not name a session (it is not valid percent-encoding). Show all sessions.",
    );
    expect(await page.title()).toBe("Bad link · skillrt inspect");
    // Its link leads back, and the page keeps rendering: the sessions list, then the catalog.
    await bad.locator("a").click();
    await page.locator("#sessions").waitFor();
    await page.evaluate('location.hash = "#/session/%"');
    await bad.waitFor();
    await page.evaluate('location.hash = "#/catalog"');
    await page.locator("h1", { hasText: "Catalog" }).waitFor();
    expect(errors).toEqual([]);
    await page.screenshot({ path: path.join(shots, "inspect-bad-link.png") });
  }, 90_000);
});
