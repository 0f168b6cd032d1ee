/**
 * The swap race of issue 11: one run swaps `out/d` between a folder and a symlink to a root-only
 * directory as fast as it can, while other runs in the same workspace collect `out/d/secret.txt`
 * inline. The host must never return the root-only file, and never throw.
 */
import { lstat, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectOutputs } from "../../src/exec/collect-outputs.js";
import { createExecutor } from "../../src/exec/create-executor.js";
import { createWorkspace } from "../../src/exec/create-workspace.js";
import { OutputSpec } from "../../src/exec/output-spec.js";
import type { SkillRunContext } from "../../src/exec/run-config.js";
import { runSkillCommand, type SkillRunResult } from "../../src/exec/run-skill-command.js";
import type { Workspace } from "../../src/exec/workspace.js";
import { attackExecutor, attackSkill, contextFor, rootOnlySecret, tempDir } from "./support.js";

/** Swaps `d` and `l` atomically (renameat2 RENAME_EXCHANGE), or by four renames where that fails. */
const SWAPPER = String.raw`
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
stop = os.path.join(os.environ["WORK_DIR"], "stop")
os.chdir(os.environ["OUTPUT_DIR"])
os.makedirs("d", exist_ok=True)
with open("d/secret.txt", "w") as f: f.write("decoy\n")
os.symlink(sys.argv[1], "l")
n = 0
atomic = True
while not os.path.exists(stop):
    for _ in range(500):
        if atomic and libc.renameat2(-100, b"d", -100, b"l", 2) == 0:
            n += 1
            continue
        atomic = False
        os.rename("d", "t"); os.rename("l", "d"); os.rename("d", "l"); os.rename("t", "d")
        n += 2
    time.sleep(0.001)  # leave some CPU to the runs under attack
print("swaps", n, "atomic" if atomic else "renames")
`;

/** Runs collecting under attack (the issue asks for at least 500). */
const ATTEMPTS = 500;
/** Host-side collections alone, without a process start each. */
const DIRECT_ATTEMPTS = 1000;

describe("swap race: out/d swapped between a folder and a symlink to a root-only directory", () => {
  let base: string;
  let ws: Workspace;
  let context: SkillRunContext;
  let victimContext: SkillRunContext;
  let secret: { dir: string; token: string };

  beforeAll(async () => {
    base = await tempDir("skillrt-sec-race-");
    secret = await rootOnlySecret(base);
    const skill = await attackSkill(base);
    ws = await createWorkspace({ baseDir: base });
    context = contextFor(ws, skill, attackExecutor());
    // The runs under attack only need to finish and be collected; what is tested is the host-side
    // collection after them, so they use the cheapest real executor (a plain process).
    victimContext = contextFor(ws, skill, createExecutor({ kind: "local" }).executor);
  });
  afterAll(async () => {
    await ws.dispose();
    await rm(base, { recursive: true, force: true });
  });

  it(`${ATTEMPTS} inline collections by parallel runs and ${DIRECT_ATTEMPTS} direct ones: 0 reads of the secret, 0 throws`, async () => {
    const swapper = runSkillCommand(
      { name: "attacker", command: ["python3", "-c", SWAPPER, secret.dir], timeout: 240 },
      context,
    );
    for (let i = 0; i < 500; i++) {
      if (
        await lstat(path.join(ws.outDir, "l")).then(
          () => true,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 20));
    }
    let secretReads = 0;
    let decoyReads = 0;
    let thrown = 0;
    let refused = 0;
    const check = (seen: string): void => {
      if (seen.includes(secret.token)) secretReads++;
      if (seen.includes("decoy")) decoyReads++;
    };
    // Collecting runs, eight at a time, as parallel tool calls in one step would.
    const collector = async (count: number): Promise<void> => {
      for (let i = 0; i < count; i++) {
        let result: SkillRunResult;
        try {
          result = await runSkillCommand(
            { name: "attacker", command: "true", outputs: { globs: ["out/d/secret.txt"], inline: true } },
            victimContext,
          );
        } catch {
          thrown++;
          continue;
        }
        if (result.status === "refused") refused++;
        check(JSON.stringify(result));
      }
    };
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => collector(Math.floor(ATTEMPTS / 8) + (i < ATTEMPTS % 8 ? 1 : 0))),
    );
    const runsMs = Math.round(performance.now() - started);
    // The host-side collection alone, many more times (no process start in between).
    const spec = OutputSpec.parse({ globs: ["out/d/secret.txt", "out/d/**", "out/**"], inline: true });
    for (let i = 0; i < DIRECT_ATTEMPTS; i++) {
      try {
        check(JSON.stringify(await collectOutputs(spec, { root: ws.root })));
      } catch {
        thrown++;
      }
    }
    const directMs = Math.round(performance.now() - started) - runsMs;
    await writeFile(path.join(ws.workDir, "stop"), "");
    const swapped = await swapper;
    if (swapped.status !== "ran") throw new Error(swapped.message);
    const swaps = Number(/swaps (\d+)/.exec(swapped.stdout)?.[1] ?? 0);
    console.info(
      JSON.stringify({
        attack: "swap-race",
        runs: ATTEMPTS,
        direct: DIRECT_ATTEMPTS,
        swaps,
        secretReads,
        decoyReads,
        thrown,
        refused,
        executor: swapped.executor,
        runsMs,
        directMs,
      }),
    );
    expect(swaps).toBeGreaterThan(1000); // the race was live
    expect(decoyReads).toBeGreaterThan(0); // and collection still worked whenever out/d was the folder
    expect(secretReads).toBe(0);
    expect(thrown).toBe(0);
    expect(refused).toBe(0);
  }, 300_000);
});
