/** The chat REPL driven through its input/output streams (in-process), against a loopback provider. */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";

const examples = path.resolve(import.meta.dirname, "../../examples/skills");
let cwd: string;
let server: LoopbackProvider;

beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-chat-"));
  server = await startLoopbackProvider("openai", []);
});
afterEach(async () => {
  await server.close();
  await rm(cwd, { recursive: true, force: true });
});

async function chat(lines: string[], extra: string[] = []): Promise<{ code: number; out: string }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  stdout.on("data", (d) => {
    out += String(d);
  });
  stderr.on("data", (d) => {
    out += String(d);
  });
  stdin.end(`${lines.join("\n")}\n`);
  const code = await main(["chat", "--root", examples, "--context-window", "50000", ...extra], {
    stdin,
    stdout,
    stderr,
    cwd,
    env: { OPENAI_BASE_URL: server.baseURL, AGENT_MODEL: "loopback", HOME: cwd },
  });
  return { code, out };
}

function figure(out: string, label: string): number[] {
  return [...out.matchAll(new RegExp(`^  ${label}\\s+([\\d,]+)`, "gm"))].map((m) =>
    Number(m[1]!.replaceAll(",", "")),
  );
}

describe("skillrt chat", () => {
  it("with nothing configured and no local Ollama, explains how to configure a model", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = "";
    stdout.on("data", (d) => {
      out += String(d);
    });
    // Input ends after the failed turn (no /exit, which would exit 0): the failure is the exit code.
    stdin.end("hello\n");
    const code = await main(["chat", "--root", examples], {
      stdin,
      stdout,
      stderr: stdout,
      cwd,
      env: { HOME: cwd, SKILLRT_MAX_ATTEMPTS: "1" },
    });
    if (!out.includes("failed") && !out.includes("No model")) return; // an Ollama is actually running here
    expect(code).toBe(1);
    expect(out).toContain("No model is configured");
    expect(out).toContain("OPENAI_BASE_URL");
    expect(out).toContain("ANTHROPIC_API_KEY");
  });

  it("after a failed turn, /exit exits 0; the end of input exits 1", async () => {
    // 400 is not retried: one failed request per turn.
    server.script.push({ status: 400 });
    const quit = await chat(["hello", "/exit"]);
    expect(quit.out).toContain("scripted 400");
    expect(quit.code).toBe(0);
    server.script.push({ status: 400 });
    const eof = await chat(["hello"]);
    expect(eof.out).toContain("scripted 400");
    expect(eof.code).toBe(1);
  });

  it("/skills shows markers and token costs, before and after /skill", async () => {
    const { code, out } = await chat(["/skills", "/skill csv-summary", "/skills", "/exit"]);
    expect(code).toBe(0);
    const [before = "", after = ""] = out.split("+ loaded csv-summary");
    // Not loaded: the body's estimated cost and the catalog line's cost; loaded: the body's real cost.
    const estimate = Number(
      /\[○\] csv-summary\s+body ≈([\d,]+) tok\s+catalog \d+/.exec(before)?.[1]?.replaceAll(",", ""),
    );
    expect(before).not.toContain("[✓]");
    const real = Number(/\[✓\] csv-summary\s+body\s+([\d,]+) tok/.exec(after)?.[1]?.replaceAll(",", ""));
    expect(estimate).toBeGreaterThan(100);
    expect(real).toBeGreaterThanOrEqual(estimate);
    expect(after).toMatch(/\[○\] json-query/);
    expect(after).toContain("1 loaded of 4");
  });

  it("/context figures add up to the window and grow when a skill is loaded", async () => {
    server.script.push({ text: "Hi there, nice to meet you." });
    const { out } = await chat(["/context", "hello", "/skill markdown-toc", "/context", "/exit"]);
    expect(out).toContain("Hi there, nice to meet you.");
    const window = figure(out, "window");
    expect(window).toEqual([50000, 50000]);
    for (const i of [0, 1]) {
      const parts = ["catalog", "bodies", "docs", "history", "tools"].map((l) => figure(out, l)[i]!);
      const used = figure(out, "used")[i]!;
      const free = figure(out, "free")[i]!;
      expect(parts.reduce((a, b) => a + b, 0)).toBe(used);
      expect(used + free).toBe(50000);
    }
    expect(figure(out, "catalog")[0]).toBeGreaterThan(0);
    expect(figure(out, "bodies")[0]).toBe(0);
    expect(figure(out, "bodies")[1]).toBeGreaterThan(50);
    expect(figure(out, "history")[1]).toBeGreaterThan(figure(out, "history")[0]!);
  });

  it("/help, unknown commands, /new and /sessions", async () => {
    server.script.push({ text: "first answer" });
    const { out } = await chat(["/help", "/bogus", "hi", "/sessions", "/new", "/sessions", "/exit"]);
    expect(out).toContain("/unload NAME");
    expect(out).toContain("Unknown command /bogus");
    const listings = out.split("Resume one with");
    expect(listings.length).toBe(3);
    // Each conversation is listed with the first thing the user said.
    expect(listings[0]).toMatch(/^\* [0-9a-f-]{36} {2}\S+ {2}hi$/m);
    expect(listings[1]).toMatch(/^ {2}[0-9a-f-]{36} {2}\S+ {2}hi$/m);
    expect(out).toMatch(/New conversation [0-9a-f-]{36}/);
  });

  it("$name in a message loads that skill before the model answers", async () => {
    server.script.push({ text: "Using the skill." });
    const { out } = await chat(["please use $json-query on data.json", "/skills", "/exit"]);
    expect(out).toContain("+ loaded json-query");
    expect(out).toMatch(/\[✓\] json-query/);
    const sent = JSON.stringify(server.requests[0]!.body);
    expect(sent).toContain("query.mjs");
  });

  it("shows no colour codes when the output is not a terminal", async () => {
    const { out } = await chat(["/skills", "/exit"]);
    expect(out).not.toContain("\u001b[");
  });
});

describe("skillrt chat on a terminal", () => {
  function terminal(): {
    stdin: PassThrough & { isTTY: boolean; setRawMode: () => void };
    stdout: PassThrough & { isTTY: boolean; columns: number };
  } {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => {} });
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
    return { stdin, stdout };
  }
  const waitFor = async (check: () => boolean): Promise<void> => {
    for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  };

  it("Ctrl-C during an answer cancels that step only; two Ctrl-C at the prompt exit", async () => {
    server.script.push({ text: "too slow", delayMs: 20_000 }, { text: "second answer" });
    const { stdin, stdout } = terminal();
    let out = "";
    stdout.on("data", (d) => {
      out += String(d);
    });
    const done = main(["chat", "--root", examples], {
      stdin,
      stdout,
      stderr: stdout,
      cwd,
      env: { OPENAI_BASE_URL: server.baseURL, HOME: cwd, NO_COLOR: "1" },
    });
    await waitFor(() => out.includes("/help for commands"));
    stdin.write("first question\r");
    await waitFor(() => server.requests.length === 1);
    stdin.write("\u0003");
    await waitFor(() => out.includes("(cancelled)"));
    stdin.write("second question\r");
    await waitFor(() => out.includes("second answer"));
    stdin.write("\u0003");
    await waitFor(() => out.includes("press Ctrl-C again"));
    stdin.write("\u0003");
    expect(await done).toBe(0);
    expect(out).toContain("(cancelled)");
    expect(out).toContain("second answer");
    expect(out).not.toContain("too slow");
    const users = server.requests[1]!.body.messages.filter((m: any) => m.role === "user").map(
      (m: any) => m.content,
    );
    expect(users).toEqual(["first question", "second question"]);
  });
});
