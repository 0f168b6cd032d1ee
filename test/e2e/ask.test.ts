/**
 * `skillrt ask` end to end: the built CLI as a child process against loopback servers speaking the
 * OpenAI chat-completions and Anthropic messages wire formats, on the example skills.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

const examples = path.resolve(import.meta.dirname, "../../examples/skills");
const BODY_MARK = "Run the bundled script"; // from csv-summary's SKILL.md body
const REF_MARK = "Exit code 2 means"; // from csv-summary/references/format.md
const csv = "name,age,city\nann,31,Paris\nbob,27,Rome\n";

let cwd: string;
let server: LoopbackProvider | undefined;

beforeAll(() => assertBuilt());
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-ask-"));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(cwd, { recursive: true, force: true });
});

const openaiEnv = (s: LoopbackProvider): Record<string, string> => ({
  OPENAI_BASE_URL: s.baseURL,
  OPENAI_API_KEY: "sk-loopback",
  AGENT_MODEL: "loopback-model",
});
const anthropicEnv = (s: LoopbackProvider): Record<string, string> => ({
  ANTHROPIC_BASE_URL: s.baseURL,
  ANTHROPIC_API_KEY: "sk-ant-loopback",
  AGENT_MODEL: "claude-loopback",
});

function openaiSystem(body: any): string {
  return body.messages
    .filter((m: any) => m.role === "system")
    .map((m: any) => m.content)
    .join("\n");
}
function openaiToolText(body: any): string {
  return body.messages
    .filter((m: any) => m.role === "tool")
    .map((m: any) => String(m.content))
    .join("\n");
}

const runStep = {
  name: "skill_run",
  input: { name: "csv-summary", command: "node scripts/summarize.mjs -", stdin: csv },
};

describe("skillrt ask (OpenAI chat-completions wire format)", () => {
  it("load → read → run → answer: catalog first, body only after load, tools offered, answer on stdout", async () => {
    server = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "skill_load", input: { name: "csv-summary" } }] },
      { toolCalls: [{ name: "skill_read", input: { name: "csv-summary", path: "references/format.md" } }] },
      { toolCalls: [runStep] },
      { text: "The file has 2 rows; age ranges from 27 to 31." },
    ]);
    const run = await runCli(["ask", "--root", examples, "summarise my csv"], {
      cwd,
      env: openaiEnv(server),
    });
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The file has 2 rows; age ranges from 27 to 31.\n");
    expect(run.stderr).toContain("→ skill_load csv-summary");
    expect(run.stderr).toMatch(/✓ skill_load [\d.]+ (B|KB)/);
    expect(run.stderr).toContain("→ skill_run csv-summary");

    const bodies = server.requests.map((r) => r.body);
    expect(bodies).toHaveLength(4);
    expect(bodies.every((b) => b.stream === true && b.model === "loopback-model")).toBe(true);
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-loopback");
    // step 1: the catalog is in the system prompt, the body is nowhere yet
    expect(openaiSystem(bodies[0])).toContain("- csv-summary: Summarises a CSV file");
    expect(openaiSystem(bodies[0])).toContain("- json-query:");
    expect(JSON.stringify(bodies[0])).not.toContain(BODY_MARK);
    const offered = bodies[0].tools.map((t: any) => t.function.name);
    expect(offered).toEqual(expect.arrayContaining(["skill_load", "skill_read", "skill_run"]));
    // step 2: the body arrived as the load's tool result (history placement); the system prompt is unchanged
    expect(openaiToolText(bodies[1])).toContain(BODY_MARK);
    expect(openaiSystem(bodies[1])).toBe(openaiSystem(bodies[0]));
    // step 3: the reference file; step 4: the script's output
    expect(openaiToolText(bodies[2])).toContain(REF_MARK);
    expect(openaiToolText(bodies[3])).toMatch(/rows: 2/);
    expect(openaiToolText(bodies[3])).toMatch(/age\s+number\s+count=2\s+missing=0\s+min=27 max=31/);
  });

  it("--json prints every engine event as a JSON line", async () => {
    server = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "skill_load", input: { name: "markdown-toc" } }] },
      { text: "Loaded." },
    ]);
    const run = await runCli(["ask", "--root", examples, "--json", "make a toc"], {
      cwd,
      env: openaiEnv(server),
    });
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("step-start");
    expect(types).toEqual(
      expect.arrayContaining(["tool-call", "skill-load", "tool-result", "text-delta", "step-end"]),
    );
    expect(events.find((e) => e.type === "skill-load")).toMatchObject({ name: "markdown-toc", by: "model" });
    expect(events.filter((e) => e.type === "step-end").at(-1)).toMatchObject({
      usage: { inputTokens: 100, outputTokens: 20, totalTokens: 120 },
    });
    // The last line names the saved session, as stderr does.
    const last = events.at(-1);
    expect(last).toEqual({ type: "session", sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(run.stderr).toBe(
      `skillrt ask: session ${last.sessionId} (continue it with --session ${last.sessionId})\n`,
    );
  });

  it("retries a 429 after its Retry-After delay, then answers", async () => {
    server = await startLoopbackProvider("openai", [
      { status: 429, headers: { "retry-after": "1" } },
      { text: "after the wait" },
    ]);
    const run = await runCli(["ask", "--root", examples, "hi"], { cwd, env: openaiEnv(server) });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("after the wait\n");
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(950);
    expect(run.stderr).toContain("HTTP 429; retrying in 1.0 s");
  });

  it("a provider failing with 500 every time: one-paragraph error, exit 1, session saved and resumable", async () => {
    server = await startLoopbackProvider("openai", Array(4).fill({ status: 500 }));
    const env = { ...openaiEnv(server), SKILLRT_MAX_ATTEMPTS: "3" };
    const failed = await runCli(["ask", "--root", examples, "--session", "broken", "what is in my csv?"], {
      cwd,
      env,
    });
    expect(failed.code).toBe(1);
    expect(server.requests).toHaveLength(3);
    const [paragraph, saved] = failed.stderr.trim().split("\n").slice(-2);
    expect(paragraph).toMatch(
      /^skillrt ask: The model provider failed: openai-compatible model 'loopback-model' at http:\/\/127\.0\.0\.1:\d+\/v1 answered with HTTP 500/,
    );
    expect(paragraph).toContain("try again later");
    expect(failed.stderr).not.toContain("sk-loopback");
    expect(saved).toBe("Session saved as broken; resume with --session broken.");

    server.script.push({ text: "Now I can answer." });
    const resumed = await runCli(["ask", "--root", examples, "--session", "broken", "try again"], {
      cwd,
      env,
    });
    expect(resumed.code).toBe(0);
    const last = server.requests.at(-1)!.body;
    const users = last.messages.filter((m: any) => m.role === "user").map((m: any) => m.content);
    expect(users).toEqual(["what is in my csv?", "try again"]);
  });

  it("with nothing configured and no local Ollama, explains how to configure a model", async () => {
    const closed = await startLoopbackProvider("openai", []);
    await closed.close();
    const run = await runCli(["ask", "--root", examples, "--base-url", closed.baseURL, "hi"], {
      cwd,
      env: { SKILLRT_MAX_ATTEMPTS: "1", OPENAI_API_KEY: "k" },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("network error ECONNREFUSED");
    expect(run.stderr).toContain("Check that the server is running");
    const unconfigured = await runCli(["ask", "--root", examples, "hi"], {
      cwd,
      env: { SKILLRT_MAX_ATTEMPTS: "1" },
    });
    if (unconfigured.code === 0) return; // an Ollama is actually running here
    expect(unconfigured.stderr).toContain("No model is configured");
    expect(unconfigured.stderr).toContain("OPENAI_BASE_URL");
    expect(unconfigured.stderr).toContain("ANTHROPIC_API_KEY");
  });
});

describe("skillrt ask (Anthropic messages wire format)", () => {
  it("load → run → answer with tool_use blocks; system carries the catalog, the body arrives after load", async () => {
    server = await startLoopbackProvider("anthropic", [
      { text: "Loading the skill.", toolCalls: [{ name: "skill_load", input: { name: "csv-summary" } }] },
      { toolCalls: [runStep] },
      { text: "Two rows." },
    ]);
    const run = await runCli(["ask", "--root", examples, "summarise my csv"], {
      cwd,
      env: anthropicEnv(server),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Loading the skill.Two rows.\n");
    const bodies = server.requests.map((r) => r.body);
    expect(server.requests[0]!.path).toBe("/v1/messages");
    expect(server.requests[0]!.headers["x-api-key"]).toBe("sk-ant-loopback");
    const system = (b: any): string =>
      Array.isArray(b.system) ? b.system.map((p: any) => p.text).join("\n") : String(b.system);
    expect(system(bodies[0])).toContain("- csv-summary: Summarises a CSV file");
    expect(JSON.stringify(bodies[0].messages)).not.toContain(BODY_MARK);
    expect(bodies[0].tools.map((t: any) => t.name)).toEqual(
      expect.arrayContaining(["skill_load", "skill_run"]),
    );
    const results = (b: any): string =>
      JSON.stringify(
        b.messages
          .flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
          .filter((p: any) => p.type === "tool_result"),
      );
    expect(results(bodies[1])).toContain(BODY_MARK);
    expect(results(bodies[2])).toMatch(/rows: 2/);
    const toolUse = bodies[1].messages
      .flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
      .find((p: any) => p.type === "tool_use");
    expect(toolUse).toMatchObject({ name: "skill_load", input: { name: "csv-summary" } });
  });
});

describe("the step limit", () => {
  it("ends ask with exit 1 and one line saying so; the session is saved and resumable", async () => {
    const listDocs = { toolCalls: [{ name: "skill_list_docs", input: { name: "csv-summary" } }] };
    server = await startLoopbackProvider("openai", [listDocs, listDocs, { text: "resumed fine" }]);
    const env = openaiEnv(server);
    const args = ["ask", "--root", examples, "--max-steps", "2", "--session", "limited"];
    const run = await runCli([...args, "keep going"], { cwd, env });
    expect(run.code).toBe(1);
    const lines = run.stderr.split("\n").filter((l) => l.startsWith("skillrt ask:"));
    expect(lines).toEqual([
      "skillrt ask: stopped after 2 model calls (the step limit; raise it with --max-steps) before the answer was finished; session saved as limited.",
    ]);
    expect(server.requests).toHaveLength(2);
    const again = await runCli([...args, "go on"], { cwd, env });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("resumed fine\n");
    const users = server.requests
      .at(-1)!
      .body.messages.filter((m: any) => m.role === "user")
      .map((m: any) => m.content);
    expect(users).toEqual(["keep going", "go on"]);
  });
});

describe("sessions across processes", () => {
  it("a resumed session has its history and its loaded skills (system placement: body in the system prompt)", async () => {
    server = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "skill_load", input: { name: "json-query" } }] },
      { text: "json-query is ready." },
      { text: "Still here." },
    ]);
    const env = openaiEnv(server);
    const args = ["ask", "--root", examples, "--placement", "system", "--session", "keep"];
    const first = await runCli([...args, "load the json skill"], { cwd, env });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain("skillrt ask: session keep (continue it with --session keep)\n");
    const second = await runCli([...args, "are you still there?"], { cwd, env });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe("Still here.\n");
    const body = server.requests.at(-1)!.body;
    expect(openaiSystem(body)).toContain("query.mjs"); // json-query's body, restored from the store
    const users = body.messages.filter((m: any) => m.role === "user").map((m: any) => m.content);
    expect(users).toEqual(["load the json skill", "are you still there?"]);
    expect(JSON.stringify(body.messages)).toContain("json-query is ready.");
  });

  it("history placement: the resumed process re-sends the load result and keeps the skill loaded", async () => {
    server = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "skill_load", input: { name: "csv-summary" } }] },
      { text: "ok" },
      { text: "again ok" },
    ]);
    const env = openaiEnv(server);
    const args = ["ask", "--root", examples, "--session", "hist"];
    expect((await runCli([...args, "one"], { cwd, env })).code).toBe(0);
    expect((await runCli([...args, "two"], { cwd, env })).code).toBe(0);
    const body = server.requests.at(-1)!.body;
    expect(openaiToolText(body)).toContain(BODY_MARK);
  });
});
