/**
 * A session store that goes away exactly at the save, through the built CLI and a real Postgres of the
 * test's own (stopped with `pg_ctl stop` while the model's answer is held, so the turn has loaded and only
 * the save is left): back within the retry window, the turn is saved; past it, the turn is kept in a file
 * under the state directory, the user is told how to resume, and `--restore` saves it once the store is back.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPostgresStore } from "../../src/store/create-postgres-store.js";
import {
  findPostgresBin,
  type PostgresCluster,
  startPostgresCluster,
  startPostgresServer,
  stopPostgresServer,
} from "../support/postgres-cluster.js";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

let cluster: PostgresCluster | undefined;
let skip: string | undefined;
let cwd: string;
let server: LoopbackProvider | undefined;

beforeAll(async () => {
  assertBuilt();
  const bin = findPostgresBin();
  if ("reason" in bin) skip = bin.reason;
  else cluster = await startPostgresCluster({ noFsync: true, maxConnections: 50 });
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-store-outage-"));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (cluster !== undefined && !existsSync(path.join(cluster.dataDir, "postmaster.pid")))
    startPostgresServer(cluster);
  await rm(cwd, { recursive: true, force: true });
});

const env = (s: LoopbackProvider): Record<string, string> => ({
  OPENAI_BASE_URL: s.baseURL,
  OPENAI_API_KEY: "sk-loopback",
  AGENT_MODEL: "loopback-model",
  SKILLRT_STATE_DIR: path.join(cwd, "state"),
});

/** Resolves once the provider has received `n` requests (the turn is past loading its conversation). */
async function requestsReached(s: LoopbackProvider, n: number): Promise<void> {
  const until = Date.now() + 30_000;
  while (s.requests.length < n) {
    if (Date.now() > until) throw new Error("the model request never came");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The user messages saved in session `id`, in order. */
async function userTurns(url: string, id: string): Promise<string[]> {
  const store = createPostgresStore({ url });
  try {
    const saved = (await store.get(id, "conversation"))?.data as
      | { messages: Array<{ role: string; content: unknown }> }
      | undefined;
    return (saved?.messages ?? []).filter((m) => m.role === "user").map((m) => String(m.content));
  } finally {
    await store.close();
  }
}

describe("skillrt ask when the store stops at the save", () => {
  it("saves the turn once the store is back within the retry window", async (context) => {
    if (cluster === undefined) return context.skip(skip);
    const pg = cluster;
    server = await startLoopbackProvider("openai", [{ text: "An answer worth keeping.", delayMs: 2_000 }]);
    const run = runCli(["ask", "--store", pg.url, "--session", "back", "--save-retry", "30", "a question"], {
      cwd,
      env: env(server),
      timeoutMs: 90_000,
    });
    await requestsReached(server, 1);
    stopPostgresServer(pg);
    // Down for a few seconds after the answer came: the save fails, and is retried.
    await new Promise((r) => setTimeout(r, 5_000));
    startPostgresServer(pg);
    const done = await run;
    expect(done.stdout).toBe("An answer worth keeping.\n");
    expect(done.stderr).toContain("the session store could not save the turn");
    expect(done.stderr).toContain("retrying for up to 30 s");
    expect(done.stderr).toContain("skillrt ask: session back (continue it with --session back)");
    expect(done.code).toBe(0);
    expect(await userTurns(pg.url, "back")).toEqual(["a question"]);
  }, 120_000);

  it("past the window keeps the turn in a file, says how to resume, and --restore saves it", async (context) => {
    if (cluster === undefined) return context.skip(skip);
    const pg = cluster;
    server = await startLoopbackProvider("openai", [{ text: "Nothing of this is lost.", delayMs: 2_000 }]);
    const run = runCli(
      ["ask", "--store", pg.url, "--session", "gone", "--save-retry", "2", "first question"],
      {
        cwd,
        env: env(server),
        timeoutMs: 90_000,
      },
    );
    await requestsReached(server, 1);
    stopPostgresServer(pg);
    const done = await run;
    expect(done.stdout).toBe("Nothing of this is lost.\n");
    expect(done.code).toBe(1);
    expect(done.stderr).toContain("the turn could not be saved to session 'gone' (retried for 2 s)");
    expect(done.stderr).not.toContain("bug in skillrt");
    const file = /kept in (\S+)\.\n/.exec(done.stderr)?.[1] ?? "";
    expect(file.startsWith(path.join(cwd, "state", "unsaved", "gone-"))).toBe(true);
    expect(done.stderr).toContain(`skillrt ask --restore '${file}' PROMPT`);
    const kept = JSON.parse(readFileSync(file, "utf8")) as {
      question: string;
      answer: string;
      sessionId: string;
    };
    expect(kept).toMatchObject({
      sessionId: "gone",
      question: "first question",
      answer: "Nothing of this is lost.",
    });

    // The store is back: the kept turn is saved first, then the next question goes on from it.
    startPostgresServer(pg);
    server.script.push({ text: "Second answer." });
    const resumed = await runCli(["ask", "--store", pg.url, "--restore", file, "second question"], {
      cwd,
      env: env(server),
      timeoutMs: 60_000,
    });
    expect(resumed.stderr).toContain("restored the kept turn into session gone");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe("Second answer.\n");
    expect(JSON.stringify(server.requests[1]?.body)).toContain("Nothing of this is lost.");
    expect(await userTurns(pg.url, "gone")).toEqual(["first question", "second question"]);
    expect(existsSync(file)).toBe(false);
  }, 120_000);

  it("--lock-wait bounds the wait for another process's turn on the session", async (context) => {
    if (cluster === undefined) return context.skip(skip);
    const pg = cluster;
    const holder = createPostgresStore({ url: pg.url });
    const lock = await holder.lockSession("held", { namespace: "conversation" });
    try {
      server = await startLoopbackProvider("openai", [{ text: "never asked" }]);
      const run = await runCli(["ask", "--store", pg.url, "--session", "held", "--lock-wait", "1", "q"], {
        cwd,
        env: env(server),
        timeoutMs: 60_000,
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("did not finish within 1 s");
      // The default would have waited 30 s.
      expect(run.ms).toBeLessThan(15_000);
      expect(server.requests).toHaveLength(0);
    } finally {
      await lock.release();
      await holder.close();
    }
  }, 90_000);

  it("--lock-wait and --save-retry refuse what is not a number of seconds (exit 2)", async () => {
    for (const bad of [
      ["--lock-wait", "-1"],
      ["--save-retry", "soon"],
      ["--save-retry", "1e9"],
    ]) {
      const run = await runCli(["ask", ...bad, "q"], { cwd, env: {}, timeoutMs: 30_000 });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`${bad[0]} expects seconds from 0 to 86400`);
    }
  }, 60_000);
});
