/**
 * A conversation's workspace files outlive its agent: a turn's `skill_run` writes `$OUTPUT_DIR/keep.txt`, the
 * agent closes (its workspace deleted), and a new agent on the same SQLite file (another connection, as a
 * new process has) finds the file back in its fresh workspace — on every executor that runs here. Caps,
 * the model's note and deletion with the conversation.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import type { Catalog } from "../catalog/types.js";
import { probeContainerEngine } from "../exec/container-executor.js";
import { createWorkspace } from "../exec/create-workspace.js";
import { probeSandbox } from "../exec/sandbox-executor.js";
import { createBubblewrapSandboxSession } from "../exec/sandbox-session-bubblewrap.js";
import { fileDigest } from "../exec/workspace-files.js";
import { createSqliteStore } from "../store/create-sqlite-store.js";
import type { SessionStore } from "../store/session-store.js";
import { scriptedModel } from "../test-kit.js";
import { examples } from "./__fixtures__/load-read-run.js";
import { notKeptText } from "./conversation-files.js";
import { CONVERSATION_NAMESPACE, createSkillAgent } from "./create-skill-agent.js";
import type { EngineEvent } from "./engine-event.js";
import type { SkillAgentOptions } from "./skill-agent.js";

let dir: string;
let catalog: Catalog;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-conv-files-"));
  catalog = await createCatalog({ roots: [examples] });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (command: string) => ({
  toolCalls: [{ name: "skill_run", input: JSON.stringify({ name: "csv-summary", command }) }],
});
const load = { toolCalls: [{ name: "skill_load", input: '{"name":"csv-summary"}' }] };

/** The text of the tool results and user messages a recorded model call carried. */
function promptText(call: LanguageModelV4CallOptions | undefined): string {
  return JSON.stringify(call?.prompt.filter((m) => m.role === "tool" || m.role === "user"));
}

const sandbox = probeSandbox();
const executors: Array<
  [string, () => Promise<{ executor: SkillAgentOptions["executor"]; stop?: () => Promise<void> }>]
> = [["local", async () => ({ executor: "local" })]];
if (sandbox.ok) {
  executors.push(["sandbox (bubblewrap)", async () => ({ executor: "sandbox" })]);
  executors.push([
    "an AI SDK SandboxSession",
    async () => {
      const session = await createBubblewrapSandboxSession();
      return { executor: session, stop: () => session.stop() };
    },
  ]);
} else console.log(`no bubblewrap executors: ${sandbox.reason}`);
const engine = probeContainerEngine();
if (engine.ok) executors.push(["container", async () => ({ executor: "container" })]);
else console.log(`no container executor: ${engine.reason}`);

describe.each(executors)("workspace files across agents (%s executor)", (_label, make) => {
  it("turn 2 in a new agent on the same store reads the file turn 1 wrote to $OUTPUT_DIR", async () => {
    const file = path.join(dir, "sessions.db");
    const first = await make();
    const storeA = createSqliteStore({ path: file });
    const a = await createSkillAgent({
      model: scriptedModel([
        load,
        run('echo "kept across processes" > "$OUTPUT_DIR/keep.txt"'),
        { text: "written" },
      ]),
      catalog,
      store: storeA,
      closeStore: true,
      executor: first.executor ?? "local",
      sessionId: "s1",
    });
    expect((await a.send("write it")).text).toBe("written");
    const root = a.workspace?.root;
    await a.close();
    await first.stop?.();
    // The first agent's workspace is gone with it.
    await expect(readFile(path.join(root ?? "", "out", "keep.txt"))).rejects.toThrow(/ENOENT/);

    const second = await make();
    const model = scriptedModel([load, run('cat "$OUTPUT_DIR/keep.txt"'), { text: "read" }]);
    const b = await createSkillAgent({
      model,
      catalog,
      store: createSqliteStore({ path: file }),
      closeStore: true,
      executor: second.executor ?? "local",
      sessionId: "s1",
    });
    try {
      expect(await readFile(path.join(b.workspace?.outDir ?? "", "keep.txt"), "utf8")).toBe(
        "kept across processes\n",
      );
      expect((await b.send("read it back")).text).toBe("read");
      expect(promptText(model.calls[2])).toContain("kept across processes");
    } finally {
      await b.close();
      await second.stop?.();
    }
  }, 60_000);
});

describe("what the user and the model are told", () => {
  it("shows control characters of a script's file names escaped, never as they are", () => {
    const text = notKeptText([
      { path: "out/\u001b[2Jevil\nname", reason: "a symlink; only regular files are kept" },
    ]);
    expect(text).toBe("out/\\x1b[2Jevil\\x0aname: a symlink; only regular files are kept");
  });
});

