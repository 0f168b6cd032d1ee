import { readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "./__fixtures__/make-skill.js";
import type { Executor } from "./executor.js";
import { createLocalExecutor } from "./local-executor.js";
import { createSandboxExecutor, probeSandbox } from "./sandbox-executor.js";

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

const sandboxOk = probeSandbox().ok;
const kinds: Array<[string, () => Executor, boolean]> = [
  ["local", createLocalExecutor, true],
  ["sandbox", () => createSandboxExecutor(), sandboxOk],
];

describe.each(kinds)("%s executor: timeouts, process trees, output caps", (_kind, make, available) => {
  let dir: string;
  const executor = make();
  beforeAll(async () => {
    dir = await makeTempDir();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const mounts = () => [{ source: dir, readOnly: false }];

  it.skipIf(!available)("kills every process of 100 timed-out runs that fork children", async () => {
    const token = `SKILLRT_KILL_TOKEN_${process.pid}_${Date.now()}`;
    const results = [];
    for (let batch = 0; batch < 5; batch++) {
      const runs = Array.from({ length: 20 }, () =>
        executor.run({
          command: ["/bin/sh", "-c", FORKER],
          cwd: dir,
          env: { KILL_MARK: token },
          timeoutMs: 300,
          mounts: mounts(),
        }),
      );
      results.push(...(await Promise.all(runs)));
    }
    expect(results).toHaveLength(100);
    expect(results.every((r) => r.timedOut)).toBe(true);
    expect(results.every((r) => r.stdout.includes("started"))).toBe(true);
    expect(await settle(token)).toBe(0);
  });

  it.skipIf(!available)("the /proc token count sees a live tree, and an abort removes it", async () => {
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

  it.skipIf(!available)("kills background children left behind when the main process exits", async () => {
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

  it.skipIf(!available)("caps a 50 MB stdout at 16 KiB and flags it", async () => {
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

  it.skipIf(!available)("cuts on a UTF-8 boundary and reports exit codes, stdin and stderr", async () => {
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

  it.skipIf(!available)("an abort signal kills the run", async () => {
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

  it.skipIf(!available)("applies rlimits (file size)", async () => {
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
});
