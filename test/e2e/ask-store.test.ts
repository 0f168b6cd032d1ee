/**
 * `skillrt ask --store …` end to end: the built CLI as child processes against a loopback provider and a
 * real throwaway Postgres (and SQLite): sessions saved and resumed, many processes on many sessions, two
 * racing on one session without losing a turn, and one clear line for a store that cannot be used.
 */

import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testPostgres } from "../../src/store/__fixtures__/test-postgres.js";
import { createPostgresStore } from "../../src/store/create-postgres-store.js";
import { createSqliteStore } from "../../src/store/create-sqlite-store.js";
import type { SessionStore } from "../../src/store/session-store.js";
import {
  type LoopbackProvider,
  type ScriptedReply,
  startLoopbackProvider,
} from "./support/loopback-provider.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

let cwd: string;
let server: LoopbackProvider | undefined;
let pgUrl: string | undefined;
let schemaCount = 0;

beforeAll(async () => {
  assertBuilt();
  const pg = await testPostgres();
  if ("url" in pg) pgUrl = pg.url;
  else console.log(`skipping Postgres ask tests: ${pg.skip}`);
}, 180_000);
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-ask-store-"));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(cwd, { recursive: true, force: true });
});

const env = (s: LoopbackProvider, store?: string): Record<string, string> => ({
  OPENAI_BASE_URL: s.baseURL,
  OPENAI_API_KEY: "sk-loopback",
  AGENT_MODEL: "loopback-model",
  ...(store === undefined ? {} : { SKILLRT_STORE_URL: store }),
});

/** The user messages of a saved conversation, in order. */
async function userTurns(store: SessionStore, id: string): Promise<string[]> {
  const saved = (await store.get(id, "conversation"))?.data as {
    messages: Array<{ role: string; content: unknown }>;
  };
  return saved.messages.filter((m) => m.role === "user").map((m) => String(m.content));
}

/** A fresh schema of the test server, as a URL-and-store pair (schema from config would be the same). */
function postgres(): { url: string; store: SessionStore; schema: string } {
  schemaCount += 1;
  const schema = `ask_${process.pid}_${schemaCount}`;
  return { url: pgUrl ?? "", schema, store: createPostgresStore({ url: pgUrl ?? "", schema }) };
}

describe("skillrt ask --store postgres://…", () => {
  it("saves a session and resumes it in the next process", async (context) => {
    if (pgUrl === undefined) return context.skip();
    const { url, schema, store } = postgres();
    await writeFile(path.join(cwd, "skillrt.config.json"), JSON.stringify({ store: { schema } }));
    server = await startLoopbackProvider("openai", [{ text: "First answer." }, { text: "Second answer." }]);
    const first = await runCli(["ask", "--store", url, "--session", "s1", "first question"], {
      cwd,
      env: env(server),
    });
    // Success says nothing on stderr but the session to continue.
    expect(first.stderr).toBe("skillrt ask: session s1 (continue it with --session s1)\n");
    expect(first.code).toBe(0);
    const second = await runCli(["ask", "--store", url, "--session", "s1", "second question"], {
      cwd,
      env: env(server),
    });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe("Second answer.\n");
    // The second process sent the first turn back to the model: it resumed from Postgres.
    const sent = JSON.stringify(server.requests[1]?.body.messages);
    expect(sent).toContain("first question");
    expect(sent).toContain("First answer.");
    expect(await userTurns(store, "s1")).toEqual(["first question", "second question"]);
    await store.close();
  }, 120_000);

  it("writes no local SQLite file: nothing under .skillrt/ in the project or HOME", async (context) => {
    if (pgUrl === undefined) return context.skip();
    const { url, schema, store } = postgres();
    const home = await mkdtemp(path.join(os.tmpdir(), "skillrt-ask-home-"));
    try {
      await writeFile(path.join(cwd, "skillrt.config.json"), JSON.stringify({ store: { schema } }));
      server = await startLoopbackProvider("openai", [{ text: "Saved in Postgres." }]);
      const run = await runCli(["ask", "--store", url, "--session", "pg-only", "a question"], {
        cwd,
        env: { ...env(server), HOME: home, SKILLRT_CACHE: "0" },
      });
      expect(run.stderr).toBe("skillrt ask: session pg-only (continue it with --session pg-only)\n");
      expect(run.code).toBe(0);
      expect(await userTurns(store, "pg-only")).toEqual(["a question"]);
      expect(existsSync(path.join(cwd, ".skillrt", "sessions.db"))).toBe(false);
      expect(existsSync(path.join(cwd, ".skillrt"))).toBe(false);
      expect((await readdir(cwd)).sort()).toEqual(["skillrt.config.json"]);
      expect(await readdir(home)).toEqual([]);
      // With the catalog cache on (under HOME), still no SQLite file anywhere in the project or HOME.
      server.script.push({ text: "Again." });
      const cached = await runCli(["ask", "--store", url, "--session", "pg-only", "again"], {
        cwd,
        env: { ...env(server), HOME: home },
      });
      expect(cached.code).toBe(0);
      const files = [
        ...(await readdir(cwd, { recursive: true })),
        ...(await readdir(home, { recursive: true })),
      ];
      expect(files.filter((f) => /\.(db|sqlite)(-wal|-shm|-journal)?$/.test(f))).toEqual([]);
      expect(files.some((f) => f.includes("sessions"))).toBe(false);
    } finally {
      await store.close();
      await rm(home, { recursive: true, force: true });
    }
  }, 120_000);

  it("8 concurrent processes on 8 sessions all save", async (context) => {
    if (pgUrl === undefined) return context.skip();
    const { url, schema, store } = postgres();
    await writeFile(path.join(cwd, "skillrt.config.json"), JSON.stringify({ store: { schema } }));
    const replies: ScriptedReply[] = Array.from({ length: 8 }, () => ({ text: "ok", delayMs: 300 }));
    server = await startLoopbackProvider("openai", replies);
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_v, i) =>
        runCli(["ask", "--session", `s${i}`, `question ${i}`], { cwd, env: env(server!, url) }),
      ),
    );
    expect(runs.map((r) => r.code)).toEqual(Array(8).fill(0));
    for (let i = 0; i < 8; i++) expect(await userTurns(store, `s${i}`)).toEqual([`question ${i}`]);
    expect(await store.list({ namespace: "conversation" })).toHaveLength(8);
    await store.close();
  }, 180_000);
});