describe("caps and deletion", () => {
  it("a file over a cap is not kept: the turn completes, an event names file and cap, the model is told next turn", async () => {
    const file = path.join(dir, "sessions.db");
    const events: EngineEvent[] = [];
    const a = await createSkillAgent({
      model: scriptedModel([
        load,
        run('head -c 5000 /dev/zero > "$OUTPUT_DIR/big.bin"; echo small > "$OUTPUT_DIR/small.txt"'),
        { text: "done" },
      ]),
      catalog,
      store: createSqliteStore({ path: file }),
      closeStore: true,
      executor: "local",
      sessionId: "capped",
      workspaceFiles: { maxFileBytes: 1024 },
      onEvent: (e) => events.push(e),
    });
    const result = await a.send("make files");
    expect(result.text).toBe("done");
    const notKept = events.find((e) => e.type === "files-not-kept");
    expect(notKept).toMatchObject({
      files: [{ path: "out/big.bin", reason: "4.9 KiB is over the per-file cap of 1 KiB" }],
      message:
        "workspace files not kept with the conversation: out/big.bin: 4.9 KiB is over the per-file cap of 1 KiB",
    });
    await a.close();

    const model = scriptedModel([{ text: "noted" }]);
    const b = await createSkillAgent({
      model,
      catalog,
      store: createSqliteStore({ path: file }),
      closeStore: true,
      executor: "local",
      sessionId: "capped",
      workspaceFiles: { maxFileBytes: 1024 },
    });
    try {
      expect(await readFile(path.join(b.workspace?.outDir ?? "", "small.txt"), "utf8")).toBe("small\n");
      await expect(readFile(path.join(b.workspace?.outDir ?? "", "big.bin"))).rejects.toThrow(/ENOENT/);
      await b.send("next");
      const user = promptText(model.calls[0]);
      expect(user).toContain(
        "Workspace files not kept from earlier turns: out/big.bin: 4.9 KiB is over the per-file cap of 1 KiB",
      );
    } finally {
      await b.close();
    }
  }, 60_000);

  it("a workspace the caller gave is saved from but never written over on resume", async () => {
    const file = path.join(dir, "sessions.db");
    const a = await createSkillAgent({
      model: scriptedModel([load, run('echo saved > "$OUTPUT_DIR/note.txt"'), { text: "ok" }]),
      catalog,
      store: createSqliteStore({ path: file }),
      closeStore: true,
      executor: "local",
      sessionId: "given",
    });
    await a.send("save a note");
    await a.close();
    const workspace = await createWorkspace({ baseDir: dir });
    try {
      await writeFile(path.join(workspace.outDir, "note.txt"), "the caller's newer note\n");
      const b = await createSkillAgent({
        model: scriptedModel([{ text: "ok" }]),
        catalog,
        store: createSqliteStore({ path: file }),
        closeStore: true,
        executor: "local",
        sessionId: "given",
        run: { environment: { workspace } },
      });
      await b.close();
      expect(await readFile(path.join(workspace.outDir, "note.txt"), "utf8")).toBe(
        "the caller's newer note\n",
      );
    } finally {
      await workspace.dispose();
    }
  }, 60_000);

  it("deleting the conversation deletes its files; content another conversation keeps stays", async () => {
    const store: SessionStore = createSqliteStore({ path: path.join(dir, "sessions.db") });
    try {
      for (const [id, text] of [
        ["one", "shared"],
        ["two", "shared"],
      ] as const) {
        const agent = await createSkillAgent({
          model: scriptedModel([
            load,
            run(`echo ${text} > "$OUTPUT_DIR/a.txt"; echo ${id} > "$OUTPUT_DIR/b.txt"`),
            { text: "ok" },
          ]),
          catalog,
          store,
          executor: "local",
          sessionId: id,
        });
        await agent.send("go");
        await agent.close();
      }
      const shared = fileDigest(new TextEncoder().encode("shared\n"));
      const own = fileDigest(new TextEncoder().encode("one\n"));
      expect(await store.missingBlobs?.([shared, own])).toEqual([]);
      expect(await store.delete("one", CONVERSATION_NAMESPACE)).toBe(true);
      expect(await store.missingBlobs?.([shared, own])).toEqual([own]);
      expect(await store.delete("two", CONVERSATION_NAMESPACE)).toBe(true);
      expect(await store.missingBlobs?.([shared])).toEqual([shared]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
