/**
 * The real `bin/skillrt.js` in a child process, on broken SKILL.md files: each must give diagnostics and
 * exit 1, never a stack trace.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSkills } from "../catalog/__fixtures__/generate-skills.js";
import { probeSandbox } from "../exec/sandbox-executor.js";
import { startLoopbackProvider } from "../testing/start-loopback-provider.js";
import { compileDist } from "./__fixtures__/compile-dist.js";
import { makeTempDir } from "./__fixtures__/skill-tree.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = path.join(repo, "bin", "skillrt.js");

let tmp: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  await compileDist("cli/main.js");
  tmp = await makeTempDir("skillrt-bin-");
}, 120_000);

afterAll(async () => {
  await tmp.cleanup();
});

/** Unprivileged uid/gid ("nobody") for the unreadable-file case when the tests run as root. */
const NOBODY = 65534;

function runCli(args: string[], as?: { uid: number; gid: number }) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    ...as,
    cwd: tmp.dir,
    env: { PATH: process.env["PATH"] ?? "", HOME: tmp.dir, NO_COLOR: "1" },
    encoding: "utf8",
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function brokenSkill(name: string, content: string | Uint8Array): Promise<string> {
  const dir = path.join(tmp.dir, name);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, "SKILL.md"), content);
  return dir;
}

function expectReported(name: string, codes: string[], as?: { uid: number; gid: number }) {
  const result = runCli(["validate", name, "--json"], as);
  expect(result.code).toBe(1);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  const report = JSON.parse(result.stdout) as {
    skills: { valid: boolean; diagnostics: { code: string }[] }[];
  };
  expect(report.skills).toHaveLength(1);
  expect(report.skills[0]?.valid).toBe(false);
  const found = report.skills[0]?.diagnostics.map((d) => d.code) ?? [];
  expect(found.some((code) => codes.includes(code))).toBe(true);
  const human = runCli(["validate", name], as);
  expect(human.code).toBe(1);
  expect(human.stderr).not.toMatch(/^\s+at /m);
  expect(human.stdout).toMatch(/✖ \d+ errors?(, \d+ warnings?)? in 1 skill$/m);
}

/**
 * A `--import` hook printing, at exit, `CODE` and which of `markers` (name → a text only that code holds)
 * were in the modules the process loaded, found in each module's source as Node loads it, wherever the
 * bundler put the code (a package bundled into a chunk included).
 */
const codeHook = async (markers: Record<string, string>): Promise<string> => {
  const hook = path.join(tmp.dir, `trace-code-${Object.keys(markers).join("-")}.mjs`);
  await fs.writeFile(
    hook,
    `import { registerHooks } from "node:module";
const markers = ${JSON.stringify(markers)};
const found = new Set();
registerHooks({
  load(url, ctx, next) {
    const r = next(url, ctx);
    if (r.source === undefined || r.source === null) return r;
    const source = String(r.source);
    for (const [name, text] of Object.entries(markers)) if (source.includes(text)) found.add(name);
    return r;
  },
});
process.on("exit", () => process.stderr.write("CODE " + JSON.stringify([...found].sort()) + "\\n"));
`,
  );
  return hook;
};

/** Agent code: what builds an agent (skillrt's createSkillAgent) or talks to a model (the AI SDK). */
const AGENT_CODE = {
  createSkillAgent: "function createSkillAgent(",
  generateText: "function generateText(",
  streamText: "function streamText(",
};

/** The MCP SDK's protocol layer and the JSON Schema validator it brings (ajv). */
const MCP_CODE = {
  "mcp-sdk": "Uncaught error in notification handler",
  ajv: "ajv implementation error",
};

