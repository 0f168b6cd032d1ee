/** `createSkillAgent({ store: URL })`: the store URLs the CLI's `--store` takes, opened and owned by the agent. */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import type { Catalog } from "../catalog/types.js";
import { testPostgres } from "../store/__fixtures__/test-postgres.js";
import { scriptedModel } from "../test-kit.js";
import { examples, loadReadRun } from "./__fixtures__/load-read-run.js";
import { createSkillAgent } from "./create-skill-agent.js";

let cwd: string;
let catalog: Catalog;
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-agent-store-url-"));
  catalog = await createCatalog({ roots: [examples] });
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

/** A turn that loads csv-summary, then a second agent on the same URL resuming it. */
async function saveAndResume(store: string): Promise<void> {
  const first = await createSkillAgent({
    model: scriptedModel([loadReadRun[0]!, { text: "loaded" }]),
    catalog,
    cwd,
    store,
  });
  await first.send("load csv");
  const id = first.sessionId;
  await first.close();
  const model = scriptedModel([{ text: "still here" }]);
  const second = await createSkillAgent({ model, catalog, cwd, store, sessionId: id });
  try {
    expect(second.history().length).toBe(4);
    expect(second.session.loadedSkills()).toEqual(["csv-summary"]);
    expect((await second.send("are you there?")).text).toBe("still here");
  } finally {
    await second.close();
  }
}

describe("createSkillAgent with a store URL", () => {
  it("sqlite:PATH is a file under the cwd passed; the conversation resumes from it", async () => {
    await saveAndResume("sqlite:data/conversations.db");
    expect(existsSync(path.join(cwd, "data", "conversations.db"))).toBe(true);
  });

  it("sqlite:///absolute/path needs no cwd", async () => {
    const file = path.join(cwd, "abs.db");
    const agent = await createSkillAgent({
      model: scriptedModel([{ text: "hi" }]),
      catalog,
      store: `sqlite://${file}`,
    });
    await agent.send("hello");
    await agent.close();
    expect(existsSync(file)).toBe(true);
  });

  it("refuses a relative path without a cwd (no fallback to the process's), an empty URL and other kinds", async () => {
    const model = scriptedModel([]);
    await expect(createSkillAgent({ model, catalog, store: "sqlite:x.db" })).rejects.toThrow(
      "createSkillAgent: store 'sqlite:x.db' is a relative path; pass cwd to resolve it from, or use sqlite:///absolute/path.",
    );
    expect(existsSync(path.join(process.cwd(), "x.db"))).toBe(false);
    await expect(createSkillAgent({ model, catalog, cwd, store: " " })).rejects.toThrow(/empty URL/);
    await expect(createSkillAgent({ model, catalog, cwd, store: "mysql://me:pw@db/x" })).rejects.toThrow(
      "Store URL 'mysql://me:***@db/x' is not supported",
    );
  });

  it("postgres://… opens the Postgres store; the conversation resumes from it", async (context) => {
    const server = await testPostgres();
    if ("skip" in server) return context.skip();
    await saveAndResume(server.url);
  }, 180_000);
});
