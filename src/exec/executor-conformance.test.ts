/**
 * The executor conformance suite: the same behaviour asked of every executor — local, bubblewrap sandbox,
 * container, and any AI SDK SandboxSession (here skillrt's own bubblewrap session) — exit codes, stdin,
 * cleared environment, output caps, timeouts and aborts that kill whole process trees, rlimits, writable
 * and read-only mounts, and a full `skill_run` with staged skill and collected outputs.
 */
import { readdirSync, readFileSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSkill, makeTempDir } from "./__fixtures__/make-skill.js";
import { createContainerExecutor, probeContainerEngine } from "./container-executor.js";
import { createWorkspace } from "./create-workspace.js";
import type { Executor } from "./executor.js";
import { createLocalExecutor } from "./local-executor.js";
import { createRedactor } from "./redact.js";
import { runSkillCommand } from "./run-skill-command.js";
import { createSandboxExecutor, probeSandbox } from "./sandbox-executor.js";
import {
  type BubblewrapSandboxSession,
  createBubblewrapSandboxSession,
} from "./sandbox-session-bubblewrap.js";
import { createSandboxSessionExecutor } from "./sandbox-session-executor.js";

/** Live (non-zombie) processes whose environment carries `token`. */
function processesWithToken(token: string): number {
  let count = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").includes(token)) count++;
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return count;
}

async function settle(token: string): Promise<number> {
  // SIGKILL is asynchronous: give the kernel a moment to finish tearing processes down, then count.
  for (let i = 0; i < 40; i++) {
    if (processesWithToken(token) === 0) return 0;
    await new Promise((r) => setTimeout(r, 50));
  }
  return processesWithToken(token);
}

// Children ignore SIGTERM and detach their stdio from the run's pipes, so only a SIGKILL of the whole
// tree (process group, or the sandbox's pid namespace) removes them.
const FORKER =
  "trap '' TERM; for i in 1 2 3; do sleep 1000 </dev/null >/dev/null 2>&1 & done; echo started; sleep 1000";

interface Kind {
  name: string;
  /** Why the executor cannot run here, or undefined when it can. */
  unavailable: string | undefined;
  make: () => Promise<Executor>;
  /** Whether read-only mounts are enforced (everything but `local`, which sees the host as it is). */
  isolates: boolean;
  /** Batches of 20 parallel forking runs in the kill test (a SandboxSession executor runs them one by one). */
  batches: number;
  /** Timeout of the kill test's runs: long enough for the sandbox to start and print. */
  killAfterMs: number;
  dispose?: () => Promise<void>;
}

const sandboxProbe = probeSandbox();
const engine = probeContainerEngine();
let bubblewrapSession: BubblewrapSandboxSession | undefined;
const kinds: Kind[] = [
  {
    name: "local",
    unavailable: undefined,
    make: async () => createLocalExecutor(),
    isolates: false,
    batches: 5,
    killAfterMs: 800,
  },
  {
    name: "sandbox",
    unavailable: sandboxProbe.ok ? undefined : sandboxProbe.reason,
    make: async () => createSandboxExecutor(),
    isolates: true,
    batches: 4,
    // 20 bwrap starts at once take well over 300 ms on a loaded 2-core machine: a run killed before it
    // printed "started" tests nothing, so the timeout leaves room for the sandbox to come up.
    killAfterMs: 1500,
  },
  {
    name: "container",
    unavailable: engine.ok ? undefined : engine.reason,
    make: async () => createContainerExecutor(),
    isolates: true,
    batches: 1,
    killAfterMs: 300,
  },
  {
    name: "sandbox-session (skillrt bubblewrap SandboxSession)",
    unavailable: sandboxProbe.ok ? undefined : sandboxProbe.reason,
    make: async () => {
      bubblewrapSession = await createBubblewrapSandboxSession();
      return createSandboxSessionExecutor({ sandbox: bubblewrapSession });
    },
    isolates: true,
    batches: 1,
    killAfterMs: 2000,
    dispose: async () => bubblewrapSession?.stop(),
  },
];
for (const kind of kinds) {
  if (kind.unavailable !== undefined)
    console.log(`skipping ${kind.name} executor conformance: ${kind.unavailable}`);
}

