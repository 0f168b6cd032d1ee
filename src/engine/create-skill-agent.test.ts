import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { tool } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createCatalog } from "../catalog/create-catalog.js";
import { filterCatalog } from "../catalog/filter-catalog.js";
import { defineSkill } from "../catalog/memory-source.js";
import type { Catalog } from "../catalog/types.js";
import { listSkills } from "../context/list-skills.js";
import { createExecutor } from "../exec/create-executor.js";
import { createMemoryStore } from "../store/create-memory-store.js";
import type { SessionStore } from "../store/session-store.js";
import { createMemoryCatalog, scriptedModel, systemOf, toolNamesOf } from "../test-kit.js";
import { trackerStdio } from "../tools/mcp-client/__fixtures__/tracker.js";
import type { ToolApprovalAnswer, ToolApprovalRequest } from "../tools/tool-approval.js";
import { createToolRegistry } from "../tools/tool-registry.js";
import { examples, loadReadRun } from "./__fixtures__/load-read-run.js";
import { createSkillAgent } from "./create-skill-agent.js";
import type { EngineEvent } from "./engine-event.js";
import { openToolSources } from "./open-tool-sources.js";

let cwd: string;
let catalog: Catalog;
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-agent-"));
  catalog = await createCatalog({ roots: [examples] });
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe("createSkillAgent", () => {
  it("refuses a relative attached file without a cwd: nothing is read from the process's directory", async () => {
    const agent = await createSkillAgent({
      model: scriptedModel([]),
      catalog,
      store: createMemoryStore(),
      executor: "auto",
    });
    try {
      await expect(agent.send("read it", { files: ["notes.txt"] })).rejects.toThrow(
        /relative path needs the agent's `cwd`/,
      );
    } finally {
      await agent.close();
    }
  });
  it("load → read → run → answer on the auto executor: skill_run offered, the script runs, events stream", async () => {
    const model = scriptedModel(loadReadRun);
    const store = createMemoryStore();
    const agent = await createSkillAgent({ model, catalog, cwd, store, executor: "auto" });
    try {
      const turn = agent.send("summarise my csv");
      const events: EngineEvent[] = [];
      for await (const event of turn) events.push(event);
      const result = await turn;

      expect(result.text).toBe("2 rows; age from 27 to 31.");
      expect(result.sessionId).toBe(agent.sessionId);
      expect(result.steps).toBe(4);
      expect(result.stepLimitReached).toBe(false);
      expect(result.toolCalls.map((c) => [c.toolName, c.isError])).toEqual([
        ["skill_load", false],
        ["skill_read", false],
        ["skill_run", false],
      ]);
      expect(String(result.toolCalls[2]?.output)).toContain("min=27 max=31 mean=29");
      expect(toolNamesOf(model.calls[0]!)).toContain("skill_run");
      expect(systemOf(model.calls[0]!)).toContain("csv-summary");
      expect(events[0]?.type).toBe("step-start");
      expect(events.find((e) => e.type === "skill-load")).toMatchObject({ name: "csv-summary", by: "model" });
      expect(events.filter((e) => e.type === "step-end")).toHaveLength(4);
      expect(result.messages.map((m) => m.role)).toEqual([
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
      ]);
      const saved = await store.get(agent.sessionId, "conversation");
      expect(JSON.stringify(saved?.data)).toContain("2 rows; age from 27 to 31.");
    } finally {
      await agent.close();
    }
  });

  it("resumes a conversation by id: history and loaded skills come back from the store", async () => {
    const store = createMemoryStore();
    const first = await createSkillAgent({
      model: scriptedModel([loadReadRun[0]!, { text: "loaded" }]),
      catalog,
      cwd,
      store,
      executor: false,
    });
    await first.send("load csv");
    const id = first.sessionId;
    await first.close();

    const model = scriptedModel([{ text: "still here" }]);
    const second = await createSkillAgent({ model, catalog, cwd, store, sessionId: id, executor: "auto" });
    try {
      expect(second.sessionId).toBe(id);
      expect(second.history().length).toBe(4);
      expect(second.session.loadedSkills()).toEqual(["csv-summary"]);
      const result = await second.send("are you there?");
      expect(result.text).toBe("still here");
      expect(JSON.stringify(model.calls[0]?.prompt)).toContain("Run the bundled script");
    } finally {
      await second.close();
    }
  });

  it("loads $name mentions before the model answers, and user loads go to the history", async () => {
    const model = scriptedModel([{ text: "ok" }]);
    const agent = await createSkillAgent({ model, catalog, cwd, executor: false });
    try {
      const events: EngineEvent[] = [];
      // The turn's own events (a subscriber also gets the turn-start and turn-end around them).
      const off = agent.subscribe((e) => {
        if (e.type !== "turn-start" && e.type !== "turn-end") events.push(e);
      });
      await agent.send("use $markdown-toc please");
      off();
      expect(events[0]).toMatchObject({ type: "skill-load", name: "markdown-toc", by: "user" });
      expect(agent.session.loadedSkills()).toEqual(["markdown-toc"]);
      expect(JSON.stringify(model.calls[0]?.prompt)).toContain("tocstop");

      const load = await agent.loadSkill("json-query", { args: "data.json" });
      expect(load.ok).toBe(true);
      expect(agent.history().at(-1)?.role).toBe("tool");
      expect(listSkills(agent.session).find((s) => s.name === "json-query")?.loaded).toBe(true);
      expect((await agent.unloadSkill("json-query")).ok).toBe(true);
    } finally {
      await agent.close();
    }
  });

  it("runs the lexical selection pre-pass when the options ask for it", async () => {
    const model = scriptedModel([{ text: "ok" }]);
    const agent = await createSkillAgent({
      model,
      catalog,
      cwd,
      executor: false,
      select: { mode: "lexical", maxActive: 1 },
    });
    try {
      const result = await agent.send("summarise this csv file column statistics");
      expect(agent.session.loadedSkills()).toEqual(["csv-summary"]);
      expect(result.messages[0]?.role).toBe("assistant"); // the pre-pass load, before the user message
    } finally {
      await agent.close();
    }
  });

  it("reports the step limit as an event and in the result; one turn at a time", async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: "skill_list_docs", input: '{"name":"csv-summary"}' }] },
    ]);
    const agent = await createSkillAgent({
      model,
      catalog,
      cwd,
      executor: false,
      maxSteps: 2,
    });
    try {
      const turn = agent.send("loop");
      await expect(agent.send("again")).rejects.toThrow(/already running/);
      const events: EngineEvent[] = [];
      for await (const e of turn) events.push(e);
      const result = await turn;
      expect(result.stepLimitReached).toBe(true);
      expect(result.steps).toBe(2);
      expect(events.at(-1)).toEqual({ type: "step-limit", step: 1, maxSteps: 2 });
    } finally {
      await agent.close();
    }
  });

  it("MCP servers in the library: onApproval answers calls (a refusal is a result the model reads), a server that cannot start is one event", async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: "mcp__tracker__delete_repo", input: '{"repo":"web"}' }] },
      { toolCalls: [{ name: "mcp__tracker__create_issue", input: '{"title":"one"}' }] },
      { toolCalls: [{ name: "mcp__tracker__create_issue", input: '{"title":"two"}' }] },
      { text: "done" },
    ]);
    const asked: ToolApprovalRequest[] = [];
    const answers: Record<string, ToolApprovalAnswer> = {
      mcp__tracker__delete_repo: { deny: "the user keeps that repository" },
      mcp__tracker__create_issue: "always",
    };
    // The host opens the sources (MCP server states are theirs) and hands them to the agent, which closes them.
    const toolSources = openToolSources(
      {
        mcpServers: { broken: trackerStdio({}, ["--fail"]), tracker: trackerStdio() },
        toolGating: "open",
        approval: {
          onApproval: (request) => {
            asked.push(request);
            return answers[request.toolName] ?? "no";
          },
        },
      },
      { env: process.env, cwd },
    );
    const agent = await createSkillAgent({
      model,
      catalog,
      cwd,
      executor: false,
      toolSources,
      closeToolSources: true,
    });
    try {
      expect(toolSources.servers().map((s) => [s.name, s.state])).toEqual([
        ["broken", "failed"],
        ["tracker", "running"],
      ]);
      const events: EngineEvent[] = [];
      const result = await agent.send("clean up", { onEvent: (e) => events.push(e) });
      expect(result.text).toBe("done");
      expect(asked.map((r) => [r.toolName, r.server, r.input])).toEqual([
        ["mcp__tracker__delete_repo", "tracker", { repo: "web" }],
        ["mcp__tracker__create_issue", "tracker", { title: "one" }],
      ]);
      expect(JSON.stringify(model.calls[1]!.prompt)).toContain(
        "The call of mcp__tracker__delete_repo was not approved: the user keeps that repository. It did not run.",
      );
      expect(JSON.stringify(model.calls[3]!.prompt)).toContain("Created issue #2: two");
      const sourceErrors = events.filter((e) => e.type === "tool-source-error");
      expect(sourceErrors).toHaveLength(1);
      expect(sourceErrors[0]).toMatchObject({
        source: "mcp:broken",
        message: expect.stringMatching(/could not start/),
      });
      const again: EngineEvent[] = [];
      await agent.send("again", { onEvent: (e) => again.push(e) });
      expect(again.filter((e) => e.type === "tool-source-error")).toEqual([]);
    } finally {
      await agent.close();
    }
    expect(toolSources.servers().find((s) => s.name === "tracker")?.state).toBe("stopped");
  });

  it("host tools registered in code with a group bound to a skill pass through the same gating and approvals", async () => {
    const deployed: string[] = [];
    const registry = createToolRegistry();
    registry.register(
      "deploy",
      tool({
        description: "Deploy the site.",
        inputSchema: z.object({ env: z.enum(["staging", "prod"]) }),
        execute: async ({ env }) => {
          deployed.push(env);
          return `deployed to ${env}`;
        },
      }),
      { group: "release_tools" },
    );
    registry.registerGroup("release_tools", { skill: "csv-summary" });
    const model = scriptedModel([
      { toolCalls: [{ name: "skill_load", input: '{"name":"csv-summary"}' }] },
      { toolCalls: [{ name: "deploy", input: '{"env":"prod"}' }] },
      { toolCalls: [{ name: "deploy", input: '{"env":"staging"}' }] },
      { text: "staging only" },
    ]);
    const asked: string[] = [];
    const agent = await createSkillAgent({
      model,
      catalog,
      cwd,
      executor: false,
      toolRegistry: registry,
      approval: {
        onApproval: (request) => {
          const env = (request.input as { env: string }).env;
          asked.push(env);
          return env === "prod" ? "no" : "yes";
        },
      },
    });
    try {
      const events: EngineEvent[] = [];
      const result = await agent.send("ship it", { onEvent: (e) => events.push(e) });
      expect(result.text).toBe("staging only");
      expect(toolNamesOf(model.calls[0]!)).not.toContain("deploy");
      expect(toolNamesOf(model.calls[1]!)).toContain("deploy");
      expect(events.find((e) => e.type === "tools-change")).toMatchObject({
        offered: [{ name: "deploy", reason: "group 'release_tools' is bound to loaded skill 'csv-summary'" }],
      });
      expect(asked).toEqual(["prod", "staging"]);
      expect(deployed).toEqual(["staging"]);
      expect(JSON.stringify(model.calls[2]!.prompt)).toContain(
        "The call of deploy was not approved by the user.",
      );
    } finally {
      await agent.close();
    }
  });
});

