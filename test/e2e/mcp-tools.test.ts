/**
 * `skillrt ask` with MCP servers from skillrt.config.json (the tracker fixture over stdio and over
 * Streamable HTTP, started by the tests) and a scripted model on the OpenAI wire format: gating by the
 * active skills, calls reaching the server, approvals, servers that fail or die.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import {
  type HttpTracker,
  startHttpTracker,
  trackerStdio,
} from "../../src/tools/mcp-client/__fixtures__/tracker.js";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, runCli, writeTrustedConfig } from "./support/run-cli.js";

let cwd: string;
let log: string;
let server: LoopbackProvider | undefined;
let http: HttpTracker | undefined;

beforeAll(() => assertBuilt());
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-mcp-e2e-"));
  log = path.join(cwd, "calls.jsonl");
  const skills = path.join(cwd, "skills");
  await mkdir(path.join(skills, "triage"), { recursive: true });
  await writeFile(
    path.join(skills, "triage", "SKILL.md"),
    "---\nname: triage\ndescription: File bugs in the tracker.\nallowed-tools: mcp__tracker__create_issue\n---\n\nFile the bug with mcp__tracker__create_issue.\n",
  );
  await mkdir(path.join(skills, "browse"), { recursive: true });
  await writeFile(
    path.join(skills, "browse", "SKILL.md"),
    '---\nname: browse\ndescription: Look at the board.\ntool_list: {"tracker": ["snapshot"]}\n---\n\nTake a snapshot.\n',
  );
});
afterEach(async () => {
  await server?.close();
  await http?.stop();
  server = undefined;
  http = undefined;
  await rm(cwd, { recursive: true, force: true });
});

const env = (s: LoopbackProvider): Record<string, string> => ({
  OPENAI_BASE_URL: s.baseURL,
  OPENAI_API_KEY: "sk-loopback",
  AGENT_MODEL: "loopback-model",
});

async function config(value: unknown): Promise<void> {
  await writeTrustedConfig(cwd, value);
}

const offered = (body: any): string[] => (body.tools ?? []).map((t: any) => t.function.name);
const mcpOffered = (body: any): string[] => offered(body).filter((n) => n.startsWith("mcp__"));
const toolMessages = (body: any): string[] =>
  body.messages.filter((m: any) => m.role === "tool").map((m: any) => String(m.content));
async function calls(): Promise<any[]> {
  const text = await readFile(log, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

/** A skill whose tool_list names the board server (every tool of it). */
async function boardSkill(): Promise<void> {
  await mkdir(path.join(cwd, "skills", "board-report"), { recursive: true });
  await writeFile(
    path.join(cwd, "skills", "board-report", "SKILL.md"),
    '---\nname: board-report\ndescription: Report on the board.\ntool_list: {"board": []}\n---\n\nReport.\n',
  );
}

const ALL = [
  "mcp__tracker__create_issue",
  "mcp__tracker__delete_repo",
  "mcp__tracker__snapshot",
  "mcp__tracker__shutdown",
];

