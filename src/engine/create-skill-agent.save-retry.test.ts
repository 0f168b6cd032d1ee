/**
 * A turn's save against a real SQLite store that fails for a moment: the file made read-only (by another
 * connection holding its write lock) is retried until it frees; a save whose commit landed but whose answer
 * was lost is recognised as done, not reported as a conflict; past the window the turn fails with an
 * UnsavedTurnError holding what was not saved.
 */

import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import type { Catalog } from "../catalog/types.js";
import { UnsavedTurnError } from "../errors/unsaved-turn-error.js";
import { createSqliteStore } from "../store/create-sqlite-store.js";
import type { SessionStore } from "../store/session-store.js";
import { scriptedModel } from "../test-kit.js";
import { examples } from "./__fixtures__/load-read-run.js";
import { createSkillAgent } from "./create-skill-agent.js";
import type { EngineEvent } from "./engine-event.js";

let dir: string;
let catalog: Catalog;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-save-retry-"));
  catalog = await createCatalog({ roots: [examples] });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A SQLite store on `file` that waits at most 50 ms for a lock another connection holds. */
function sqlite(file: string): SessionStore {
  return createSqliteStore({ path: file, busyTimeoutMs: 50 });
}

describe("a SkillAgent's save when the store fails for a moment", () => {
  it("is retried while another connection holds the SQLite write lock, and saved once it is released", async () => {
    const file = path.join(dir, "s.db");
    const store = sqlite(file);
    const agent = await createSkillAgent({
      model: scriptedModel([{ text: "the answer" }]),
      catalog,
      store,
      // A new conversation: its lock is taken at its first save, so nothing touches the store before it.
      saveRetryMs: 20_000,
    });
    const events: EngineEvent[] = [];
    // Another process takes the write lock as the turn runs, and keeps it for 1.5 s.
    const other = new DatabaseSync(file);
    other.exec("BEGIN IMMEDIATE");
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        other.exec("COMMIT");
        other.close();
        resolve();
      }, 1_500),
    );
    const result = await agent.send("a question", { onEvent: (e) => events.push(e) });
    await released;
    expect(result.text).toBe("the answer");
    expect(events.some((e) => e.type === "save-retry")).toBe(true);
    await agent.close();
    const check = sqlite(file);
    const saved = (await check.get(agent.sessionId, "conversation"))?.data as { messages: unknown[] };
    expect(saved.messages).toHaveLength(2);
    await check.close();
  }, 30_000);

  it("past the window fails with an UnsavedTurnError holding the turn", async () => {
    const file = path.join(dir, "s.db");
    const store = sqlite(file);
    const agent = await createSkillAgent({
      model: scriptedModel([{ text: "kept answer" }]),
      catalog,
      store,
      saveRetryMs: 600,
    });
    const other = new DatabaseSync(file);
    other.exec("BEGIN IMMEDIATE");
    try {
      const failure = await agent.send("a question").then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(UnsavedTurnError.isInstance(failure)).toBe(true);
      const error = failure as UnsavedTurnError;
      expect(error.sessionId).toBe(agent.sessionId);
      expect(error.message).toContain(`the turn could not be saved to session '${agent.sessionId}'`);
      expect(JSON.stringify(error.conversation)).toContain("kept answer");
    } finally {
      other.exec("ROLLBACK");
      other.close();
      await agent.close();
    }
  }, 30_000);

  it("takes a retry that meets its own committed write as saved, not as a conflict", async () => {
    const file = path.join(dir, "s.db");
    const real = sqlite(file);
    let puts = 0;
    // The first put commits, then its answer is lost (as when a server goes down right after a commit).
    const store: SessionStore = {
      ...real,
      get: (id, ns) => real.get(id, ns),
      put: async (id, data, options) => {
        puts += 1;
        const version = await real.put(id, data, options);
        if (puts === 1)
          throw Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET" });
        return version;
      },
      lockSession: (id, options) => real.lockSession(id, options),
      close: () => real.close(),
    };
    const agent = await createSkillAgent({
      model: scriptedModel([{ text: "one" }, { text: "two" }]),
      catalog,
      store,
      sessionId: "lost-reply",
      saveRetryMs: 5_000,
    });
    expect((await agent.send("first")).text).toBe("one");
    // The agent knows the version it wrote: the next turn's save is not a conflict either.
    expect((await agent.send("second")).text).toBe("two");
    await agent.close();
    const check = sqlite(file);
    const saved = await check.get("lost-reply", "conversation");
    expect(saved?.version).toBe(2);
    expect((saved?.data as { messages: unknown[] } | undefined)?.messages).toHaveLength(4);
    await check.close();
  }, 30_000);
});
