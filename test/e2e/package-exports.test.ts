/**
 * The package's `exports` map works for consumers: the root entry, the curated subpaths and `./mcp` (built
 * `dist/`), the root entry loading no SQLite, Postgres or MCP SDK module, and, from the packed tarball
 * installed in a fresh directory, `skillrt/test` and a file list without source maps pointing at files it
 * does not ship.
 */
import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalog, createSkillSession } from "../../src/index.js";
import type { LoadInputShape, SessionFailure, SystemLayout, ToolCallShape } from "../../src/session.js";
import { installPacked, type PackedInstall } from "./support/packed-install.js";

const root = path.resolve(import.meta.dirname, "../..");

describe("package exports", () => {
  it("resolves 'skillrt', its curated subpaths and 'skillrt/mcp' by name, with the config reader and its schema, no DEFAULT_ constants", () => {
    const script = `
      const main = await import("skillrt");
      const mcp = await import("skillrt/mcp");
      const sub = {
        catalog: await import("skillrt/catalog"),
        session: await import("skillrt/session"),
        exec: await import("skillrt/exec"),
        store: await import("skillrt/store"),
      };
      console.log(JSON.stringify({
        subpaths: {
          catalog: typeof sub.catalog.parseSkillMd,
          session: typeof sub.session.restoreSkillSession,
          exec: typeof sub.exec.createWorkspace,
          store: typeof sub.store.openSessionStore,
        },
        main: ["createCatalog", "createSkillSession", "createSkillTools", "runAgent", "createExecutor", "createSqliteStore"]
          .filter((n) => typeof main[n] === "function"),
        mcp: typeof mcp.createSkillMcpServer,
        config: ["loadSkillrtConfig", "createSkillAgent", "createSkillToolkit"]
          .filter((n) => typeof main[n] === "function"),
        env: typeof sub.exec.resolveSkillEnv,
        schema: main.SkillrtConfigFile.safeParse({ session: { activeSkills: ["style"] } }).success,
        defaults: Object.keys(main).filter((n) => n.startsWith("DEFAULT_")),
      }));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: root,
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toEqual({
      subpaths: { catalog: "function", session: "function", exec: "function", store: "function" },
      main: [
        "createCatalog",
        "createSkillSession",
        "createSkillTools",
        "runAgent",
        "createExecutor",
        "createSqliteStore",
      ],
      mcp: "function",
      config: ["loadSkillrtConfig", "createSkillAgent", "createSkillToolkit"],
      env: "function",
      schema: true,
      defaults: [],
    });
  });

  it("loads no node:sqlite, pg or MCP SDK module from 'skillrt', 'skillrt/catalog', 'skillrt/session', 'skillrt/exec' or 'skillrt/store'", () => {
    // Every module the entry imports, static or dynamic at load time, is resolved through this hook.
    const script = `
      import { registerHooks } from "node:module";
      const resolved = [];
      registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); resolved.push(r.url); return r; } });
      const loaded = {};
      for (const entry of ["skillrt", "skillrt/catalog", "skillrt/session", "skillrt/exec", "skillrt/store"]) {
        const mod = await import(entry);
        loaded[entry] = Object.keys(mod).length > 0;
      }
      const heavy = resolved.filter((url) => url === "node:sqlite" || ["/node_modules/pg", "/node_modules/@modelcontextprotocol/"].some((p) => url.includes(p)));
      const sdk = resolved.some((url) => url.includes("/node_modules/ai/"));
      console.log(JSON.stringify({ loaded, heavy, sdk }));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: root,
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toEqual({
      loaded: {
        skillrt: true,
        "skillrt/catalog": true,
        "skillrt/session": true,
        "skillrt/exec": true,
        "skillrt/store": true,
      },
      heavy: [],
      // The hook sees the AI SDK the agent is built on: it does observe package imports.
      sdk: true,
    });
  });

  it("exports the types a host needs to shape synthetic load calls and branch on failures", async () => {
    const catalog = await createCatalog({
      roots: [],
      memory: [
        { name: "auto", description: "Config only.", body: "AUTO", extras: { "user-invocable": "false" } },
      ],
    });
    const layout: SystemLayout = "trpc";
    const session = createSkillSession({ catalog, systemLayout: layout, profile: "trpc" });
    const loadInput: LoadInputShape = session.profile.loadInput;
    expect(loadInput("auto")).toEqual({ skill: "auto" });
    const call: ToolCallShape = session.history.loadCall("auto");
    expect(call).toEqual({ toolName: "skill_load", input: { skill: "auto" } });
    const refused = await session.load("auto", { by: "user" });
    const failure: SessionFailure | undefined = refused.ok ? undefined : refused;
    expect(failure?.code).toBe("not-user-invocable");
  });
});