describe("skillrt ask with MCP servers", { timeout: 180_000 }, () => {
  for (const transport of ["stdio", "streamable-http"] as const) {
    it(`skill gating (${transport}): nothing before the load, exactly the granted tool after, gone after unload`, async () => {
      let entry: unknown = trackerStdio({ TRACKER_LOG: log });
      if (transport === "streamable-http") {
        http = await startHttpTracker({ TRACKER_LOG: log });
        entry = http.config();
      }
      await config({ mcpServers: { tracker: entry } });
      server = await startLoopbackProvider("openai", [
        { toolCalls: [{ name: "skill_load", input: { name: "triage" } }] },
        { toolCalls: [{ name: "mcp__tracker__create_issue", input: { title: "Save crashes" } }] },
        { toolCalls: [{ name: "skill_unload", input: { name: "triage" } }] },
        { text: "Filed issue #1." },
      ]);
      const run = await runCli(["ask", "--root", "skills", "--tool-gating", "skill", "file the bug"], {
        cwd,
        env: env(server),
      });
      expect(run.stderr).not.toMatch(/internal error/);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("Filed issue #1.\n");
      const bodies = server.requests.map((r) => r.body);
      expect(bodies).toHaveLength(4);
      expect(mcpOffered(bodies[0])).toEqual([]);
      expect(mcpOffered(bodies[1])).toEqual(["mcp__tracker__create_issue"]);
      expect(await calls()).toEqual([
        { tool: "create_issue", input: { title: "Save crashes" }, authorization: null },
      ]);
      expect(toolMessages(bodies[2]).join("\n")).toContain("Created issue #1: Save crashes");
      expect(mcpOffered(bodies[3])).toEqual([]);
      expect(run.stderr).toContain(
        "+ tool mcp__tracker__create_issue: granted by skill 'triage' (allowed-tools mcp__tracker__create_issue)",
      );
    });
  }

  it("an untrusted project skill's allowed-tools: the tool is offered as named, not granted, and the refusal names skillrt trust", async () => {
    const home = path.join(cwd, "home");
    await mkdir(home);
    // The config is trusted; the project skill arrives afterwards (as from a pull) and is not.
    const text = await readFile(path.join(cwd, "skills", "triage", "SKILL.md"), "utf8");
    await rm(path.join(cwd, "skills"), { recursive: true });
    await writeTrustedConfig(
      cwd,
      { mcpServers: { tracker: trackerStdio({ TRACKER_LOG: log }) } },
      { HOME: home },
    );
    await mkdir(path.join(cwd, ".agents", "skills", "triage"), { recursive: true });
    await writeFile(path.join(cwd, ".agents", "skills", "triage", "SKILL.md"), text);
    server = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "skill_load", input: { name: "triage" } }] },
      { toolCalls: [{ name: "mcp__tracker__create_issue", input: { title: "Save crashes" } }] },
      { text: "Not filed." },
    ]);
    const run = await runCli(["ask", "--tool-gating", "skill", "file the bug"], {
      cwd,
      env: { ...env(server), HOME: home },
    });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("granted by skill 'triage'");
    expect(run.stderr).toContain(
      "+ tool mcp__tracker__create_issue: named by skill 'triage' (allowed-tools mcp__tracker__create_issue), which is not trusted: each call needs approval",
    );
    expect(run.stderr).toMatch(/refused mcp__tracker__create_issue .*trust it with skillrt trust /);
    // Said once: the offer does not claim a grant, the refusal names the command.
    expect(run.stderr.match(/skillrt trust/g)).toHaveLength(1);
    expect(await calls()).toEqual([]);
  });

  for (const transport of ["stdio", "streamable-http"] as const) {
    it(`open gating offers every server tool from the first request (${transport})`, async () => {
      let entry: unknown = trackerStdio({ TRACKER_LOG: log });
      if (transport === "streamable-http") {
        http = await startHttpTracker({ TRACKER_LOG: log });
        entry = http.config();
      }
      await config({ mcpServers: { tracker: entry }, tools: { gating: "open" } });
      server = await startLoopbackProvider("openai", [{ text: "ok" }]);
      const run = await runCli(["ask", "--root", "skills", "hi"], { cwd, env: env(server) });
      expect(run.code).toBe(0);
      expect(mcpOffered(server.requests[0]?.body)).toEqual(ALL);
    });
  }

  it("aworld profile with two servers: no active skill → every tool of both; active_skill → server A's listed tool and all of server B; offload_skill → every tool again", async () => {
    // The profile starts the servers its skills' tool_list names (AWorld's rule): a second skill names board.
    await boardSkill();
    await config({
      mcpServers: { tracker: trackerStdio({ TRACKER_LOG: log }), board: trackerStdio({ TRACKER_LOG: log }) },
      tools: { allow: ["mcp__tracker__snapshot"] },
    });
    server = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "active_skill", input: { skill_name: "browse" } }] },
      { toolCalls: [{ name: "mcp__tracker__snapshot", input: {} }] },
      { toolCalls: [{ name: "offload_skill", input: { skill_name: "browse" } }] },
      { text: "done" },
    ]);
    const run = await runCli(["ask", "--root", "skills", "--profile", "aworld", "look"], {
      cwd,
      env: env(server),
    });
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.code).toBe(0);
    const bodies = server.requests.map((r) => r.body);
    const board = ALL.map((n) => n.replace("tracker", "board"));
    // seed-systems §3.4: "With no skill_configs, or no active skills, **all** tools are returned."
    expect(mcpOffered(bodies[0]).sort()).toEqual([...ALL, ...board].sort());
    // browse's tool_list is {"tracker": ["snapshot"]}: "For a selected server, only the listed tools are
    // kept"; "Tools of known servers that no active skill references are kept."
    expect(mcpOffered(bodies[1]).sort()).toEqual(["mcp__tracker__snapshot", ...board].sort());
    expect(toolMessages(bodies[1]).join("\n")).toMatch(
      /skill browse activated, current skills: \['browse'\]\n\n<skill_guide>/,
    );
    expect(toolMessages(bodies[2]).join("\n")).toContain("[image, image/png, 14 B; not shown]");
    expect(mcpOffered(bodies[3]).sort()).toEqual([...ALL, ...board].sort());
  });

  it("aworld profile: only the MCP servers the skills' tool_list names start; a named server not configured is reported", async () => {
    await boardSkill();
    await mkdir(path.join(cwd, "skills", "ghost-hunt"), { recursive: true });
    await writeFile(
      path.join(cwd, "skills", "ghost-hunt", "SKILL.md"),
      '---\nname: ghost-hunt\ndescription: Hunt ghosts.\ntool_list: {"ghost": []}\n---\n\nHunt.\n',
    );
    const marker = path.join(cwd, "archive-started");
    const archive = trackerStdio({ TRACKER_LOG: log });
    await config({
      mcpServers: {
        tracker: trackerStdio({ TRACKER_LOG: log }),
        board: trackerStdio({ TRACKER_LOG: log }),
        // Never named by a skill: never started (it would leave the marker).
        archive: {
          command: "sh",
          args: ["-c", 'touch "$0" && exec "$@"', marker, archive.command, ...(archive.args ?? [])],
        },
      },
    });
    server = await startLoopbackProvider("openai", [{ text: "done" }]);
    const run = await runCli(["ask", "--root", "skills", "--profile", "aworld", "look"], {
      cwd,
      env: env(server),
    });
    expect(run.code).toBe(0);
    const board = ALL.map((n) => n.replace("tracker", "board"));
    expect(mcpOffered(server.requests[0]?.body).sort()).toEqual([...ALL, ...board].sort());
    expect(await readFile(marker, "utf8").catch(() => "absent")).toBe("absent");
    expect(run.stderr).toContain(
      "skill 'ghost-hunt' names MCP server 'ghost' in its tool_list, but mcpServers has no 'ghost'",
    );
  });

  it("aworld profile: ask --skill NAME (repeatable) forces skills: active from the first request, named in the contract, instruction-only ones switch host tools off", async () => {
    await config({ mcpServers: { tracker: trackerStdio({ TRACKER_LOG: log }) } });
    const system = (body: any): string =>
      body.messages
        .filter((m: any) => m.role === "system")
        .map((m: any) => String(m.content))
        .join("\n");
    server = await startLoopbackProvider("openai", [{ text: "done" }]);
    const args = ["ask", "--root", "skills", "--profile", "aworld", "--skill", "triage", "file it"];
    const one = await runCli(args, { cwd, env: env(server) });
    expect(one.code).toBe(0);
    const first = server.requests[0]?.body;
    expect(system(first)).toContain(
      "  <forced_skill_contract>\n    The user explicitly requested these skill(s) for this task: triage.\n    These skills are already activated for this task.\n",
    );
    expect(system(first)).toContain('  <skill id="triage" active_status="True">');
    // seed-systems §3.4: "If every forced, active skill is instruction-only (`tool_list` empty and not of
    // type agent), **all tools are disabled**."
    expect(mcpOffered(first)).toEqual([]);
    await server.close();

    server = await startLoopbackProvider("openai", [{ text: "done" }]);
    const two = await runCli([...args.slice(0, -1), "--skill", "browse", "file it"], {
      cwd,
      env: env(server),
    });
    expect(two.code).toBe(0);
    const body = server.requests[0]?.body;
    expect(system(body)).toContain(
      "The user explicitly requested these skill(s) for this task: triage, browse.",
    );
    expect(system(body)).toContain('  <skill id="browse" active_status="True">');
    expect(mcpOffered(body)).toEqual(["mcp__tracker__snapshot"]);
  });

  it("ask without --yes refuses an unlisted tool naming --yes and tools.allow; with --yes it runs", async () => {
    await config({ mcpServers: { tracker: trackerStdio({ TRACKER_LOG: log }) }, tools: { gating: "open" } });
    const script = () => [
      { toolCalls: [{ name: "mcp__tracker__delete_repo", input: { repo: "web" } }] },
      { text: "could not" },
    ];
    server = await startLoopbackProvider("openai", script());
    const refused = await runCli(["ask", "--root", "skills", "delete web"], { cwd, env: env(server) });
    expect(refused.code).toBe(0);
    expect(refused.stderr).toMatch(/refused mcp__tracker__delete_repo .*--yes.*tools\.allow/);
    const seen = toolMessages(server.requests[1]?.body).join("\n");
    expect(seen).toMatch(/not approved: .*--yes.*tools\.allow/);
    expect(await calls()).toEqual([]);
    await server.close();

    server = await startLoopbackProvider("openai", script());
    const approved = await runCli(["ask", "--root", "skills", "--yes", "delete web"], {
      cwd,
      env: env(server),
    });
    expect(approved.code).toBe(0);
    expect(await calls()).toEqual([{ tool: "delete_repo", input: { repo: "web" } }]);
  });

  it("bad arguments, a server that cannot start and one that dies: the conversation goes on with clear messages", async () => {
    await config({
      mcpServers: {
        broken: trackerStdio({}, ["--fail"]),
        tracker: trackerStdio({ TRACKER_LOG: log }),
      },
      tools: { gating: "open", approval: "never" },
    });
    server = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "mcp__tracker__create_issue", input: { priority: "urgent" } }] },
      { toolCalls: [{ name: "mcp__tracker__shutdown", input: {} }] },
      { text: "The tracker is down." },
    ]);
    const run = await runCli(["ask", "--root", "skills", "go"], { cwd, env: env(server) });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The tracker is down.\n");
    expect(run.stderr).toMatch(/! MCP server 'broken' .*could not start: .*cannot open database/);
    const bodies = server.requests.map((r) => r.body);
    expect(mcpOffered(bodies[0])).toEqual(ALL);
    expect(toolMessages(bodies[1]).join("\n")).toMatch(
      /arguments do not match the input schema of mcp__tracker__create_issue/,
    );
    expect(toolMessages(bodies[2]).join("\n")).toMatch(/MCP server 'tracker' stopped during the call/);
    expect(run.stderr).toMatch(/! MCP server 'tracker' stopped/);
    expect(mcpOffered(bodies[2])).toEqual([]);
    expect(await calls()).toEqual([{ tool: "shutdown", input: {} }]);
  });

  it("chat asks y/n/always inline: a refusal is a result the model reads, always stops asking for that tool", async () => {
    await config({ mcpServers: { tracker: trackerStdio({ TRACKER_LOG: log }) }, tools: { gating: "open" } });
    server = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "mcp__tracker__delete_repo", input: { repo: "web" } }] },
      { text: "Not deleted." },
      { toolCalls: [{ name: "mcp__tracker__create_issue", input: { title: "one" } }] },
      { toolCalls: [{ name: "mcp__tracker__create_issue", input: { title: "two" } }] },
      { text: "Filed both." },
    ]);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = "";
    for (const stream of [stdout, stderr]) stream.on("data", (d) => (out += String(d)));
    // Each answer follows the line that triggers the question; the REPL reads them in order.
    stdin.end(["delete the web repo", "n", "file two issues", "a", "/context", "/exit", ""].join("\n"));
    const code = await main(["chat", "--root", "skills"], {
      stdin,
      stdout,
      stderr,
      cwd,
      env: { ...env(server), HOME: cwd, NO_COLOR: "1" },
    });
    expect(code).toBe(0);
    expect(out).toContain('Allow mcp__tracker__delete_repo {"repo":"web"}? [y]es / [n]o / [a]lways: ');
    expect(out.match(/Allow mcp__tracker__create_issue/g)).toHaveLength(1);
    expect(out).toContain("Not deleted.");
    expect(out).toContain("Filed both.");
    // /context: the servers' states and why each gated tool is offered.
    expect(out).toContain("MCP servers:\n  tracker running (stdio, 4 tools)\n");
    expect(out).toContain("Tools offered:\n  mcp__tracker__create_issue: tool gating is open\n");
    const bodies = server.requests.map((r) => r.body);
    expect(toolMessages(bodies[1]).join("\n")).toMatch(
      /The call of mcp__tracker__delete_repo was not approved by the user\. It did not run\./,
    );
    expect((await calls()).map((c) => [c.tool, c.input])).toEqual([
      ["create_issue", { title: "one" }],
      ["create_issue", { title: "two" }],
    ]);
  });
});
