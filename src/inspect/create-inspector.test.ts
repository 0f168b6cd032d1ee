import { mkdtemp, rm } from "node:fs/promises";
import { get } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { createSkillAgent } from "../engine/create-skill-agent.js";
import { createSqliteStore } from "../store/create-sqlite-store.js";
import type { SessionStore } from "../store/session-store.js";
import { scriptedModel } from "../test-kit.js";
import { createCatalogViewer } from "./build-catalog-view.js";
import { createInspector, type Inspector } from "./create-inspector.js";
import { recordTurns } from "./record-turns.js";

const examples = path.resolve(import.meta.dirname, "../../examples/skills");
let cwd: string;
let store: SessionStore;
let inspector: Inspector | undefined;

beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-inspector-"));
  store = createSqliteStore({ path: path.join(cwd, "sessions.db") });
});
afterEach(async () => {
  await inspector?.close();
  inspector = undefined;
  await store.close();
  await rm(cwd, { recursive: true, force: true });
});

async function start(): Promise<Inspector> {
  const catalog = await createCatalog({ roots: [examples] });
  const started = await createInspector({
    store,
    catalog: createCatalogViewer({ catalog, catalogBudget: 120 }),
    port: 0,
    pollMs: 50,
    secrets: ["sk-inspector-test-secret"],
  });
  if (!started.ok) throw new Error(started.message);
  inspector = started.inspector;
  return started.inspector;
}

/** Reads server-sent events from `url` until `until` returns true for the events so far. */
async function readEvents(
  url: string,
  until: (events: Array<{ event: string; data: any }>) => boolean,
  ready: () => Promise<void>,
): Promise<Array<{ event: string; data: any }>> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  const reader = res.body!.getReader();
  const events: Array<{ event: string; data: any }> = [];
  let buffer = "";
  void ready();
  while (!until(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += new TextDecoder().decode(value);
    let cut = buffer.indexOf("\n\n");
    while (cut >= 0) {
      const frame = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(frame)?.[1];
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (event !== undefined && data !== undefined) events.push({ event, data: JSON.parse(data) });
      cut = buffer.indexOf("\n\n");
    }
  }
  controller.abort();
  return events;
}

describe("createInspector", () => {
  it("serves the UI with a strict CSP, and refuses foreign Host headers and writes", async () => {
    const { url } = await start();
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script type="module" src="/app.js">');
    expect((await fetch(`${url}app.js`)).headers.get("content-type")).toContain("javascript");
    expect((await fetch(`${url}../package.json`)).status).toBe(404);
    expect((await fetch(`${url}api/sessions`, { method: "POST" })).status).toBe(405);
    const port = new URL(url).port;
    // A DNS-rebound page reaches the server under the attacker's name (fetch cannot set Host; node:http can).
    const status = await new Promise<number | undefined>((resolve, reject) => {
      get(`${url}api/sessions`, { headers: { host: `attacker.example:${port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      }).on("error", reject);
    });
    expect(status).toBe(421);
    const other = await createInspector({ store, port: Number(port) });
    expect(other).toEqual({
      ok: false,
      message: `port ${port} on 127.0.0.1 is in use; pick another with --port N (--port 0 picks a free one)`,
    });
  });

  it("lists an agent's session, pushes its events live in-process and its saved turn through the store", async () => {
    const { url, attach } = await start();
    const model = scriptedModel([
      { toolCalls: [{ name: "skill_load", input: '{"name":"csv-summary"}' }] },
      { text: "Loaded; the key is sk-inspector-test-secret." },
    ]);
    const catalog = await createCatalog({ roots: [examples] });
    const agent = await createSkillAgent({ model, catalog, cwd, store });
    recordTurns(agent, { store });
    const detach = attach(agent);
    try {
      const events = await readEvents(
        `${url}api/events`,
        (seen) => seen.some((e) => e.event === "session" && e.data.id === agent.sessionId),
        async () => {
          await new Promise((r) => setTimeout(r, 100));
          await agent.send("load the csv skill");
        },
      );
      const agentEvents = events.filter((e) => e.event === "agent").map((e) => e.data);
      expect(agentEvents.every((e) => e.id === agent.sessionId)).toBe(true);
      expect(agentEvents.map((e) => e.event.type)).toEqual(
        expect.arrayContaining(["step-start", "tool-call", "skill-load", "tool-result", "step-end"]),
      );
      expect(agentEvents.some((e) => e.event.type === "text-delta")).toBe(false);

      const sessions = await (await fetch(`${url}api/sessions`)).json();
      expect(sessions).toMatchObject([{ id: agent.sessionId, turns: 1, loaded: ["csv-summary"] }]);
      const detail = await (await fetch(`${url}api/sessions/${agent.sessionId}`)).text();
      expect(detail).not.toContain("sk-inspector-test-secret");
      expect(detail).toContain("[redacted]");
      const parsed = JSON.parse(detail);
      agent.session.history.measure(agent.history());
      const ledger = agent.session.ledger();
      expect(parsed.turnRecords[0].segments.map((s: any) => [s.key, s.tokens])).toEqual(
        ledger.entries.map((e) => [e.key, e.tokens]),
      );
      expect((await fetch(`${url}api/sessions/nope`)).status).toBe(404);
    } finally {
      detach();
      await agent.close();
    }
  });

  it("shows how the budget lists each skill and searches like skill_search", async () => {
    const { url } = await start();
    const view = (await (await fetch(`${url}api/catalog`)).json()) as any;
    const statuses = Object.fromEntries(view.skills.map((s: any) => [s.name, s.status]));
    expect(Object.keys(statuses).sort()).toEqual([
      "csv-summary",
      "git-changelog",
      "json-query",
      "markdown-toc",
    ]);
    // 120 tokens hold the preamble and at most some names: nothing is listed in full.
    expect(Object.values(statuses).some((s) => s === "full")).toBe(false);
    expect(view.stats.searchOffered).toBe(true);
    for (const s of view.skills) {
      const bare = `- ${s.name}\n`;
      if (s.status === "name-only") expect(view.blockText).toContain(bare);
      if (s.status === "left-out") expect(view.blockText).not.toContain(`- ${s.name}`);
      expect(s.bodyTokens).toBeGreaterThan(50);
    }
    expect(view.total).toBe(4);
    expect(Object.values(view.counts).reduce((a: number, b: any) => a + b, 0)).toBe(4);
    // ?first=N: the first N skills for a page's first render; counts and total still cover every skill.
    const first = (await (await fetch(`${url}api/catalog?first=1`)).json()) as any;
    expect(first.skills.map((s: any) => s.name)).toEqual([view.skills[0].name]);
    expect(first.total).toBe(4);
    expect(first.counts).toEqual(view.counts);
    const hits: any = await (
      await fetch(`${url}api/search?q=${encodeURIComponent("table of contents")}`)
    ).json();
    expect(hits[0].name).toBe("markdown-toc");
  });
});