describe.each(["postgres", "sqlite"])("two processes racing on one session (%s)", (kind) => {
  it("never lose a turn: the second waits for the first and builds on it", async (context) => {
    if (kind === "postgres" && pgUrl === undefined) return context.skip();
    let url: string;
    let store: SessionStore;
    if (kind === "postgres") {
      const pg = postgres();
      url = pg.url;
      store = pg.store;
      await writeFile(
        path.join(cwd, "skillrt.config.json"),
        JSON.stringify({ store: { schema: pg.schema } }),
      );
    } else {
      url = `sqlite:${path.join(cwd, "race.db")}`;
      store = createSqliteStore({ path: path.join(cwd, "race.db") });
    }
    // Each answer takes 1.5 s, so the two turns overlap unless one waits for the other.
    server = await startLoopbackProvider("openai", [
      { text: "answer A", delayMs: 1500 },
      { text: "answer B", delayMs: 1500 },
    ]);
    const [a, b] = await Promise.all([
      runCli(["ask", "--session", "shared", "turn A"], { cwd, env: env(server, url) }),
      runCli(["ask", "--session", "shared", "turn B"], { cwd, env: env(server, url) }),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const turns = await userTurns(store, "shared");
    expect(turns.sort()).toEqual(["turn A", "turn B"]);
    // The later turn was asked with the earlier one in its history: it did not start from a stale copy.
    const second = JSON.stringify(server.requests[1]?.body.messages);
    expect(second).toContain("turn A");
    expect(second).toContain("turn B");
    await store.close();
  }, 120_000);
});

describe("a store that cannot be used: one clear line, exit 1", () => {
  it("names the host of a server that is down", async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    server = await startLoopbackProvider("openai", [{ text: "never asked" }]);
    const run = await runCli(["ask", "--store", `postgres://app:pw@127.0.0.1:${port}/app`, "hi"], {
      cwd,
      env: env(server),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `skillrt ask: Cannot use the session store at PostgreSQL 127.0.0.1:${port} (database 'app', user 'app'): ` +
        "connection refused. Check that the server is running and that the host and port in the store URL are right.\n",
    );
    expect(server.requests).toHaveLength(0);
  });

  it("rejects a URL of another kind", async () => {
    server = await startLoopbackProvider("openai", [{ text: "never asked" }]);
    const run = await runCli(["ask", "hi"], { cwd, env: env(server, "mysql://u:secret@db/x") });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "skillrt ask: Store URL 'mysql://u:***@db/x' is not supported: use postgres://USER@HOST:PORT/DATABASE, sqlite:PATH, or leave it unset for .skillrt/sessions.db.\n",
    );
  });
});
