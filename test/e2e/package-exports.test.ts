/** The package's `exports` map works for consumers: the root entry and the `./mcp` subpath (built `dist/`). */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

describe("package exports", () => {
  it("resolves 'skillrt' and 'skillrt/mcp' by name", () => {
    const script = `
      const main = await import("skillrt");
      const mcp = await import("skillrt/mcp");
      console.log(JSON.stringify({
        main: ["createCatalog", "createSkillSession", "createSkillTools", "runAgent", "createExecutor", "createSqliteStore"]
          .filter((n) => typeof main[n] === "function"),
        mcp: typeof mcp.createSkillMcpServer,
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
    });
  });
});
