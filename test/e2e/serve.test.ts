/**
 * `skillrt serve` end to end: two built serve processes on one real throwaway Postgres, a loopback
 * provider as the model, and a client built on the `ai` package's own `DefaultChatTransport` and
 * `readUIMessageStream` (what `useChat` runs). Turn 1 goes to replica A, turn 2 to replica B; approvals
 * pause a turn and are answered by the next request (to the other replica); no token is 401; a replica
 * killed mid-turn loses no saved turn.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from "ai";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testPostgres } from "../../src/store/__fixtures__/test-postgres.js";
import { createPostgresStore } from "../../src/store/create-postgres-store.js";
import { trackerStdio } from "../../src/tools/mcp-client/__fixtures__/tracker.js";
import { type LoopbackProvider, loopbackEnv, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, writeTrustedConfig } from "./support/run-cli.js";
import { type ServeProcess, startServe } from "./support/start-serve.js";

const examples = path.resolve(import.meta.dirname, "../../examples/skills");
const TOKEN = "serve-test-token-0123456789abcdefghijklmnop";
const CSV = "name,age\nann,31\nbob,27\n";

let pgUrl: string | undefined;
let cwd: string;
let provider: LoopbackProvider | undefined;
const replicas: ServeProcess[] = [];
let schemaCount = 0;

beforeAll(async () => {
  assertBuilt();
  const pg = await testPostgres();
  if ("url" in pg) pgUrl = pg.url;
  else console.log(`skipping serve tests on Postgres: ${pg.skip}`);
}, 180_000);
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-serve-"));
  await writeFile(path.join(cwd, "token"), `${TOKEN}\n`, { mode: 0o600 });
});
afterEach(async () => {
  for (const replica of replicas.splice(0)) {
    if (replica.child.exitCode === null && replica.child.signalCode === null) replica.child.kill("SIGKILL");
  }
  await provider?.close();
  provider = undefined;
  await rm(cwd, { recursive: true, force: true });
});

/** A fresh schema for this test, in the project's config (every replica reads it). */
async function projectOnPostgres(extra: Record<string, unknown> = {}): Promise<string> {
  schemaCount += 1;
  const schema = `serve_${process.pid}_${schemaCount}`;
  await writeTrustedConfig(cwd, { store: { schema }, ...extra });
  return schema;
}

async function replica(args: string[] = []): Promise<ServeProcess> {
  const started = await startServe(
    ["--store", pgUrl ?? "", "--token-file", "token", "--root", examples, "--executor", "local", ...args],
    { cwd, env: loopbackEnv(provider!) },
  );
  replicas.push(started);
  return started;
}

/** The chat client: the `ai` package's own transport against one replica, and its stream reader. */
async function turn(url: string, chatId: string, message: UIMessage): Promise<UIMessage> {
  // Answers to approvals continue the assistant message they answer, as useChat does.
  const transport = new DefaultChatTransport({
    api: `${url}/api/chat`,
    headers: { Authorization: `Bearer ${TOKEN}` },
  });
  const stream = await transport.sendMessages({
    chatId,
    messages: [message],
    trigger: "submit-message",
    messageId: undefined,
    abortSignal: undefined,
  });
  let last: UIMessage | undefined;
  const continued = message.role === "assistant" ? { message } : {};
  for await (const m of readUIMessageStream({ stream, ...continued })) last = m;
  if (last === undefined) throw new Error("no message streamed");
  return last;
}

const user = (text: string): UIMessage => ({
  id: `u-${Math.random()}`,
  role: "user",
  parts: [{ type: "text", text }],
});

/** The assistant message with its waiting calls answered, as `addToolApprovalResponse` leaves it. */
function answered(message: UIMessage, approved: boolean, reason?: string): UIMessage {
  return {
    ...message,
    parts: message.parts.map((part) =>
      part.type === "dynamic-tool" && part.state === "approval-requested"
        ? {
            ...part,
            state: "approval-responded",
            approval: { id: part.approval.id, approved, ...(reason === undefined ? {} : { reason }) },
          }
        : part,
    ),
  };
}

const textOf = (message: UIMessage): string =>
  message.parts
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("");

/** The chat-completions messages of a provider request, as one string. */
const promptOf = (request: { body: any }): string => JSON.stringify(request.body.messages);

