/** The package's `exports` map works for consumers: the root entry and the `./mcp` subpath (built `dist/`). */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  createCatalog,
  createSkillSession,
  type LoadInputShape,
  type SessionFailure,
  type SystemLayout,
  type ToolCallShape,
} from "../../src/index.js";

const root = path.resolve(import.meta.dirname, "../..");

describe("package exports", () => {
  it("resolves 'skillrt' and 'skillrt/mcp' by name, with the config reader and its schema, no DEFAULT_ constants", () => {
    const script = `
      const main = await import("skillrt");
      const mcp = await import("skillrt/mcp");
      console.log(JSON.stringify({
        main: ["createCatalog", "createSkillSession", "createSkillTools", "runAgent", "createExecutor", "createSqliteStore"]
          .filter((n) => typeof main[n] === "function"),
        mcp: typeof mcp.createSkillMcpServer,
        config: ["loadSkillrtConfig", "resolveSkillEnv", "createSkillAgent", "createSkillToolkit"]
          .filter((n) => typeof main[n] === "function"),
        schema: main.SkillrtConfigFile.safeParse({ session: { activeSkills: ["style"] } }).success,
        defaults: Object.keys(main).filter((n) => n.startsWith("DEFAULT_")),
      }));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: root,
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toEqual({
      main: [
        "createCatalog",
        "createSkillSession",
        "createSkillTools",
        "runAgent",
        "createExecutor",
        "createSqliteStore",
      ],
      mcp: "function",
      config: ["loadSkillrtConfig", "resolveSkillEnv", "createSkillAgent", "createSkillToolkit"],
      schema: true,
      defaults: [],
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