describe("the packed tarball", () => {
  let packed: PackedInstall;
  beforeAll(async () => {
    packed = await installPacked("skillrt-pack-");
  }, 300_000);
  afterAll(async () => {
    if (packed !== undefined) await rm(packed.dir, { recursive: true, force: true });
  });

  it("ships no source map, and every declared entry point", () => {
    expect(packed.files.filter((f) => f.endsWith(".map"))).toEqual([]);
    // The static pages (the inspector's, serve's chat page) ship as they are; no other source does.
    expect(
      packed.files.filter(
        (f) => f.startsWith("src/") && !f.startsWith("src/inspect/ui/") && !f.startsWith("src/serve/ui/"),
      ),
    ).toEqual([]);
    // Every file the "exports" map names (the root, the curated subpaths, mcp and test, with their types).
    const exportsMap = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).exports as Record<
      string,
      string | Record<string, string>
    >;
    const declared = Object.values(exportsMap).flatMap((target) =>
      typeof target === "string" ? [] : Object.values(target).map((file) => file.replace(/^\.\//, "")),
    );
    expect(declared).toContain("dist/lib/catalog.js");
    expect(declared).toContain("dist/test-kit.d.ts");
    for (const entry of declared) expect(packed.files).toContain(entry);
    // No shipped file points at a map (or at sources) the package does not have.
    const installed = path.join(packed.app, "node_modules", "skillrt");
    const pointing = packed.files.filter(
      (f) =>
        /\.(js|d\.ts)$/.test(f) && readFileSync(path.join(installed, f), "utf8").includes("sourceMappingURL"),
    );
    expect(pointing).toEqual([]);
  });

  it("'skillrt/test' drives a SkillAgent with the scripted model over a memory catalog and store", async () => {
    const program = `
      import { createSkillAgent } from "skillrt";
      import { createMemoryCatalog, createMemoryStore, scriptedModel, startLoopbackProvider, toolNamesOf } from "skillrt/test";
      const catalog = await createMemoryCatalog([
        { name: "greet", description: "Greets people. Use when asked to greet.", body: "Say GREETINGS." },
      ]);
      const model = scriptedModel([
        { toolCalls: [{ name: "skill_load", input: JSON.stringify({ name: "greet" }) }] },
        { text: "GREETINGS, world." },
      ]);
      const agent = await createSkillAgent({ catalog, model, store: createMemoryStore(), executor: false });
      const result = await agent.send("greet the world");
      await agent.close();
      const server = await startLoopbackProvider("openai", [{ text: "hi" }]);
      const reply = await fetch(server.baseURL + "/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "x" }] }),
      }).then((r) => r.json());
      await server.close();
      console.log(JSON.stringify({
        text: result.text,
        calls: result.toolCalls.map((c) => [c.toolName, c.isError]),
        offered: toolNamesOf(model.calls[0]),
        loadedBody: JSON.stringify(model.calls[1].prompt).includes("Say GREETINGS."),
        wire: reply.choices[0].message.content,
        recorded: server.requests.length,
      }));
    `;
    const file = path.join(packed.app, "program.mjs");
    await writeFile(file, program);
    const { stdout } = await promisify(execFile)(process.execPath, [file], {
      cwd: packed.app,
      env: packed.env,
    });
    expect(JSON.parse(stdout)).toEqual({
      text: "GREETINGS, world.",
      calls: [["skill_load", false]],
      offered: ["skill_load", "skill_read", "skill_list_docs", "skill_select_docs", "skill_unload"],
      loadedBody: true,
      wire: "hi",
      recorded: 1,
    });
  });
});