describe("bin/skillrt.js validate on broken files", () => {
  it("reports an unreadable SKILL.md", async (context) => {
    const dir = await brokenSkill("unreadable", "---\nname: unreadable\ndescription: x\n---\n");
    await fs.chmod(path.join(dir, "SKILL.md"), 0o000);
    const isRoot = process.getuid?.() === 0;
    if (!isRoot) {
      expectReported("unreadable", ["file-unreadable"]);
      return;
    }
    // chmod does not stop root from reading: run the CLI as an unprivileged user instead.
    await fs.chmod(tmp.dir, 0o755);
    const probe = runCli(["--version"], { uid: NOBODY, gid: NOBODY });
    if (probe.code !== 0) {
      context.skip(
        "running as root and the CLI cannot run as 'nobody' here, so chmod 000 cannot block reads",
      );
    }
    expectReported("unreadable", ["file-unreadable"], { uid: NOBODY, gid: NOBODY });
  });

  it("reports a binary SKILL.md", async () => {
    await brokenSkill("binary", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff, 0x00, 0x10]));
    expectReported("binary", ["file-binary", "encoding-invalid"]);
  });

  it("reports an empty SKILL.md", async () => {
    await brokenSkill("empty", "");
    expectReported("empty", ["frontmatter-missing"]);
  });

  it("reports a 10 MB SKILL.md", async () => {
    const head = "---\nname: huge\ndescription: Huge file.\n---\n";
    await brokenSkill("huge", head + "x".repeat(10 * 1024 * 1024));
    expectReported("huge", ["file-too-large"]);
  });

  it("reports a SKILL.md that is not UTF-8", async () => {
    // Latin-1 "é" (0xE9) is not valid UTF-8.
    await brokenSkill(
      "latin1",
      Buffer.from("---\nname: latin1\ndescription: caf\xe9 notes\n---\nBody\n", "latin1"),
    );
    expectReported("latin1", ["encoding-invalid"]);
  });

  it("reports a missing path as path-not-found, exit 1", () => {
    const result = runCli(["validate", "no-such-dir", "--json"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('"code":"path-not-found"');
  });

  it("exits 2 on a usage error", () => {
    const result = runCli(["validate", "--bogus"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("skillrt validate --help");
  });
});

describe("bin/skillrt.js start-up", () => {
  /** The agent code `skillrt ...args` loaded (see codeHook), with its exit code and stdout. */
  const agentCodeOf = async (args: string[]) => {
    const hook = await codeHook(AGENT_CODE);
    const result = spawnSync(process.execPath, ["--import", hook, bin, ...args], {
      cwd: tmp.dir,
      env: { PATH: process.env["PATH"] ?? "", HOME: tmp.dir, NO_COLOR: "1" },
      encoding: "utf8",
    });
    const found = JSON.parse(/^CODE (.*)$/m.exec(result.stderr)?.[1] ?? "null") as string[] | null;
    return { code: result.status, stdout: result.stdout, stderr: result.stderr, found };
  };

  it("loads no agent code for plain `list`, `list --json`, `search` or `run`, where `ask` does", async () => {
    const root = path.join(tmp.dir, "light");
    await brokenSkill("light/one", "---\nname: one\ndescription: First.\n---\nBody\n");
    const human = await agentCodeOf(["list", "--root", root]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^one\s+First\.$/m);
    expect(human.found).toEqual([]);
    const json = await agentCodeOf(["list", "--json", "--root", root]);
    expect(JSON.parse(json.stdout)).toMatchObject({ skills: [{ name: "one" }] });
    expect(json.found).toEqual([]);
    const search = await agentCodeOf(["search", "first", "--root", root]);
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toContain("one");
    expect(search.found).toEqual([]);
    const run = await agentCodeOf(["run", "one", "--root", root, "--executor", "local", "--", "echo", "ran"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("ran\n");
    expect(run.found).toEqual([]);
    // The control: the hook does see agent code where a command needs it (spawned without blocking: the
    // model answers from this process).
    const provider = await startLoopbackProvider("openai", [{ text: "ok" }]);
    try {
      const { out } = spawnAsk(await codeHook(AGENT_CODE), root, provider.baseURL);
      const code = await out.closed;
      expect(code, out.stderr).toBe(0);
      const found = JSON.parse(/^CODE (.*)$/m.exec(out.stderr)?.[1] ?? "null") as string[];
      expect(found).toEqual(expect.arrayContaining(["createSkillAgent", "generateText"]));
    } finally {
      await provider.close();
    }
  });
});

describe("bin/skillrt.js young generation", () => {
  /** The size V8's new space reached in a `list --json` over 1,000 skills, with `v8Flags` given to Node. */
  const newSpaceAfterList = async (v8Flags: string[]): Promise<number> => {
    const root = path.join(tmp.dir, "many");
    await generateSkills(root, 1000);
    const hook = path.join(tmp.dir, "new-space.mjs");
    await fs.writeFile(
      hook,
      `import v8 from "node:v8";
process.on("exit", () => process.stderr.write("NEW_SPACE " + v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size + "\\n"));
`,
    );
    const result = spawnSync(
      process.execPath,
      [...v8Flags, "--import", hook, bin, "list", "--json", "--root", root],
      {
        cwd: tmp.dir,
        env: { PATH: process.env["PATH"] ?? "", HOME: tmp.dir, SKILLRT_CACHE: "0" },
        encoding: "utf8",
        maxBuffer: 1 << 28,
      },
    );
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).skills).toHaveLength(1000);
    return Number(/NEW_SPACE (\d+)/.exec(result.stderr)?.[1]);
  };

  it("stays at its first size while the CLI reads many skills, unless the user sets its growth", async () => {
    const kept = await newSpaceAfterList([]);
    const grown = await newSpaceAfterList(["--semi-space-growth-factor=2"]);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(grown).toBeGreaterThan(kept);
  });

  it("is set for the listing commands only: not for ask, chat, mcp or inspect", async () => {
    const hook = path.join(tmp.dir, "v8-flags.mjs");
    await fs.writeFile(
      hook,
      `import v8 from "node:v8";
const set = [];
const original = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => { set.push(flags); original(flags); };
process.on("exit", () => process.stderr.write("V8_FLAGS " + JSON.stringify(set) + "\\n"));
`,
    );
    const flagsOf = (args: string[]): string[] => {
      const result = spawnSync(process.execPath, ["--import", hook, bin, ...args], {
        cwd: tmp.dir,
        env: { PATH: process.env["PATH"] ?? "", HOME: tmp.dir, SKILLRT_CACHE: "0" },
        encoding: "utf8",
      });
      return JSON.parse(/V8_FLAGS (.*)/.exec(result.stderr)?.[1] ?? "null") as string[];
    };
    const empty = path.join(tmp.dir, "no-skills");
    await fs.mkdir(empty, { recursive: true });
    expect(flagsOf(["list", "--json", "--root", empty])).toEqual(["--semi-space-growth-factor=1"]);
    expect(flagsOf(["validate", empty])).toEqual(["--semi-space-growth-factor=1"]);
    expect(flagsOf(["ask", "--help"])).toEqual([]);
    expect(flagsOf(["chat", "--help"])).toEqual([]);
    expect(flagsOf(["mcp", "--help"])).toEqual([]);
    expect(flagsOf(["inspect", "--help"])).toEqual([]);
  });
});

describe("bin/skillrt.js: V8's compile cache", () => {
  /** Where the run's compile cache went (Node's own debug line), or undefined when it had none. */
  const compileCacheOf = (env: Record<string, string>, command = "validate"): string | undefined => {
    const empty = path.join(tmp.dir, "compile-cache-skills");
    const result = spawnSync(process.execPath, [bin, command, empty], {
      cwd: tmp.dir,
      env: { PATH: process.env["PATH"] ?? "", HOME: tmp.dir, NODE_DEBUG_NATIVE: "COMPILE_CACHE", ...env },
      encoding: "utf8",
    });
    return /\[compile cache\] resolved path (\S+)/.exec(result.stderr)?.[1];
  };

  it("lives in skillrt's private cache directory, one folder for the listing commands and one for the rest", async () => {
    await fs.mkdir(path.join(tmp.dir, "compile-cache-skills"), { recursive: true });
    const cache = path.join(tmp.dir, "cc-private");
    expect(compileCacheOf({ SKILLRT_CACHE_DIR: cache })).toBe(path.join(cache, "v8", "listing"));
    expect(compileCacheOf({ SKILLRT_CACHE_DIR: cache }, "show")).toBe(path.join(cache, "v8", "default"));
    const stat = await fs.stat(path.join(cache, "v8", "listing"));
    expect(stat.mode & 0o777).toBe(0o700);
    // Never Node's default folder in the shared tmp directory.
    expect(compileCacheOf({ SKILLRT_CACHE_DIR: cache })).not.toContain("node-compile-cache");
  });

  it("is off when its folder is writable by others, or the caches are off", async () => {
    await fs.mkdir(path.join(tmp.dir, "compile-cache-skills"), { recursive: true });
    const cache = path.join(tmp.dir, "cc-shared");
    await fs.mkdir(path.join(cache, "v8", "listing"), { recursive: true });
    await fs.chmod(path.join(cache, "v8", "listing"), 0o777);
    expect(compileCacheOf({ SKILLRT_CACHE_DIR: cache })).toBeUndefined();
    expect(compileCacheOf({ SKILLRT_CACHE: "0" })).toBeUndefined();
    // A folder the user names through Node's own variable is theirs to choose.
    const chosen = path.join(tmp.dir, "cc-chosen");
    expect(compileCacheOf({ SKILLRT_CACHE: "0", NODE_COMPILE_CACHE: chosen })).toBe(chosen);
  });
});

/** `skillrt ask hi` over `root` with the `--import` hook `hook`, against the provider at `baseURL`. */
function spawnAsk(hook: string, root: string, baseURL: string, env: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    ["--import", hook, bin, "ask", "hi", "--root", root, "--store", "sqlite::memory:"],
    {
      cwd: tmp.dir,
      env: {
        PATH: process.env["PATH"] ?? "",
        HOME: tmp.dir,
        OPENAI_BASE_URL: baseURL,
        OPENAI_API_KEY: "test",
        AGENT_MODEL: "loopback",
        ...env,
      },
    },
  );
  const out = { stderr: "", closed: new Promise<number | null>((resolve) => child.on("close", resolve)) };
  child.stderr.on("data", (d: Buffer) => {
    out.stderr += d.toString();
  });
  return { child, out };
}

describe("bin/skillrt.js run start-up", () => {
  it("loads no MCP SDK code for `ask` when no MCP server is configured", async () => {
    const provider = await startLoopbackProvider("openai", [{ text: "ok" }]);
    try {
      const hook = await codeHook({ ...MCP_CODE, generateText: AGENT_CODE.generateText });
      const empty = path.join(tmp.dir, "ask-no-skills");
      await fs.mkdir(empty, { recursive: true });
      const { out } = spawnAsk(hook, empty, provider.baseURL);
      const code = await out.closed;
      const stderr = out.stderr;
      expect(code, stderr).toBe(0);
      expect(provider.requests).toHaveLength(1);
      // The AI SDK's code is seen (the control); the MCP SDK's and ajv's are not.
      const found = JSON.parse(/^CODE (.*)$/m.exec(stderr)?.[1] ?? "null") as string[];
      expect(found).toEqual(["generateText"]);
    } finally {
      await provider.close();
    }
  });

  /**
   * Runs `ask hi` over `root` against a model that holds its answer 1.5 s; says whether the tokenizer was
   * loaded before the request (anything written before it has arrived 400 ms later) and at all.
   */
  const tokenizerAroundRequest = async (
    root: string,
    env: Record<string, string>,
  ): Promise<{ beforeRequest: boolean; atAll: boolean }> => {
    const provider = await startLoopbackProvider("openai", [{ text: "ok", delayMs: 1500 }]);
    try {
      const hook = path.join(tmp.dir, "trace-tokenizer.mjs");
      await fs.writeFile(
        hook,
        `import { registerHooks } from "node:module";
import { writeSync } from "node:fs";
let said = false;
registerHooks({ resolve(spec, ctx, next) { const r = next(spec, ctx); if (!said && r.url.includes("/gpt-tokenizer/")) { said = true; writeSync(2, "TOKENIZER LOADED\\n"); } return r; } });
`,
      );
      const { child, out } = spawnAsk(hook, root, provider.baseURL, env);
      while (provider.requests.length === 0 && child.exitCode === null)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 400));
      const beforeAnswer = out.stderr;
      const code = await out.closed;
      expect(code, out.stderr).toBe(0);
      expect(provider.requests).toHaveLength(1);
      return {
        beforeRequest: beforeAnswer.includes("TOKENIZER LOADED"),
        atAll: out.stderr.includes("TOKENIZER LOADED"),
      };
    } finally {
      await provider.close();
    }
  };

  it("sends ask's first model request before loading the tokenizer: the step's counts are made once the answer starts", async () => {
    const empty = path.join(tmp.dir, "ask-tokenizer");
    await fs.mkdir(empty, { recursive: true });
    // No token counts kept from earlier runs: this run has to count, so the tokenizer does load.
    expect(await tokenizerAroundRequest(empty, { SKILLRT_CACHE: "0" })).toEqual({
      beforeRequest: false,
      atAll: true,
    });
  });

  it("renders a catalog over its budget without the tokenizer once an earlier run kept its counts", async () => {
    const root = path.join(tmp.dir, "ask-counts");
    await generateSkills(root, 300);
    const cache = path.join(tmp.dir, "count-cache");
    // 300 skills do not fit the default 2,000-token catalog budget: the first run counts before its request.
    expect(await tokenizerAroundRequest(root, { SKILLRT_CACHE_DIR: cache })).toEqual({
      beforeRequest: true,
      atAll: true,
    });
    expect(await fs.readdir(cache)).toContain("token-counts-o200k_base.txt");
    expect(await tokenizerAroundRequest(root, { SKILLRT_CACHE_DIR: cache })).toEqual({
      beforeRequest: false,
      atAll: false,
    });
  });

  it("runs `run NAME -- cmd` without a config file, and still validates one when there is", async () => {
    const root = path.join(tmp.dir, "run-light");
    await brokenSkill("run-light/demo", "---\nname: demo\ndescription: Runs true.\n---\nBody\n");
    const result = spawnSync(
      process.execPath,
      [bin, "run", "demo", "--root", root, "--executor", "local", "--", "echo", "ran"],
      { cwd: tmp.dir, env: { PATH: process.env["PATH"] ?? "", HOME: tmp.dir }, encoding: "utf8" },
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toBe("ran\n");
    // A config file is still validated (its schema, and zod, load then).
    await fs.writeFile(
      path.join(tmp.dir, "skillrt.config.json"),
      JSON.stringify({ exec: { timeoutSeconds: -1 } }),
    );
    try {
      const invalid = spawnSync(process.execPath, [bin, "run", "demo", "--root", root, "--", "true"], {
        cwd: tmp.dir,
        env: { PATH: process.env["PATH"] ?? "", HOME: tmp.dir },
        encoding: "utf8",
      });
      expect(invalid.status).toBe(1);
      expect(invalid.stderr).toContain("invalid configuration (exec.timeoutSeconds");
    } finally {
      await fs.rm(path.join(tmp.dir, "skillrt.config.json"));
    }
  });

  it.skipIf(!probeSandbox().ok)(
    "an explicit `--executor sandbox` run probes once and remembers it: the next process neither probes nor asks `bwrap --help`",
    async () => {
      const root = path.join(tmp.dir, "run-sandbox");
      await brokenSkill("run-sandbox/demo", "---\nname: demo\ndescription: Runs true.\n---\nBody\n");
      // A bwrap on PATH that logs each call, then runs the real one.
      const wrapperDir = path.join(tmp.dir, "wrapped-bin");
      const log = path.join(tmp.dir, "bwrap-calls.log");
      const real = execFileSync("/bin/sh", ["-c", "command -v bwrap"], { encoding: "utf8" }).trim();
      await fs.mkdir(wrapperDir, { recursive: true });
      await fs.writeFile(
        path.join(wrapperDir, "bwrap"),
        `#!/bin/sh\necho "$1" >> '${log}'\nexec '${real}' "$@"\n`,
        { mode: 0o755 },
      );
      const env = {
        PATH: `${wrapperDir}:${process.env["PATH"] ?? ""}`,
        HOME: tmp.dir,
        SKILLRT_CACHE_DIR: path.join(tmp.dir, "run-cache"),
      };
      const calls = async () => (await fs.readFile(log, "utf8").catch(() => "")).split("\n").filter(Boolean);
      const runOnce = () =>
        spawnSync(
          process.execPath,
          [bin, "run", "demo", "--root", root, "--executor", "sandbox", "--json", "--", "true"],
          {
            cwd: tmp.dir,
            env,
            encoding: "utf8",
          },
        );
      const first = runOnce();
      expect(first.status).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ exitCode: 0, executor: "sandbox" });
      // The probe (`bwrap --unshare-all … true`) and `bwrap --help` went through the bwrap on PATH; the
      // command's own bwrap is looked up on the run's fixed PATH, so it is not logged here.
      expect(await calls()).toEqual(["--unshare-all", "--help"]);
      const second = runOnce();
      expect(second.status).toBe(0);
      expect(JSON.parse(second.stdout)).toMatchObject({ exitCode: 0, executor: "sandbox" });
      expect(await calls()).toEqual(["--unshare-all", "--help"]);
    },
  );
});

describe("bin/skillrt.js output to a reader that stops early", () => {
  it("ends quietly with exit 0 when the pipe closes (`skillrt list --json | head`)", async () => {
    const root = path.join(tmp.dir, "many");
    for (let i = 0; i < 400; i++) {
      const dir = path.join(root, `skill-${i}`);
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(
        path.join(dir, "SKILL.md"),
        `---\nname: skill-${i}\ndescription: ${"d".repeat(600)}\n---\nBody\n`,
      );
    }
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, [bin, "list", "--json", "--root", root], {
      cwd: tmp.dir,
      env: { PATH: process.env["PATH"] ?? "", HOME: tmp.dir, NO_COLOR: "1" },
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += String(d);
    });
    child.stdout.once("data", () => child.stdout.destroy()); // like `head -c` closing its end
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});
