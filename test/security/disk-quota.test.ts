/**
 * The per-run disk quota: a run writing more than it may is stopped and the model told; a single file
 * cannot exceed it (RLIMIT_FSIZE); the sandbox's /tmp is sized to it.
 */
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SkillRecord } from "../../src/catalog/types.js";
import { createWorkspace } from "../../src/exec/create-workspace.js";
import { probeSandbox } from "../../src/exec/sandbox-executor.js";
import type { Workspace } from "../../src/exec/workspace.js";
import { attackExecutor, attackSkill, contextFor, runAndShow, tempDir } from "./support.js";

const MiB = 1024 * 1024;

describe("per-run disk quota", () => {
  let base: string;
  let skill: SkillRecord;
  let ws: Workspace;
  beforeAll(async () => {
    base = await tempDir("skillrt-sec-quota-");
    skill = await attackSkill(base);
    ws = await createWorkspace({ baseDir: base });
  });
  afterAll(async () => {
    await ws.dispose();
    await rm(base, { recursive: true, force: true });
  });

  it("a run that keeps writing past the quota is stopped and the model told", async () => {
    const context = { ...contextFor(ws, skill, attackExecutor()), diskQuotaBytes: 8 * MiB };
    const started = performance.now();
    const { result, seen } = await runAndShow(
      {
        name: "attacker",
        command:
          "for i in $(seq 1 400); do head -c 1048576 /dev/zero > $WORK_DIR/f$i; sleep 0.05; done; echo finished",
      },
      context,
    );
    const ms = performance.now() - started;
    if (result.status !== "ran") throw new Error(seen);
    expect(result.limitsHit).toContain("disk_quota");
    expect(result.stdout).not.toContain("finished");
    expect(seen).toMatch(
      /the run was stopped: it added [\d.]+ MiB to the workspace, more than the disk quota of 8\.0 MiB/,
    );
    expect(ms).toBeLessThan(15_000); // 400 × 50 ms = 20 s if it were not stopped
    console.info(
      JSON.stringify({ attack: "disk-quota (slow writer)", quotaMiB: 8, stoppedAfterMs: Math.round(ms) }),
    );
  }, 60_000);

  it("a burst past the quota between two samples is still reported, and no single file can pass it", async () => {
    const context = { ...contextFor(ws, skill, attackExecutor()), diskQuotaBytes: 4 * MiB };
    const { result, seen } = await runAndShow(
      {
        name: "attacker",
        command:
          "rm -f $WORK_DIR/f*; head -c 16777216 /dev/zero > $WORK_DIR/big; echo exit=$?; ls -l $WORK_DIR/big | awk '{print $5}'",
      },
      context,
    );
    if (result.status !== "ran") throw new Error(seen);
    const written = Number(/\n(\d+)\n?$/.exec(result.stdout)?.[1] ?? Number.NaN);
    expect(written).toBeLessThanOrEqual(4 * MiB); // RLIMIT_FSIZE stopped the file at the quota
    // Small bursts: many files, each under the quota, written faster than one sample interval.
    const burst = await runAndShow(
      {
        name: "attacker",
        command:
          "mkdir -p $WORK_DIR/burst; for i in 1 2 3 4 5 6; do head -c 1048576 /dev/zero > $WORK_DIR/burst/b$i; done",
      },
      context,
    );
    if (burst.result.status !== "ran") throw new Error(burst.seen);
    expect(burst.result.limitsHit).toContain("disk_quota");
    expect(burst.seen).toMatch(/more than the disk quota of 4\.0 MiB/);
  }, 60_000);

  it.skipIf(!probeSandbox().ok)(
    "the sandbox's private /tmp is sized to the quota",
    async () => {
      const context = { ...contextFor(ws, skill, attackExecutor()), diskQuotaBytes: 4 * MiB };
      const { result, seen } = await runAndShow(
        {
          name: "attacker",
          command: "head -c 16777216 /dev/zero > /tmp/big; echo rc=$?; df -k /tmp | tail -1",
        },
        context,
      );
      if (result.status !== "ran") throw new Error(seen);
      expect(result.stdout).toMatch(/rc=[1-9]/);
      expect(`${result.stdout}${result.stderr}`).toMatch(/No space left|File too large|4096/);
    },
    60_000,
  );
});