describe("skillrt serve: two replicas on one Postgres", { timeout: 120_000 }, () => {
  it("turn 1 to replica A, turn 2 to replica B: B has the history; the stream carried the skill load, the run, its output and the text", async (context) => {
    if (pgUrl === undefined) return context.skip();
    await projectOnPostgres();
    provider = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "skill_load", input: { name: "csv-summary" } }] },
      {
        toolCalls: [
          {
            name: "skill_run",
            input: { name: "csv-summary", command: "node scripts/summarize.mjs -", stdin: CSV },
          },
        ],
      },
      { text: "2 rows; age from 27 to 31." },
      { text: "You asked me to summarise a CSV of 2 rows." },
    ]);
    const [a, b] = [await replica(), await replica()];
    expect(a.url).not.toBe(b.url);

    const first = await turn(a.url, "chat-1", user("summarise my csv"));
    expect(first.metadata).toMatchObject({ conversationId: "chat-1" });
    expect(first.parts.find((p) => p.type === "data-skill")).toMatchObject({
      data: { type: "skill-load", name: "csv-summary", by: "model" },
    });
    const tools = first.parts.filter((p) => p.type === "dynamic-tool");
    expect(tools.map((t) => [t.toolName, t.state])).toEqual([
      ["skill_load", "output-available"],
      ["skill_run", "output-available"],
    ]);
    expect(JSON.stringify(tools[1])).toContain("min=27 max=31 mean=29");
    expect(textOf(first)).toBe("2 rows; age from 27 to 31.");
    expect(first.parts.find((p) => p.type === "data-usage")).toMatchObject({ data: { totalTokens: 360 } });

    const second = await turn(b.url, "chat-1", user("what did I ask before?"));
    expect(textOf(second)).toBe("You asked me to summarise a CSV of 2 rows.");
    // Replica B sent the model turn 1 from the store: the question, the run's output and the answer.
    const prompt = promptOf(provider.requests[3]!);
    expect(prompt).toContain("summarise my csv");
    expect(prompt).toContain("min=27 max=31 mean=29");
    expect(prompt).toContain("2 rows; age from 27 to 31.");
    expect(prompt).toContain("what did I ask before?");

    // Either replica gives the saved conversation back as UI messages (a client resuming it by id).
    const resumed = await fetch(`${a.url}/api/chat/chat-1`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    const { messages } = (await resumed.json()) as { messages: UIMessage[] };
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(textOf(messages[3]!)).toBe("You asked me to summarise a CSV of 2 rows.");
  });

  // Turn 2's files come from the conversation's workspace saved with turn 1 in the shared store.
  it("turn 2 on replica B reads the file turn 1 wrote on replica A", async (context) => {
    if (pgUrl === undefined) return context.skip();
    await projectOnPostgres();
    provider = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "skill_load", input: { name: "csv-summary" } }] },
      {
        toolCalls: [
          {
            name: "skill_run",
            input: { name: "csv-summary", command: 'echo kept-by-turn-1 > "$OUTPUT_DIR/keep.txt"' },
          },
        ],
      },
      { text: "Written." },
      {
        toolCalls: [
          { name: "skill_run", input: { name: "csv-summary", command: 'cat "$OUTPUT_DIR/keep.txt"' } },
        ],
      },
      { text: "Read it." },
    ]);
    const [a, b] = [await replica(), await replica()];
    await turn(a.url, "files-1", user("write a file"));
    const second = await turn(b.url, "files-1", user("read it back"));
    const run = second.parts.find((p) => p.type === "dynamic-tool" && p.toolName === "skill_run");
    expect(JSON.stringify(run)).toContain("kept-by-turn-1");
  });

  it("an approval-gated call pauses the turn, runs only after the client approves (on the other replica), and never after it denies", async (context) => {
    if (pgUrl === undefined) return context.skip();
    const log = path.join(cwd, "calls.jsonl");
    await projectOnPostgres({
      mcpServers: { tracker: trackerStdio({ TRACKER_LOG: log }) },
      tools: { gating: "open" },
    });
    provider = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "mcp__tracker__create_issue", input: { title: "Save crashes" } }] },
      { text: "Filed it." },
      { toolCalls: [{ name: "mcp__tracker__delete_repo", input: { repo: "web" } }] },
      { text: "I did not delete it." },
    ]);
    const [a, b] = [await replica(), await replica()];
    const calls = async () => (await readFile(log, "utf8").catch(() => "")).split("\n").filter(Boolean);

    const paused = await turn(a.url, "chat-2", user("file the crash"));
    const waiting = paused.parts.find((p) => p.type === "dynamic-tool");
    expect(waiting).toMatchObject({
      toolName: "mcp__tracker__create_issue",
      state: "approval-requested",
      input: { title: "Save crashes" },
    });
    expect(provider.requests).toHaveLength(1);
    expect(await calls()).toEqual([]);

    const approved = await turn(b.url, "chat-2", answered(paused, true));
    expect(await calls()).toHaveLength(1);
    expect(JSON.parse((await calls())[0]!)).toMatchObject({
      tool: "create_issue",
      input: { title: "Save crashes" },
    });
    expect(approved.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({
      state: "output-available",
    });
    expect(textOf(approved)).toBe("Filed it.");

    const second = await turn(a.url, "chat-2", user("now delete the web repo"));
    expect(second.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({
      toolName: "mcp__tracker__delete_repo",
      state: "approval-requested",
    });
    const denied = await turn(b.url, "chat-2", answered(second, false, "keep it"));
    expect(textOf(denied)).toBe("I did not delete it.");
    expect(denied.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ state: "output-error" });
    expect(await calls()).toHaveLength(1);
    expect(promptOf(provider.requests[3]!)).toContain("keep it");

    // A replayed approval runs nothing again: nothing waits any more.
    const replay = await fetch(`${a.url}/api/chat`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ id: "chat-2", messages: [answered(paused, true)] }),
    });
    expect(await replay.text()).toContain("No tool call of this conversation waits for approval");
    expect(await calls()).toHaveLength(1);
  });

  it("a replica killed mid-turn loses no saved turn: the next turn on the other replica has turn 1", async (context) => {
    if (pgUrl === undefined) return context.skip();
    const schema = await projectOnPostgres();
    provider = await startLoopbackProvider("openai", [
      { text: "First answer." },
      // Turn 2 streams, then stalls: replica A is killed while it waits.
      { text: "Half an ans", stall: true },
      { text: "Third answer." },
    ]);
    const [a, b] = [await replica(["--lock-wait", "20"]), await replica(["--lock-wait", "20"])];
    expect(textOf(await turn(a.url, "chat-3", user("first question")))).toBe("First answer.");

    const response = await fetch(`${a.url}/api/chat`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ id: "chat-3", messages: [user("second question")] }),
    });
    const reader = response.body!.getReader();
    let seen = "";
    while (!seen.includes("Half an ans")) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    expect(seen).toContain("Half an ans");
    a.child.kill("SIGKILL");
    await new Promise((resolve) => a.child.once("exit", resolve));
    await reader.cancel().catch(() => undefined);

    const third = await turn(b.url, "chat-3", user("third question"));
    expect(textOf(third)).toBe("Third answer.");
    const prompt = promptOf(provider.requests[2]!);
    expect(prompt).toContain("first question");
    expect(prompt).toContain("First answer.");
    // The cut-off turn was never saved: nothing of it, not half of it.
    expect(prompt).not.toContain("Half an ans");
    const store = createPostgresStore({ url: pgUrl, schema });
    try {
      const saved = (await store.get("chat-3", "conversation"))?.data as {
        messages: Array<{ role: string }>;
      };
      expect(saved.messages.filter((m) => m.role === "user")).toHaveLength(2);
    } finally {
      await store.close();
    }
  });
});

