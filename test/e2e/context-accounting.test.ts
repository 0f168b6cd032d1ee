/**
 * What the model saw is what skillrt counts: a chat loads a ~7k-token skill, unloads it and sends one
 * more message; `/context` agrees with the request the loopback server received on the history (the
 * stub, not the body) and lists the tool definitions the request carried.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { readTurnLog } from "../../src/inspect/turn-record.js";
import { createSqliteStore } from "../../src/store/create-sqlite-store.js";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";
import { counter, requestHistoryTokens, requestToolTokens, writeBigSkill } from "./support/request-tokens.js";

let cwd: string;
let root: string;
let server: LoopbackProvider;

beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-accounting-"));
  root = path.join(cwd, "skills");
  server = await startLoopbackProvider("openai", []);
});
afterEach(async () => {
  await server.close();
  await rm(cwd, { recursive: true, force: true });
});

async function chat(lines: string[]): Promise<string> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = "";
  stdout.on("data", (d) => {
    out += String(d);
  });
  stdin.end(`${lines.join("\n")}\n`);
  await main(["chat", "--root", root, "--context-window", "50000"], {
    stdin,
    stdout,
    stderr: stdout,
    cwd,
    env: { OPENAI_BASE_URL: server.baseURL, AGENT_MODEL: "loopback", HOME: cwd },
  });
  return out;
}

const figure = (out: string, label: string): number[] =>
  [...out.matchAll(new RegExp(`^  ${label}\\s+([\\d,]+)`, "gm"))].map((m) =>
    Number(m[1]!.replaceAll(",", "")),
  );

describe("context accounting after an unload", () => {
  it("/context counts the stub the request carried, not the unloaded body, and the tool definitions", async () => {
    const bodyTokens = await writeBigSkill(root, "ledger-audit", 7000);
    expect(bodyTokens).toBeGreaterThan(6900);
    server.script.push({ text: "Loaded and read." }, { text: "Done." });
    const out = await chat([
      "/skill ledger-audit",
      "audit it",
      "/context",
      "/unload ledger-audit",
      "and now?",
      "/context",
      "/exit",
    ]);
    expect(out).toContain("Done.");
    // While loaded, the body is in context (bodies); after the unload only its stub is.
    expect(figure(out, "bodies")[0]).toBeGreaterThan(6900);
    expect(figure(out, "bodies")[1]).toBe(0);
    const sent = requestHistoryTokens(server.requests[1]!.body);
    expect(sent).toBeLessThan(200);
    const history = figure(out, "history")[1]!;
    // The history /context shows is the request's plus the answer it got.
    expect(Math.abs(history - sent) / sent).toBeLessThan(0.05 + counter.count("Done.") / sent);
    expect(history).toBe(sent + counter.count("Done."));

    const tools = requestToolTokens(server.requests[1]!.body);
    expect(tools.size).toBeGreaterThan(3);
    const toolsTotal = [...tools.values()].reduce((a, b) => a + b, 0);
    expect(figure(out, "tools")[1]).toBe(toolsTotal);
    expect(out).toContain(
      `Tool definitions (${tools.size} tools, ${toolsTotal.toLocaleString("en-US")} tokens):`,
    );
    for (const [name, tokens] of tools)
      expect(out).toMatch(new RegExp(`^  ${name} ${tokens.toLocaleString("en-US")}$`, "m"));

    // The turn log the inspector reads: the same figures, and the user's load and unload in the timelines.
    const store = createSqliteStore({ path: path.join(cwd, ".skillrt", "sessions.db") });
    const [info] = await store.list({ namespace: "conversation" });
    const log = await readTurnLog(store, info!.id);
    await store.close();
    const [turn1, turn2] = log.turns;
    const segment = (turn: typeof turn1, key: string) => turn!.segments.find((s) => s.key === key)?.tokens;
    expect(segment(turn1, "skill:ledger-audit")).toBeGreaterThanOrEqual(bodyTokens);
    expect(segment(turn2, "skill:ledger-audit")).toBeUndefined();
    expect(segment(turn2, "history")).toBe(history);
    expect(turn2!.tools).toEqual([...tools].map(([name, tokens]) => ({ name, tokens })));
    expect(turn1!.events.filter((e) => e.type.startsWith("skill-"))).toMatchObject([
      { type: "skill-load", name: "ledger-audit", by: "user" },
    ]);
    expect(turn2!.events.filter((e) => e.type.startsWith("skill-"))).toMatchObject([
      { type: "skill-unload", name: "ledger-audit", reason: "unload", by: "user" },
    ]);
  });
});