describe.each(kinds.filter((k) => k.unavailable === undefined))("executor conformance: $name", (kind) => {
  let dir: string;
  let executor: Executor;
  beforeAll(async () => {
    dir = await makeTempDir();
    executor = await kind.make();
  });
  afterAll(async () => {
    await kind.dispose?.();
    await rm(dir, { recursive: true, force: true });
  });
  const mounts = () => [{ source: dir, readOnly: false }];

  it("kills every process of timed-out runs that fork children (20 per batch)", async () => {
    const token = `SKILLRT_KILL_TOKEN_${process.pid}_${Date.now()}`;
    const results = [];
    for (let batch = 0; batch < kind.batches; batch++) {
      const runs = Array.from({ length: 20 }, () =>
        executor.run({
          command: ["/bin/sh", "-c", FORKER],
          cwd: dir,
          env: { KILL_MARK: token },
          timeoutMs: kind.killAfterMs,
          mounts: mounts(),
        }),
      );
      results.push(...(await Promise.all(runs)));
    }
    expect(results).toHaveLength(kind.batches * 20);
    expect(results.every((r) => r.timedOut)).toBe(true);
    expect(results.every((r) => r.stdout.includes("started"))).toBe(true);
    expect(await settle(token)).toBe(0);
  });

  it("the /proc token count sees a live tree, and an abort removes it", async () => {
    const token = `SKILLRT_LIVE_TOKEN_${process.pid}_${Date.now()}`;
    const controller = new AbortController();
    const pending = executor.run({
      command: ["/bin/sh", "-c", FORKER],
      cwd: dir,
      env: { KILL_MARK: token },
      timeoutMs: 60_000,
      abortSignal: controller.signal,
      mounts: mounts(),
    });
    let seen = 0;
    for (let i = 0; i < 100 && seen < 4; i++) {
      await new Promise((r) => setTimeout(r, 50));
      seen = processesWithToken(token);
    }
    expect(seen).toBeGreaterThanOrEqual(4);
    controller.abort();
    const r = await pending;
    expect(r.aborted).toBe(true);
    expect(await settle(token)).toBe(0);
  });

  it("kills background children left behind when the main process exits", async () => {
    const token = `SKILLRT_BG_TOKEN_${process.pid}_${Date.now()}`;
    const r = await executor.run({
      command: "sleep 1000 </dev/null >/dev/null 2>&1 & echo done",
      cwd: dir,
      env: { KILL_MARK: token },
      timeoutMs: 10_000,
      mounts: mounts(),
    });
    expect(r.exitCode).toBe(0);
    expect(r.timedOut).toBe(false);
    expect(await settle(token)).toBe(0);
  });

  it("caps a 50 MB stdout at 16 KiB and flags it", async () => {
    const r = await executor.run({
      command: "yes | head -c 50000000",
      cwd: dir,
      env: {},
      timeoutMs: 60_000,
      mounts: mounts(),
    });
    expect(r.exitCode).toBe(0);
    expect(r.truncated.stdout).toBe(true);
    expect(r.bytes.stdout).toBe(50_000_000);
    expect(Buffer.byteLength(r.stdout)).toBeLessThan(16 * 1024 + 100);
    expect(r.stdout).toMatch(/…\[truncated \d+ bytes\]$/);
  });

  it("cuts on a UTF-8 boundary and reports exit codes, stdin and stderr", async () => {
    const r = await executor.run({
      command: ["/bin/sh", "-c", 'cat; printf "%s" "$(printf "é%.0s" $(seq 1 20))"; echo oops >&2; exit 3'],
      cwd: dir,
      env: {},
      stdin: "from-stdin\n",
      timeoutMs: 10_000,
      maxOutputBytes: 16,
      mounts: mounts(),
    });
    expect(r.exitCode).toBe(3);
    expect(r.truncated.stdout).toBe(true);
    expect(r.stdout.startsWith("from-stdin\n")).toBe(true);
    expect(r.stdout).not.toContain("\uFFFD");
    expect(r.stderr).toBe("oops\n");
  });

  it("an abort signal kills the run", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const r = await executor.run({
      command: ["/bin/sh", "-c", "sleep 1000"],
      cwd: dir,
      env: {},
      timeoutMs: 60_000,
      abortSignal: controller.signal,
      mounts: mounts(),
    });
    expect(r.aborted).toBe(true);
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).not.toBe(0);
  });

  it("applies rlimits (file size)", async () => {
    const r = await executor.run({
      command: ["/bin/sh", "-c", "head -c 200000 /dev/zero > big.bin; echo rc=$?"],
      cwd: dir,
      env: {},
      timeoutMs: 10_000,
      limits: { fileSizeBytes: 10_000 },
      mounts: mounts(),
    });
    expect(r.stdout).not.toContain("rc=0");
  });

  it("passes exactly the request's environment and runs string commands through a shell in cwd", async () => {
    process.env["SKILLRT_CONFORMANCE_HOST_ONLY"] = "host-value";
    try {
      const r = await executor.run({
        command: 'echo "A=$A"; echo "B=[$B]"; pwd; env | grep -c SKILLRT_CONFORMANCE_HOST_ONLY; true',
        cwd: dir,
        env: { A: 'it\'s "quoted" $HOME' },
        timeoutMs: 10_000,
        mounts: mounts(),
      });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(`A=it's "quoted" $HOME\nB=[]\n${dir}\n0\n`);
      expect(r.timedOut).toBe(false);
    } finally {
      delete process.env["SKILLRT_CONFORMANCE_HOST_ONLY"];
    }
  });

  it("runs an argv without a shell and reports a missing program as a failure", async () => {
    const r = await executor.run({
      command: ["/bin/echo", "two words", "$NOT_EXPANDED", "*"],
      cwd: dir,
      env: {},
      timeoutMs: 10_000,
      mounts: mounts(),
    });
    expect(r.stdout).toBe("two words $NOT_EXPANDED *\n");
    const missing = await executor.run({
      command: ["/nonexistent/program"],
      cwd: dir,
      env: {},
      timeoutMs: 10_000,
      mounts: mounts(),
    });
    expect(missing.exitCode).not.toBe(0);
    expect(missing.stderr).toMatch(/nonexistent/);
  });

  it("times out a run, killing it, and says so", async () => {
    const started = Date.now();
    const r = await executor.run({
      command: ["/bin/sh", "-c", "echo before; sleep 30; echo after"],
      cwd: dir,
      env: {},
      timeoutMs: Math.max(500, kind.killAfterMs),
      mounts: mounts(),
    });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).toBe("before\n");
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("redacts secrets from what it returns", async () => {
    const secret = "sk-conformance-0123456789abcdef";
    const r = await executor.run({
      command: ["/bin/sh", "-c", 'echo "token=$TOKEN"; echo "$TOKEN" >&2'],
      cwd: dir,
      env: { TOKEN: secret },
      timeoutMs: 10_000,
      redactor: createRedactor([secret]),
      mounts: mounts(),
    });
    expect(r.stdout).toBe("token=[redacted]\n");
    expect(r.stderr).not.toContain(secret);
  });

  it("reads and writes a writable mount: changes, new files and deletions reach the host", async () => {
    await writeFile(path.join(dir, "in.txt"), "input data\n");
    await writeFile(path.join(dir, "doomed.txt"), "delete me\n");
    const r = await executor.run({
      command:
        "cat in.txt; mkdir -p sub/deeper; echo made > sub/deeper/new.txt; echo changed >> in.txt; rm doomed.txt",
      cwd: dir,
      env: {},
      timeoutMs: 10_000,
      mounts: mounts(),
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("input data\n");
    expect(await readFile(path.join(dir, "sub", "deeper", "new.txt"), "utf8")).toBe("made\n");
    expect(await readFile(path.join(dir, "in.txt"), "utf8")).toBe("input data\nchanged\n");
    await expect(readFile(path.join(dir, "doomed.txt"))).rejects.toThrow(/ENOENT/);
  });

  it("keeps read-only mounts unchanged on the host", async (context) => {
    if (!kind.isolates) return context.skip();
    const ro = await makeTempDir("skillrt-ro-");
    await writeFile(path.join(ro, "keep.txt"), "original\n");
    try {
      const r = await executor.run({
        command: `echo hacked > ${ro}/keep.txt; echo new > ${ro}/new.txt; cat ${ro}/keep.txt`,
        cwd: dir,
        env: {},
        timeoutMs: 10_000,
        mounts: [...mounts(), { source: ro, readOnly: true }],
      });
      expect(r.stdout).toContain("original");
      expect(await readFile(path.join(ro, "keep.txt"), "utf8")).toBe("original\n");
      await expect(readFile(path.join(ro, "new.txt"))).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(ro, { recursive: true, force: true });
    }
  });

  it("runs a skill's script through skill_run: staged skill, workspace variables, collected outputs", async () => {
    const skill = await makeSkill("conform", {
      "scripts/report.sh":
        '#!/bin/sh\nset -e\nwc -l < "$1" > "$OUTPUT_DIR/lines.txt"\necho "skill=$SKILL_NAME"\ncat data/seed.txt\n',
      "data/seed.txt": "seed\n",
    });
    const base = await makeTempDir();
    const workspace = await createWorkspace({ baseDir: base });
    try {
      await writeFile(path.join(base, "rows.csv"), "a\nb\nc\n");
      const result = await runSkillCommand(
        {
          name: "conform",
          command: "sh scripts/report.sh $WORK_DIR/inputs/rows.csv",
          inputs: [{ from: `host://${base}/rows.csv` }],
          outputs: { globs: ["$OUTPUT_DIR/*.txt"], inline: true },
        },
        {
          environment: { workspace, executor, hostDirs: [base] },
          lookup: { getSkill: (n) => (n === "conform" ? skill : undefined) },
        },
      );
      expect(result.status).toBe("ran");
      if (result.status !== "ran") return;
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe("skill=conform\nseed\n");
      expect(result.outputFiles.map((f) => [f.name, f.content?.trim()])).toEqual([["out/lines.txt", "3"]]);
      expect(await readFile(path.join(workspace.outDir, "lines.txt"), "utf8")).toBe("3\n");
    } finally {
      await workspace.dispose();
      await rm(base, { recursive: true, force: true });
      await rm(path.dirname(skill.dir), { recursive: true, force: true });
    }
  });
});
