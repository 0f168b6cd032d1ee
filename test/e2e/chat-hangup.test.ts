/**
 * The terminal closing under `skillrt chat` (SIGHUP), or a supervisor stopping it (SIGTERM): the built
 * CLI as a child process whose stdin is a pipe, as under a terminal; its workspace must not be left behind.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt } from "./support/run-cli.js";

const repo = path.resolve(import.meta.dirname, "../..");
const examples = path.join(repo, "examples", "skills");
let dir: string;
let tmp: string;
let server: LoopbackProvider;
let child: ChildProcess | undefined;

beforeAll(() => assertBuilt());
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-hangup-"));
  tmp = path.join(dir, "tmp");
  await mkdir(tmp);
  server = await startLoopbackProvider("openai", []);
});
afterEach(async () => {
  child?.kill("SIGKILL");
  child = undefined;
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** The workspaces under the chat's TMPDIR (the per-user base holds them). */
async function workspaces(): Promise<string[]> {
  const found: string[] = [];
  for (const base of await readdir(tmp)) {
    const entries = await readdir(path.join(tmp, base)).catch(() => []);
    found.push(...entries.filter((e) => e.startsWith("skillrt-ws-")));
  }
  return found;
}

/** Starts the chat, waits for its banner (its workspace then exists), and returns how to wait for its end. */
async function startChat(): Promise<{ output: () => string; exit: Promise<number | null> }> {
  child = spawn(process.execPath, [path.join(repo, "bin", "skillrt.js"), "chat", "--root", examples], {
    cwd: dir,
    env: {
      PATH: process.env["PATH"] ?? "/usr/bin:/bin",
      HOME: dir,
      TMPDIR: tmp,
      NO_COLOR: "1",
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: "sk-loopback",
      AGENT_MODEL: "loopback-model",
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += String(d);
  });
  child.stderr?.on("data", (d) => {
    out += String(d);
  });
  const exit = new Promise<number | null>((resolve) => child?.on("exit", (code) => resolve(code)));
  for (let i = 0; i < 1500 && !out.includes("skillrt chat —"); i++)
    await new Promise((r) => setTimeout(r, 10));
  return { output: () => out, exit };
}

describe("skillrt chat when its terminal goes away", { timeout: 60_000 }, () => {
  for (const [signal, code] of [
    ["SIGHUP", 129],
    ["SIGTERM", 143],
  ] as const) {
    it(`${signal} at the prompt: the chat ends (${code}) and deletes its workspace`, async () => {
      const chat = await startChat();
      expect(chat.output()).toContain("skillrt chat —");
      expect(await workspaces()).toHaveLength(1);
      child?.kill(signal);
      expect(await chat.exit).toBe(code);
      expect(await workspaces()).toEqual([]);
    });
  }

  it("SIGHUP while a turn waits for the model: the turn is cancelled and the workspace deleted", async () => {
    // A reply that never comes: the turn waits until the hang-up cancels it.
    server.script.push({ delayMs: 60_000, text: "too late" });
    const chat = await startChat();
    child?.stdin?.write("hello\n");
    for (let i = 0; i < 1500 && server.requests.length === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(server.requests).toHaveLength(1);
    child?.kill("SIGHUP");
    expect(await chat.exit).toBe(129);
    expect(await workspaces()).toEqual([]);
  });

  // A real terminal: python's pty runs the chat as the session leader of a pseudo-terminal, then closes the
  // terminal's master side, as a terminal window closing does (the kernel hangs up the session).
  const python = spawnSync("python3", ["-c", "import pty"]).status === 0;
  it.skipIf(!python)(
    "a real terminal closing: the chat ends (129) without an error and deletes its workspace",
    async () => {
      const script = [
        "import os, pty, sys, time, select",
        "pid, fd = pty.fork()",
        "if pid == 0: os.execv(sys.argv[1], sys.argv[1:])",
        'out = b""',
        "end = time.time() + 20",
        'while time.time() < end and b"skillrt chat" not in out:',
        "    if select.select([fd], [], [], 0.2)[0]: out += os.read(fd, 4096)",
        "time.sleep(0.3)",
        "os.close(fd)",
        "_, status = os.waitpid(pid, 0)",
        'print("banner" if b"skillrt chat" in out else "no banner", os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status))',
      ].join("\n");
      const errors = path.join(dir, "stderr.log");
      const shell = `exec "$0" "$@" 2>${JSON.stringify(errors)}`;
      const run = spawnSync(
        "python3",
        [
          "-c",
          script,
          "/bin/sh",
          "-c",
          shell,
          process.execPath,
          path.join(repo, "bin", "skillrt.js"),
          "chat",
          "--root",
          examples,
        ],
        {
          cwd: dir,
          encoding: "utf8",
          timeout: 40_000,
          env: {
            PATH: process.env["PATH"] ?? "/usr/bin:/bin",
            HOME: dir,
            TMPDIR: tmp,
            NO_COLOR: "1",
            OPENAI_BASE_URL: server.baseURL,
            OPENAI_API_KEY: "sk-loopback",
            AGENT_MODEL: "loopback-model",
          },
        },
      );
      expect(run.stdout.trim()).toBe("banner 129");
      expect(await readFile(errors, "utf8")).toBe("");
      expect(await workspaces()).toEqual([]);
    },
  );
});