describe("skillrt serve: its guard", { timeout: 60_000 }, () => {
  it("without the token: 401 with a Bearer challenge; wrong token 401; /health and the page need none", async () => {
    provider = await startLoopbackProvider("openai", [{ text: "never" }]);
    const served = await startServe(
      ["--store", "sqlite:sessions.db", "--token-file", "token", "--root", examples],
      {
        cwd,
        env: loopbackEnv(provider),
      },
    );
    replicas.push(served);
    const body = JSON.stringify({ id: "c", messages: [user("hi")] });
    const none = await fetch(`${served.url}/api/chat`, { method: "POST", body });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="skillrt"');
    expect(await none.text()).toContain("Authorization: Bearer <token>");
    const wrong = await fetch(`${served.url}/api/chat`, {
      method: "POST",
      body,
      headers: { Authorization: `Bearer ${"x".repeat(43)}` },
    });
    expect(wrong.status).toBe(401);
    expect((await fetch(`${served.url}/api/chat/c`)).status).toBe(401);
    expect(provider.requests).toHaveLength(0);
    const health = await fetch(`${served.url}/health`);
    expect(await health.json()).toEqual({ ok: true, turns: 0 });
    const page = await fetch(`${served.url}/`);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await page.text()).toContain("skillrt chat");
    // A page elsewhere that resolves to loopback (DNS rebinding) is refused.
    const rebound = await new Promise<number>((resolve, reject) => {
      const request = http.get(`${served.url}/health`, { headers: { Host: "evil.example" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      request.on("error", reject);
    });
    expect(rebound).toBe(403);
    // Too big a body is refused before it is read.
    const big = await fetch(`${served.url}/api/chat`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}` },
      body: "x".repeat(2 * 1024 * 1024),
    });
    expect(big.status).toBe(413);
    expect(await served.stop()).toBe(0);
    expect(served.stderr()).not.toContain(TOKEN);
  });

  it("turns per minute per token: past the limit 429 with Retry-After", async () => {
    provider = await startLoopbackProvider("openai", [{ text: "one" }, { text: "two" }]);
    const served = await startServe(
      [
        "--store",
        "sqlite:sessions.db",
        "--token-file",
        "token",
        "--root",
        examples,
        "--turns-per-minute",
        "1",
      ],
      { cwd, env: loopbackEnv(provider) },
    );
    replicas.push(served);
    expect(textOf(await turn(served.url, "rate", user("first")))).toBe("one");
    const second = await fetch(`${served.url}/api/chat`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ id: "rate", messages: [user("second")] }),
    });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(provider.requests).toHaveLength(1);
  });

  it("SIGTERM lets a running turn finish and be saved, refuses new turns meanwhile, then exits 0", async () => {
    provider = await startLoopbackProvider("openai", [
      { text: "Finished despite the SIGTERM.", delayMs: 1500 },
    ]);
    const served = await startServe(
      ["--store", "sqlite:sessions.db", "--token-file", "token", "--root", examples],
      {
        cwd,
        env: loopbackEnv(provider),
      },
    );
    replicas.push(served);
    const running = turn(served.url, "graceful", user("take your time"));
    while (provider.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const exited = served.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    // A new turn meanwhile is not taken: the listener is closed (or, on a kept-alive connection, 503).
    const refused = await fetch(`${served.url}/api/chat`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ id: "other", messages: [user("late")] }),
    }).then(
      (response) => response.status,
      () => "connection refused",
    );
    expect([503, "connection refused"]).toContain(refused);
    expect(textOf(await running)).toBe("Finished despite the SIGTERM.");
    expect(await exited).toBe(0);
    expect(served.stderr()).toContain("stopping: 1 turn(s) running");
    // Saved: a new server on the same store gives the turn back.
    const again = await startServe(
      ["--store", "sqlite:sessions.db", "--token-file", "token", "--root", examples],
      {
        cwd,
        env: loopbackEnv(provider),
      },
    );
    replicas.push(again);
    const saved = await fetch(`${again.url}/api/chat/graceful`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    const { messages } = (await saved.json()) as { messages: UIMessage[] };
    expect(textOf(messages.at(-1)!)).toBe("Finished despite the SIGTERM.");
  });

  it("a client that goes away mid-turn cancels it: the question is kept, no half answer, the next turn works", async () => {
    provider = await startLoopbackProvider("openai", [
      { text: "Half an ans", stall: true },
      { text: "Whole answer." },
    ]);
    const served = await startServe(
      ["--store", "sqlite:sessions.db", "--token-file", "token", "--root", examples],
      {
        cwd,
        env: loopbackEnv(provider),
      },
    );
    replicas.push(served);
    const abort = new AbortController();
    const response = await fetch(`${served.url}/api/chat`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ id: "gone", messages: [user("first question")] }),
      signal: abort.signal,
    });
    const reader = response.body!.getReader();
    let seen = "";
    while (!seen.includes("Half an ans")) seen += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    // The turn is cancelled and saved as it stands; then the conversation takes its next turn.
    for (let i = 0; i < 100; i++) {
      const health = (await (await fetch(`${served.url}/health`)).json()) as { turns: number };
      if (health.turns === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(textOf(await turn(served.url, "gone", user("second question")))).toBe("Whole answer.");
    const prompt = promptOf(provider.requests[1]!);
    expect(prompt).toContain("first question");
    expect(prompt).not.toContain("Half an ans");
  });

  it("by default a random token is kept in the state directory (mode 600) while it runs, and removed at exit", async () => {
    provider = await startLoopbackProvider("openai", [{ text: "Hi." }]);
    const stateDir = path.join(cwd, "state");
    const served = await startServe(["--store", "sqlite:sessions.db", "--root", examples], {
      cwd,
      env: { ...loopbackEnv(provider), SKILLRT_STATE_DIR: stateDir },
    });
    replicas.push(served);
    const file = path.join(stateDir, `serve-http-${new URL(served.url).port}.token`);
    expect(served.stderr()).toContain(`bearer token in ${file} (mode 600, removed at exit)`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const token = (await readFile(file, "utf8")).trim();
    expect(served.stderr()).not.toContain(token);
    const answer = await fetch(`${served.url}/api/chat`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ id: "default-token", messages: [user("hello")] }),
    });
    expect(await answer.text()).toContain('"delta":"Hi."');
    expect(await served.stop()).toBe(0);
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });
});