describe("createSkillAgent is pure composition", () => {
  /** Every path under `dir`, relative, sorted. */
  const tree = async (dir: string): Promise<string[]> =>
    (await readdir(dir, { recursive: true })).map(String).sort();

  it("reads and writes nothing outside its parts: an empty cwd and HOME stay as they were, and send works", async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), "skillrt-agent-home-"));
    // Traps where the CLI's defaults live: directories in place of the config files and the SQLite
    // database (reading or opening one throws), and skills in the default roots (a scan would list them).
    for (const dir of [
      path.join(home, ".skillrt", "config.json"),
      path.join(home, ".skillrt", "sessions.db"),
      path.join(home, "skillrt.config.json"),
      path.join(home, ".agents", "skills", "trap"),
    ])
      await mkdir(dir, { recursive: true });
    const before = await tree(home);
    const saved = { cwd: process.cwd(), env: process.env };
    process.chdir(cwd);
    process.env = {
      PATH: saved.env["PATH"],
      HOME: home,
      XDG_CONFIG_HOME: home,
      XDG_CACHE_HOME: home,
      SKILLS_DIR: path.join(home, ".agents", "skills"),
      SKILLRT_STORE_URL: `sqlite:${path.join(home, ".skillrt", "sessions.db")}`,
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      AGENT_MODEL: "never-used",
    };
    try {
      const model = scriptedModel([
        { toolCalls: [{ name: "skill_load", input: '{"name":"greeting"}' }] },
        { text: "Hello from memory." },
      ]);
      // A skill whose requirements only the host could tell: with no env given, none are checked.
      const needy = defineSkill({
        name: "needy",
        description: "Posts to the tracker.",
        body: "b",
        metadata: {
          openclaw: '{"requires":{"env":["SKILLRT_TEST_UNSET_TOKEN"],"config":["~/.trap-config"]}}',
        },
      });
      const skills = [
        defineSkill({ name: "greeting", description: "Greets the user.", body: "Say hello warmly." }),
        needy,
      ];
      const agent = await createSkillAgent({ model, catalog: await createMemoryCatalog(skills) });
      try {
        const result = await agent.send("greet me");
        expect(result.text).toBe("Hello from memory.");
        expect(result.toolCalls.map((c) => [c.toolName, c.isError])).toEqual([["skill_load", false]]);
        expect(toolNamesOf(model.calls[0]!)).not.toContain("skill_run"); // no executor was given
        expect(systemOf(model.calls[0]!)).not.toContain("trap");
        expect(systemOf(model.calls[0]!)).not.toContain("unavailable here");
      } finally {
        await agent.close();
      }
      // Given an env, the agent checks against it (and its HOME), not the process's.
      const told = await createSkillAgent({
        model: scriptedModel([{ text: "ok" }]),
        catalog: await createMemoryCatalog(skills),
        env: { PATH: "", HOME: cwd },
      });
      try {
        expect(told.session.renderer.systemPrompt()).toContain(
          "[unavailable here: needs env SKILLRT_TEST_UNSET_TOKEN, config ~/.trap-config]",
        );
      } finally {
        await told.close();
      }
      expect(await tree(cwd)).toEqual([]);
      expect(await tree(home)).toEqual(before);
    } finally {
      process.chdir(saved.cwd);
      process.env = saved.env;
      await rm(home, { recursive: true, force: true });
    }
  });

  it("a missing catalog or model is a clear SkillrtError, not a scan of the defaults", async () => {
    const model = scriptedModel([{ text: "never" }]);
    // @ts-expect-error: the catalog is required
    await expect(createSkillAgent({ model })).rejects.toMatchObject({
      code: "invalid-argument",
      message: expect.stringMatching(/needs a catalog: it reads no config, environment or folders/),
    });
    // @ts-expect-error: the model is required
    await expect(createSkillAgent({ catalog })).rejects.toThrow(/needs a model/);
    expect(model.calls).toHaveLength(0);
  });

  it("closes only what it owns: a passed store stays open unless closeStore says so", async () => {
    const kept = createMemoryStore();
    const first = await createSkillAgent({ model: scriptedModel([{ text: "a" }]), catalog, store: kept });
    await first.send("one");
    await first.close();
    expect(await kept.list({ namespace: "conversation" })).toHaveLength(1); // still usable

    const owned = createMemoryStore();
    const second = await createSkillAgent({
      model: scriptedModel([{ text: "b" }]),
      catalog,
      store: owned,
      closeStore: true,
    });
    await second.send("two");
    await second.close();
    await expect(owned.list()).rejects.toThrow(/closed/);
  });
});

