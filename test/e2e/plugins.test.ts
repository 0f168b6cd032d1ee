/**
 * Claude Code and Codex plugins under the built CLI: a marketplace root of two plugins that both ship a
 * `review` skill lists each as `plugin:skill`, `show` and the model's `skill_load` refuse the short name as
 * ambiguous with both qualified names offered and load each qualified one's own body, a plugin's agent is
 * `plugin:agent`, and a plugin's MCP server and hooks never start.
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

let base: string;
let market: string;
let marker: string;
let server: LoopbackProvider | undefined;

async function write(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

async function skill(dir: string, body: string): Promise<void> {
  const name = path.basename(dir);
  await write(path.join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: ${body}\n---\n\n${body}\n`);
}

beforeAll(() => assertBuilt());
beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "skillrt-plugins-e2e-"));
  market = path.join(base, "market");
  marker = path.join(base, "started");
  await write(
    path.join(market, ".claude-plugin", "marketplace.json"),
    JSON.stringify({
      name: "team",
      owner: { name: "Team" },
      plugins: [{ name: "a", source: "./plugins/a" }],
    }),
  );
  await write(
    path.join(market, ".agents", "plugins", "marketplace.json"),
    JSON.stringify({
      name: "team",
      plugins: [{ name: "b", source: { source: "local", path: "./plugins/b" } }],
    }),
  );
  const a = path.join(market, "plugins", "a");
  await write(path.join(a, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "a", version: "1.0.0" }));
  await skill(path.join(a, "skills", "review"), "Review the way plugin A does.");
  await skill(path.join(a, "skills", "lint"), "Lint the way plugin A does.");
  await write(
    path.join(a, "agents", "reviewer.md"),
    "---\nname: reviewer\ndescription: Reviews a change.\n---\nReview what you are given.\n",
  );
  // What Claude Code would start for this plugin: never started by skillrt.
  await write(
    path.join(a, ".mcp.json"),
    JSON.stringify({ mcpServers: { evil: { command: "sh", args: ["-c", `touch ${marker}-mcp`] } } }),
  );
  await write(
    path.join(a, "hooks", "hooks.json"),
    JSON.stringify({
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: `touch ${marker}-hook` }] }] },
    }),
  );
  const b = path.join(market, "plugins", "b");
  await write(path.join(b, ".codex-plugin", "plugin.json"), JSON.stringify({ name: "b" }));
  await skill(path.join(b, "skills", "review"), "Review the way plugin B does.");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(base, { recursive: true, force: true });
});

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

describe("plugins under the built CLI", () => {
  it("list names same-name plugin skills plugin:skill and drops none; show refuses the short name", async () => {
    const listed = await runCli(["list", "--root", market, "--json"], { cwd: base, env: {} });
    expect(listed.code).toBe(0);
    const json = JSON.parse(listed.stdout);
    expect(json.skills.map((s: any) => [s.name, s.plugin])).toEqual([
      ["a:review", "a"],
      ["b:review", "b"],
      ["lint", "a"],
    ]);
    expect(json.diagnostics.filter((d: any) => String(d.code).startsWith("name-"))).toEqual([]);

    const shown = await runCli(["show", "--root", market, "b:review"], { cwd: base, env: {} });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("Review the way plugin B does.");
    const both = await runCli(["show", "--root", market, "a:lint"], { cwd: base, env: {} });
    expect(both.stdout).toContain("Lint the way plugin A does.");
    const ambiguous = await runCli(["show", "--root", market, "review"], { cwd: base, env: {} });
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain("Skill 'review' is ambiguous");
    expect(ambiguous.stderr).toContain("a:review, b:review");
  });

  it("the model's skill_load gets the qualified names for the short one, each qualified name its own body, and a plugin's agent runs as plugin:agent; nothing of the plugin starts", async () => {
    server = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "skill_load", input: { name: "review" } }] },
      { toolCalls: [{ name: "skill_load", input: { name: "b:review" } }] },
      { toolCalls: [{ name: "agent_run", input: { agent: "a:reviewer", task: "review the change" } }] },
      { text: "Reviewed by the plugin's agent." },
      { text: "Done." },
    ]);
    const run = await runCli(
      ["ask", "--root", market, "--executor", "local", "--store", "sqlite::memory:", "review my change"],
      {
        cwd: base,
        env: {
          OPENAI_BASE_URL: server.baseURL,
          OPENAI_API_KEY: "sk-loopback",
          AGENT_MODEL: "loopback-model",
        },
        timeoutMs: 60_000,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const bodies = server.requests.map((r) => r.body as any);
    const tools = (body: any): string[] =>
      body.messages.filter((m: any) => m.role === "tool").map((m: any) => String(m.content));
    const [first = "", second = ""] = tools(bodies[2]);
    expect(first).toContain("Skill 'review' is ambiguous");
    expect(first).toContain("a:review, b:review");
    expect(second).toContain("Review the way plugin B does.");
    expect(second).not.toContain("plugin A");
    // The child's own request carries the plugin agent's instructions.
    expect(JSON.stringify(bodies[3])).toContain("Review what you are given.");
    expect(tools(bodies[4]).at(-1)).toContain("Reviewed by the plugin's agent.");
    expect(await exists(`${marker}-mcp`)).toBe(false);
    expect(await exists(`${marker}-hook`)).toBe(false);
  });
});
