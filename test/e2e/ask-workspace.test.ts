/**
 * A conversation's workspace outlives its process, end to end: `skillrt ask --session S` in turn 1 writes
 * `$OUTPUT_DIR/keep.txt` with `skill_run`; turn 2, a new process (SQLite), or a new process in another
 * working directory (Postgres), reads it back. A file over the configured cap is not kept and said so,
 * and deleting the conversation deletes its files. The built CLI as child processes against a loopback
 * provider.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testPostgres } from "../../src/store/__fixtures__/test-postgres.js";
import { createPostgresStore } from "../../src/store/create-postgres-store.js";
import { createSqliteStore } from "../../src/store/create-sqlite-store.js";
import type { SessionStore } from "../../src/store/session-store.js";
import { type LoopbackProvider, loopbackEnv, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

const examples = path.resolve(import.meta.dirname, "../../examples/skills");

let dirs: string[] = [];
let server: LoopbackProvider | undefined;
let pgUrl: string | undefined;

beforeAll(async () => {
  assertBuilt();
  const pg = await testPostgres();
  if ("url" in pg) pgUrl = pg.url;
  else console.log(`skipping the Postgres workspace test: ${pg.skip}`);
}, 180_000);
beforeEach(() => {
  dirs = [];
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-ask-ws-"));
  dirs.push(dir);
  return dir;
}

const load = { toolCalls: [{ name: "skill_load", input: { name: "csv-summary" } }] };
const run = (command: string) => ({
  toolCalls: [{ name: "skill_run", input: { name: "csv-summary", command } }],
});
const write = run('echo "written in turn 1" > "$OUTPUT_DIR/keep.txt"');
const read = run('cat "$OUTPUT_DIR/keep.txt"');

/** The tool results of the model request `i`, as text. */
function toolText(s: LoopbackProvider, i: number): string {
  return JSON.stringify(s.requests[i]?.body.messages.filter((m: { role: string }) => m.role === "tool"));
}

/** Digests of the files the saved conversation keeps. */
async function keptDigests(store: SessionStore, id: string): Promise<Record<string, string>> {
  const saved = (await store.get(id, "conversation"))?.data as {
    workspace?: { files: Array<{ path: string; digest: string }> };
  };
  return Object.fromEntries((saved.workspace?.files ?? []).map((f) => [f.path, f.digest]));
}

describe("skillrt ask --session: the workspace is part of the conversation", () => {
  it("turn 2 in a new process reads the file turn 1 wrote (SQLite)", async () => {
    const cwd = await tempDir();
    server = await startLoopbackProvider("openai", [
      load,
      write,
      { text: "Kept it." },
      load,
      read,
      { text: "Read it." },
    ]);
    const args = (q: string) => ["ask", "--root", examples, "--session", "s1", q];
    const first = await runCli(args("write a file"), { cwd, env: loopbackEnv(server) });
    expect(first.stderr).not.toContain("not kept");
    expect(first.code).toBe(0);
    const second = await runCli(args("read it back"), { cwd, env: loopbackEnv(server) });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe("Read it.\n");
    // The second process's run found the file the first one wrote.
    expect(toolText(server, 5)).toContain("written in turn 1");
    const store = createSqliteStore({ path: path.join(cwd, ".skillrt", "sessions.db") });
    try {
      expect(Object.keys(await keptDigests(store, "s1"))).toEqual(["out/keep.txt"]);
    } finally {
      await store.close();
    }
  }, 120_000);

  it("turn 2 in another working directory reads it back (Postgres); deleting the conversation deletes its files", async (context) => {
    if (pgUrl === undefined) return context.skip();
    const schema = `ask_ws_${process.pid}`;
    const [here, there] = [await tempDir(), await tempDir()];
    for (const cwd of [here, there])
      await writeFile(path.join(cwd, "skillrt.config.json"), JSON.stringify({ store: { schema } }));
    server = await startLoopbackProvider("openai", [
      load,
      write,
      { text: "Kept it." },
      load,
      read,
      { text: "Read it." },
    ]);
    const env = { ...loopbackEnv(server), SKILLRT_STORE_URL: pgUrl };
    const args = (q: string) => ["ask", "--root", examples, "--session", "pg1", q];
    const first = await runCli(args("write a file"), { cwd: here, env });
    expect(first.code).toBe(0);
    const second = await runCli(args("read it back"), { cwd: there, env });
    expect(second.code).toBe(0);
    expect(toolText(server, 5)).toContain("written in turn 1");

    const store = createPostgresStore({ url: pgUrl, schema });
    try {
      const { "out/keep.txt": digest } = await keptDigests(store, "pg1");
      expect(digest).toMatch(/^[0-9a-f]{64}$/);
      expect(new TextDecoder().decode(await store.getBlob?.(digest ?? ""))).toBe("written in turn 1\n");
      expect(await store.delete("pg1", "conversation")).toBe(true);
      expect(await store.missingBlobs?.([digest ?? ""])).toEqual([digest]);
    } finally {
      await store.close();
    }
  }, 120_000);

  it("a file over the configured cap is not kept: the turn succeeds, stderr names file and cap, the model is told", async () => {
    const cwd = await tempDir();
    await writeFile(
      path.join(cwd, "skillrt.config.json"),
      JSON.stringify({ store: { files: { maxFileBytes: 1024 } } }),
    );
    server = await startLoopbackProvider("openai", [
      load,
      run('head -c 3000 /dev/zero > "$OUTPUT_DIR/big.bin"; echo small > "$OUTPUT_DIR/small.txt"'),
      { text: "Made two files." },
      load,
      run('ls "$OUTPUT_DIR"'),
      { text: "Listed." },
    ]);
    const args = (q: string) => ["ask", "--root", examples, "--session", "capped", q];
    const first = await runCli(args("make files"), { cwd, env: loopbackEnv(server) });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe("Made two files.\n");
    expect(first.stderr).toContain(
      "skillrt: workspace files not kept with the conversation: out/big.bin: 2.9 KiB is over the per-file cap of 1 KiB",
    );
    const second = await runCli(args("what is there?"), { cwd, env: loopbackEnv(server) });
    expect(second.code).toBe(0);
    const user = JSON.stringify(
      server.requests[3]?.body.messages.filter((m: { role: string }) => m.role === "user"),
    );
    expect(user).toContain(
      "Workspace files not kept from earlier turns: out/big.bin: 2.9 KiB is over the per-file cap of 1 KiB",
    );
    const listed = toolText(server, 5);
    expect(listed).toContain("small.txt");
    expect(listed).not.toContain("big.bin");
  }, 120_000);
});
