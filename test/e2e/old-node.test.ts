/**
 * The CLI on the machine's system Node (20 here: no `node:sqlite`). Commands that keep sessions say which
 * Node they found and which they need, in one line, exit 1; the others work.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "./support/run-cli.js";

const repo = path.resolve(import.meta.dirname, "../..");
const bin = path.join(repo, "bin", "skillrt.js");
const skills = path.join(repo, "examples", "skills");
const SYSTEM_NODE = "/usr/bin/node";

function versionOf(node: string): string | undefined {
  if (!existsSync(node)) return undefined;
  const out = spawnSync(node, ["-p", "process.versions.node"], { encoding: "utf8" });
  return out.status === 0 ? out.stdout.trim() : undefined;
}

const version = versionOf(SYSTEM_NODE);
const [major = 0, minor = 0] = (version ?? "0.0").split(".").map(Number);
const withoutSqlite = version !== undefined && (major < 22 || (major === 22 && minor < 5));

let cwd = "";
beforeAll(async () => {
  assertBuilt();
  cwd = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-old-node-")));
});
afterAll(async () => {
  if (cwd !== "") await fs.rm(cwd, { recursive: true, force: true });
});

function run(args: string[], input?: string) {
  return spawnSync(SYSTEM_NODE, [bin, ...args], {
    cwd,
    input,
    encoding: "utf8",
    env: { PATH: "/usr/bin:/bin", HOME: cwd, NO_COLOR: "1", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
    timeout: 60_000,
  });
}

describe.skipIf(!withoutSqlite)(
  `the CLI on the system Node ${version ?? "(none)"}, without node:sqlite`,
  () => {
    it("ask and chat print one line naming the Node found and the one needed, exit 1", () => {
      for (const args of [["ask", "hi"], ["chat"]]) {
        const result = run([...args, "--root", skills], "");
        expect(result.status, result.stderr).toBe(1);
        const lines = result.stderr.trim().split("\n");
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(`Node ${version}`);
        expect(lines[0]).toContain("≥ 22.5");
        expect(result.stdout).toBe("");
      }
    });

    it("list, validate, show, search and prompt keep working", () => {
      expect(run(["list", "--root", skills]).stdout).toContain("csv-summary");
      expect(run(["validate", path.join(skills, "csv-summary")]).status).toBe(0);
      expect(run(["show", "csv-summary", "--root", skills]).stdout).toContain("# CSV summary");
      expect(run(["search", "changelog", "--root", skills]).stdout).toContain("git-changelog");
      expect(run(["prompt", "--root", skills]).stdout).toContain("- csv-summary: ");
    });

    it("mcp serves over stdio", () => {
      const initialize = {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      };
      const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
      const result = run(
        ["mcp", "--root", skills, "--no-exec"],
        `${JSON.stringify(initialize)}\n${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n${JSON.stringify(list)}\n`,
      );
      expect(result.status, result.stderr).toBe(0);
      const replies = result.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { id: number; result: { tools?: Array<{ name: string }> } });
      expect(replies.find((r) => r.id === 1)?.result).toMatchObject({ serverInfo: { name: "skillrt" } });
      expect(replies.find((r) => r.id === 2)?.result.tools?.map((t) => t.name)).toContain("skill_load");
    });
  },
);