describe("a child agent from its parent's parts", () => {
  it("shares the store and executor, sees only its allowlist, and runs a skill without a new scan", async () => {
    const store = createMemoryStore();
    const { executor } = createExecutor({ kind: "local" });
    const parent = await createSkillAgent({
      model: scriptedModel([{ text: "parent" }]),
      catalog,
      store,
      executor,
    });
    const model = scriptedModel(loadReadRun);
    const child = await createSkillAgent({
      model,
      catalog: filterCatalog(catalog, ["csv-*"]),
      store,
      executor,
      cwd,
    });
    try {
      await parent.send("hello");
      const result = await child.send("summarise my csv");
      expect(result.text).toBe("2 rows; age from 27 to 31.");
      expect(String(result.toolCalls[2]?.output)).toContain("min=27 max=31 mean=29"); // the shared executor ran it
      expect(systemOf(model.calls[0]!)).toContain("csv-summary");
      expect(systemOf(model.calls[0]!)).not.toContain("markdown-toc");
      const saved = (await store.list({ namespace: "conversation" })).map((s) => s.id).sort();
      expect(saved).toEqual([child.sessionId, parent.sessionId].sort());
    } finally {
      await child.close();
      await parent.close();
    }
  });
});

describe("the store lock of a conversation", () => {
  /** A memory store and a scripted model that note, in order, each lock taken, each write and each model request. */
  function observed(steps: Parameters<typeof scriptedModel>[0]) {
    const order: string[] = [];
    const inner = createMemoryStore();
    const store: SessionStore = {
      ...inner,
      get: (id, namespace) => inner.get(id, namespace),
      list: (options) => inner.list(options),
      delete: (id, namespace) => inner.delete(id, namespace),
      close: () => inner.close(),
      async lockSession(id, options) {
        const lock = await inner.lockSession(id, options);
        order.push("lock");
        return lock;
      },
      async put(id, data, options) {
        order.push("write");
        return inner.put(id, data, options);
      },
    };
    const model = scriptedModel(steps);
    const doStream = model.doStream.bind(model);
    model.doStream = async (options) => {
      order.push("request");
      return doStream(options);
    };
    return { order, store, model };
  }

  it("a new conversation sends its first request before locking, and locks before its first write", async () => {
    const { order, store, model } = observed([{ text: "one" }, { text: "two" }]);
    const agent = await createSkillAgent({ model, catalog, store });
    try {
      await agent.send("first");
      // Saved once, under its lock: the next turn locks first, as every turn of a saved conversation does.
      expect(order).toEqual(["request", "lock", "write"]);
      await agent.send("second");
      expect(order).toEqual(["request", "lock", "write", "lock", "request", "write"]);
      // Another engine waits for the lock while it is held (the lock was released after each turn).
      const held = await store.lockSession(agent.sessionId, { namespace: "conversation" });
      await held.release();
    } finally {
      await agent.close();
    }
  });

  it("a conversation named by sessionId locks before its first request, and an aborted new turn is still saved", async () => {
    const named = observed([{ text: "one" }]);
    const agent = await createSkillAgent({
      model: named.model,
      catalog,
      store: named.store,
      sessionId: "given-id",
    });
    try {
      await agent.send("first");
      expect(named.order).toEqual(["lock", "request", "write"]);
    } finally {
      await agent.close();
    }

    let release = (): void => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fresh = observed([{ text: "never", gate }]);
    const aborting = await createSkillAgent({ model: fresh.model, catalog, store: fresh.store });
    try {
      const abort = new AbortController();
      const turn = aborting.send("stop me", { abortSignal: abort.signal });
      while (!fresh.order.includes("request")) await new Promise((r) => setTimeout(r, 1));
      abort.abort();
      release();
      const result: unknown = await Promise.resolve(turn).catch((error: unknown) => ({ error }));
      expect(fresh.order).toEqual(["request", "lock", "write"]);
      const stored = await fresh.store.get(aborting.sessionId, "conversation");
      expect(stored?.version, JSON.stringify(result)).toBe(1);
    } finally {
      await aborting.close();
    }
  });
});
