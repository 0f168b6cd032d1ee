/**
 * A subagent under the built CLI's `ask` (loopback provider, real scripts): it runs a project skill's
 * script under `--trust` and after `skillrt trust` (and refuses it without either), leaves `` !`cmd` ``
 * as written under `exec.shellPreRender: false`, and one `ask` whose model asks for 500 subagents starts
 * at most `delegation.maxPerTurn` of them.
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type LoopbackProvider,
  type ScriptedReply,
  startLoopbackProvider,
} from "./support/loopback-provider.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

let base: string;
let project: string;
let home: string;
let marker: string;
let server: LoopbackProvider | undefined;

beforeAll(() => assertBuilt());
beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "skillrt-subagent-trust-"));
  project = path.join(base, "project");
  home = path.join(base, "home");
  marker = path.join(base, "pre-rendered");
  const skill = path.join(project, ".agents", "skills", "greet");
  await mkdir(path.join(skill, "scripts"), { recursive: true });
  await writeFile(
    path.join(skill, "SKILL.md"),
    `---\nname: greet\ndescription: Greets from the project.\n---\nMarker: !\`touch ${marker} && echo TOUCHED\`\n\nRun \`sh scripts/hello.sh\`.\n`,
  );
  await writeFile(path.join(skill, "scripts", "hello.sh"), "echo HELLO-FROM-SCRIPT\n");
  // The helper agent is the user's (next to the user's skills root), so only the parent's trust is in play.
  await mkdir(path.join(home, ".agents", "skills"), { recursive: true });
  await mkdir(path.join(home, ".agents", "agents"), { recursive: true });
  await writeFile(
    path.join(home, ".agents", "agents", "helper.md"),
    "---\nname: helper\ndescription: Does one task with the skills.\n---\nDo the task.\n",
  );
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(base, { recursive: true, force: true });
});

const env = (provider: LoopbackProvider) => ({
  HOME: home,
  OPENAI_BASE_URL: provider.baseURL,
  OPENAI_API_KEY: "sk-loopback",
  AGENT_MODEL: "loopback-model",
});

/** Tool results of a recorded request body, in order. */
function toolTexts(body: any): string[] {
  return body.messages.filter((m: any) => m.role === "tool").map((m: any) => String(m.content));
}

/**
 * One `ask` whose model delegates to `helper`; the helper (the same loopback model: requests come one
 * after the other) loads greet, runs its script and answers. Returns what the helper's last request read.
 */
async function askThroughHelper(flags: string[] = []) {
  server = await startLoopbackProvider("openai", [
    { toolCalls: [{ name: "agent_run", input: { agent: "helper", task: "greet the user" } }] },
    { toolCalls: [{ name: "skill_load", input: { name: "greet" } }] },
    { toolCalls: [{ name: "skill_run", input: { name: "greet", command: "sh scripts/hello.sh" } }] },
    { text: "Greeted." },
    { text: "Done." },
  ]);
  const run = await runCli(
    ["ask", "--executor", "local", "--store", "sqlite::memory:", ...flags, "greet me"],
    {
      cwd: project,
      env: env(server),
      timeoutMs: 60_000,
    },
  );
  const bodies = server.requests.map((r) => r.body);
  await server.close();
  server = undefined;
  // Request 4 (index 3) is the helper's last: it holds its load and run results.
  const [load = "", ran = ""] = toolTexts(bodies[3]);
  return { code: run.code, stderr: run.stderr, load, ran, requests: bodies.length };
}

const trustCli = (args: string[]) => runCli(["trust", ...args], { cwd: project, env: { HOME: home } });

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

describe("a subagent under ask", () => {
  it("refuses the project skill's script untrusted; runs it with ask --trust and after skillrt trust", async () => {
    const untrusted = await askThroughHelper();
    expect(untrusted.code).toBe(0);
    expect(untrusted.requests).toBe(5);
    expect(untrusted.ran).not.toContain("HELLO-FROM-SCRIPT");
    expect(untrusted.ran).toContain(`skillrt trust ${path.join(project, ".agents", "skills")}`);
    expect(await exists(marker)).toBe(false);

    const once = await askThroughHelper(["--trust"]);
    expect(once.code).toBe(0);
    expect(once.ran).toContain("HELLO-FROM-SCRIPT");
    expect(once.load).toContain("Marker: TOUCHED");

    await rm(marker);
    expect((await trustCli([])).code).toBe(0);
    const recorded = await askThroughHelper();
    expect(recorded.code).toBe(0);
    expect(recorded.ran).toContain("HELLO-FROM-SCRIPT");
    expect(recorded.load).toContain("Marker: TOUCHED");
  });

  it("exec.shellPreRender false reaches the subagent: its load shows the !`cmd` as written and nothing ran", async () => {
    await mkdir(path.join(home, ".skillrt"), { recursive: true });
    await writeFile(
      path.join(home, ".skillrt", "config.json"),
      JSON.stringify({ exec: { shellPreRender: false } }),
    );
    const run = await askThroughHelper(["--trust"]);
    expect(run.code).toBe(0);
    expect(run.load).toContain(`Marker: !\`touch ${marker} && echo TOUCHED\``);
    expect(await exists(marker)).toBe(false);
    // The script itself still runs: only pre-rendering is off.
    expect(run.ran).toContain("HELLO-FROM-SCRIPT");
  });

  it("a model asking for 500 subagents in one ask starts at most delegation.maxPerTurn of them", async () => {
    await mkdir(path.join(home, ".skillrt"), { recursive: true });
    await writeFile(
      path.join(home, ".skillrt", "config.json"),
      JSON.stringify({ delegation: { maxPerTurn: 6 } }),
    );
    const fan: ScriptedReply = {
      toolCalls: Array.from({ length: 500 }, (_, i) => ({
        name: "agent_run",
        input: { agent: "helper", task: `part ${i}` },
      })),
    };
    // The parent's fan-out, then one answer per subagent started, then the parent's answer.
    server = await startLoopbackProvider("openai", [
      fan,
      ...Array.from({ length: 6 }, () => ({ text: "part done" })),
      { text: "All done." },
    ]);
    const run = await runCli(["ask", "--executor", "local", "--store", "sqlite::memory:", "split it"], {
      cwd: project,
      env: env(server),
      timeoutMs: 60_000,
    });
    const bodies = server.requests.map((r) => r.body);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("All done.");
    // 1 fan-out + 6 subagents + 1 answer: no request from a seventh subagent.
    expect(bodies).toHaveLength(8);
    const results = toolTexts(bodies.at(-1));
    expect(results).toHaveLength(500);
    const refused = results.filter((r) =>
      r.includes("Delegation limit reached: 6 subagents started this turn"),
    );
    expect(refused).toHaveLength(494);
    expect(results.filter((r) => r.includes("part done"))).toHaveLength(6);
  });
});
