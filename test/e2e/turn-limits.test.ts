/**
 * A turn always ends, end to end: the built `ask` against a loopback provider that streams forever and
 * ignores `max_tokens` is stopped at the configured output cap and, separately, at the turn's deadline;
 * exit 1 with one line naming the limit, the partial answer saved, and a resumed session sends it back.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CONVERSATION_NAMESPACE } from "../../src/engine/create-skill-agent.js";
import { createSqliteStore } from "../../src/store/create-sqlite-store.js";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, runCli } from "./support/run-cli.js";
import { startTerminalChat } from "./support/terminal-chat.js";

const examples = path.resolve(import.meta.dirname, "../../examples/skills");
let cwd: string;
let server: LoopbackProvider | undefined;

beforeAll(() => assertBuilt());
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-turn-limits-"));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(cwd, { recursive: true, force: true });
});

const env = (s: LoopbackProvider): Record<string, string> => ({
  OPENAI_BASE_URL: s.baseURL,
  OPENAI_API_KEY: "sk-loopback",
  AGENT_MODEL: "runaway-model",
});

/** The saved messages of session `id`, as JSON. */
async function savedMessages(id: string): Promise<unknown[]> {
  const store = createSqliteStore({ path: path.join(cwd, ".skillrt", "sessions.db") });
  try {
    const conversation = await store.get(id, CONVERSATION_NAMESPACE);
    return (conversation?.data as { messages?: unknown[] } | undefined)?.messages ?? [];
  } finally {
    await store.close();
  }
}

/** Resumes session `id` with one more turn and returns what the provider was sent for it. */
async function resume(id: string, s: LoopbackProvider): Promise<string> {
  s.script.push({ text: "Carrying on." });
  const before = s.requests.length;
  const run = await runCli(["ask", "--root", examples, "--session", id, "go on"], { cwd, env: env(s) });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("Carrying on.");
  return JSON.stringify(s.requests[before]?.body);
}

describe("skillrt ask against a model that streams forever", () => {
  it("is stopped at model.maxOutputTokens (also sent as max_tokens): exit 1, the reason on stderr, the partial answer saved and resumed", async () => {
    server = await startLoopbackProvider("openai", [{ text: "Here goes", endless: true }]);
    await writeFile(
      path.join(cwd, "skillrt.config.json"),
      JSON.stringify({ model: { maxOutputTokens: 100 } }),
    );
    const start = Date.now();
    const run = await runCli(["ask", "--root", examples, "--session", "cap1", "write an essay"], {
      cwd,
      env: env(server),
    });
    const elapsed = Date.now() - start;
    expect(run.code).toBe(1);
    expect(server.requests[0]?.body.max_tokens).toBe(100);
    // The answer shown stops at the cap: 8 characters a token of 100.
    expect(run.stdout).toContain("Here goes and more and more");
    expect(run.stdout.trim().length).toBeLessThanOrEqual(800);
    expect(run.stdout.trim().length).toBeGreaterThan(700);
    const lines = run.stderr.split("\n").filter((l) => l.startsWith("skillrt ask:"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("output cap of 100 tokens");
    expect(lines[0]).toContain("model.maxOutputTokens");
    expect(lines[0]).toContain("the partial answer is saved in session cap1; resume with --session cap1");
    const messages = JSON.stringify(await savedMessages("cap1"));
    expect(messages).toContain("write an essay");
    expect(messages).toContain("Here goes and more and more");
    const resumed = await resume("cap1", server);
    expect(resumed).toContain("Here goes and more and more");
    console.log(
      `output cap: ask exited ${run.code} after ${elapsed} ms, ${run.stdout.trim().length} characters shown`,
    );
  }, 60_000);

  it("is stopped at --turn-timeout: exit 1 at the deadline, the reason on stderr, the partial answer saved and resumed", async () => {
    server = await startLoopbackProvider("openai", [{ text: "Once upon a time", endless: true }]);
    const run = await runCli(
      ["ask", "--root", examples, "--session", "late1", "--turn-timeout", "2", "tell me a story"],
      { cwd, env: env(server) },
    );
    const elapsed = Date.now() - server.requests[0]!.at;
    expect(run.code).toBe(1);
    // The deadline starts before the request (the turn's own work comes first): at most 2 s after it.
    expect(elapsed).toBeLessThan(2_000 + 1_500);
    expect(run.stdout).toContain("Once upon a time and more");
    const lines = run.stderr.split("\n").filter((l) => l.startsWith("skillrt ask:"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("ran past its deadline of 2 s");
    expect(lines[0]).toContain("--turn-timeout");
    expect(lines[0]).toContain("the partial answer is saved in session late1");
    const messages = JSON.stringify(await savedMessages("late1"));
    expect(messages).toContain("Once upon a time and more");
    const resumed = await resume("late1", server);
    expect(resumed).toContain("Once upon a time and more");
    console.log(`turn deadline: ask exited ${run.code} ${elapsed} ms after its request (deadline 2000 ms)`);
  }, 60_000);

  it("model.turnTimeoutSeconds in the project's config applies without --turn-timeout", async () => {
    server = await startLoopbackProvider("openai", [{ text: "Slowly", endless: true }]);
    await writeFile(
      path.join(cwd, "skillrt.config.json"),
      JSON.stringify({ model: { turnTimeoutSeconds: 1.5 } }),
    );
    const run = await runCli(["ask", "--root", examples, "--session", "late2", "go"], {
      cwd,
      env: env(server),
    });
    const elapsed = Date.now() - server.requests[0]!.at;
    expect(run.code).toBe(1);
    expect(elapsed).toBeLessThan(1_500 + 1_500);
    expect(run.stderr).toContain("ran past its deadline of 1.5 s");
  }, 60_000);

  it("refuses a --turn-timeout that is not a positive whole number of seconds (usage error)", async () => {
    const run = await runCli(["ask", "--turn-timeout", "0", "hi"], { cwd, env: {} });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--turn-timeout expects a positive integer, got '0'");
  }, 60_000);
});

describe("skillrt chat against a model that streams forever", () => {
  it("--turn-timeout ends the runaway turn, says why, and the next turn sends the partial answer back", async () => {
    server = await startLoopbackProvider("openai", [
      { text: "Rambling", endless: true },
      { text: "Short one." },
    ]);
    const { stdin, output, waitFor, done } = startTerminalChat(["--root", examples, "--turn-timeout", "1"], {
      cwd,
      env: { ...env(server), HOME: cwd, NO_COLOR: "1" },
    });
    await waitFor(() => output().includes("/help for commands"));
    stdin.write("ramble\r");
    await waitFor(() => output().includes("ran past its deadline"));
    expect(output()).toContain("Rambling and more");
    expect(output()).toContain("the turn ran past its deadline of 1 s and was stopped");
    stdin.write("be brief\r");
    await waitFor(() => output().includes("Short one."));
    stdin.write("/exit\r");
    await done;
    expect(JSON.stringify(server.requests[1]?.body.messages)).toContain("Rambling and more");
  }, 30_000);
});
