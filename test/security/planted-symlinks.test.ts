/**
 * A script plants symlinks on every path the host touches in its workspace (layout folders, input
 * destinations, input sources, output folders) pointing at a directory outside it. The next runs must
 * neither create, change, delete nor read anything there, and must never throw.
 */
import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SkillRecord } from "../../src/catalog/types.js";
import { createWorkspace } from "../../src/exec/create-workspace.js";
import type { Executor } from "../../src/exec/executor.js";
import { attackExecutor, attackSkill, contextFor, runAndShow, snapshot, tempDir } from "./support.js";

const CANARY = "CANARY-victim-content";

describe("planted symlinks on host-side paths", () => {
  let base: string;
  let victim: string;
  let skill: SkillRecord;
  let executor: Executor;
  let before: string[];
  const results: Array<{ attack: string; escapes: number; leaks: number; thrown: number }> = [];

  beforeAll(async () => {
    base = await tempDir("skillrt-sec-plant-");
    victim = path.join(base, "victim");
    await mkdir(path.join(victim, "sub"), { recursive: true });
    await writeFile(path.join(victim, "precious.txt"), `${CANARY}\n`);
    await writeFile(path.join(victim, "sub", "nested.txt"), `${CANARY} nested\n`);
    skill = await attackSkill(base);
    executor = attackExecutor();
    before = await snapshot(victim);
  });
  afterAll(async () => {
    console.info(JSON.stringify({ attack: "planted-symlinks", cases: results }));
    await rm(base, { recursive: true, force: true });
  });

  /** Plants with a sandboxed script, then runs `next` several ways; checks the victim and what the model saw. */
  async function attack(label: string, plant: string, next: Record<string, unknown>[]): Promise<string[]> {
    const ws = await createWorkspace({ baseDir: base });
    const context = contextFor(ws, skill, executor);
    const seenAll: string[] = [];
    let thrown = 0;
    try {
      const planted = await runAndShow(
        { name: "attacker", command: plant, env: { VICTIM: victim } },
        context,
      );
      expect(planted.result.status, planted.seen).toBe("ran");
      for (const request of next) {
        try {
          const { seen } = await runAndShow(
            { name: "attacker", env: { VICTIM: victim }, ...request },
            context,
          );
          seenAll.push(seen);
        } catch {
          thrown++;
        }
      }
    } finally {
      await ws.dispose();
    }
    const after = await snapshot(victim);
    const escapes = after.join("\n") === before.join("\n") ? 0 : 1;
    // Names the requests themselves contain (e.g. `out/l/precious.txt`) come back in messages: not leaks.
    const leaks = seenAll.filter((s) => s.includes(CANARY) || s.includes("nested.txt")).length;
    results.push({ attack: label, escapes, leaks, thrown });
    expect(after).toEqual(before);
    expect(leaks).toBe(0);
    expect(thrown).toBe(0);
    return seenAll;
  }

  const fullRun = {
    command: "ls $RUN_DIR >/dev/null; echo made > $OUTPUT_DIR/made.txt",
    inputs: [{ from: "skill://attacker/SKILL.md", to: "inputs/skill.md" }],
    outputs: { globs: ["out/**", "work/**", "runs/**", "home/**", "**"], inline: true },
  };

  for (const folder of ["runs", "work", "work/inputs", "out", "home", "tmp"]) {
    it(`${folder}/ replaced by a symlink: put back before the next run, nothing outside touched`, async () => {
      const seen = await attack(
        `layout ${folder}/ → outside`,
        `cd $WORKSPACE_DIR && mv ${folder} ${folder}.moved && ln -s "$VICTIM" ${folder}`,
        [fullRun, fullRun],
      );
      expect(seen[0]).toContain(`workspace folder ${folder}/ had been replaced by a symlink`);
      expect(seen[0]).toContain("made");
    });
  }

  it("skills/ cannot be replaced from the sandbox; planted from outside it is put back", async () => {
    const ws = await createWorkspace({ baseDir: base });
    const context = contextFor(ws, skill, executor);
    try {
      const tried = await runAndShow(
        {
          name: "attacker",
          command:
            'cd $WORKSPACE_DIR && mv skills skills.x && echo MOVED; ln -s "$VICTIM" skills/attacker/evil 2>&1; true',
          env: { VICTIM: victim },
        },
        context,
      );
      if (executor.kind === "sandbox") expect(tried.seen).not.toContain("MOVED");
      await rm(ws.skillsDir, { recursive: true, force: true });
      await rm(`${ws.skillsDir}.x`, { recursive: true, force: true });
      await symlink(victim, ws.skillsDir);
      const { result, seen } = await runAndShow(
        { name: "attacker", command: "ls", outputs: { globs: ["skills/**"] } },
        context,
      );
      expect(result.status).toBe("ran");
      expect(seen).toContain("workspace folder skills/ had been replaced by a symlink");
      expect(seen).not.toContain(CANARY);
      expect(seen).not.toContain("precious");
    } finally {
      await ws.dispose();
    }
    expect(await snapshot(victim)).toEqual(before);
  });

  it("input destinations and sources through planted links are refused, with workspace paths only", async () => {
    const seen = await attack(
      "input destination/source through a link",
      'ln -s "$VICTIM" $WORK_DIR/inputs/sub && ln -s "$VICTIM" $OUTPUT_DIR/l && ln -s "$VICTIM/precious.txt" $OUTPUT_DIR/f',
      [
        { command: "true", inputs: [{ from: "skill://attacker/SKILL.md", to: "inputs/sub/x.md" }] },
        { command: "true", inputs: [{ from: "skill://attacker/SKILL.md", to: "out/l/sub/x.md" }] },
        {
          command: "cat inputs/y.txt",
          inputs: [{ from: "workspace://out/l/precious.txt", to: "inputs/y.txt" }],
        },
        { command: "cat inputs/z.txt", inputs: [{ from: "workspace://out/f", to: "inputs/z.txt" }] },
        { command: "cat inputs/w/precious.txt", inputs: [{ from: "workspace://out/l", to: "inputs/w" }] },
        { command: "ls -R inputs/", inputs: [{ from: "workspace://out", to: "inputs/copy" }] },
      ],
    );
    expect(seen[0]).toMatch(
      /input destination 'inputs\/sub\/x.md' is not usable: work\/inputs\/sub is not a directory/,
    );
    expect(seen[1]).toMatch(/out\/l is not a directory/);
    expect(seen[2]).toMatch(/out\/l is a symlink that leaves the workspace/);
    expect(seen[3]).toMatch(/out\/f is a symlink that leaves the workspace/);
    expect(seen[4]).toMatch(/out\/l is a symlink that leaves the workspace/);
    // A folder copied from the workspace keeps its links as links (never followed by the host).
    expect(seen[5]).toContain("copy");
  });

  it("removing a workspace full of planted links removes the links only", async () => {
    await attack(
      "dispose with planted links",
      'ln -s "$VICTIM" $OUTPUT_DIR/a; ln -s "$VICTIM/precious.txt" $WORK_DIR/b; mkdir -p $WORK_DIR/c; ln -s "$VICTIM/sub" $WORK_DIR/c/d',
      [],
    );
  });

  it("a layout folder swapped while another run prepares never makes the host follow it", async () => {
    const ws = await createWorkspace({ baseDir: base });
    const context = contextFor(ws, skill, executor);
    let thrown = 0;
    try {
      const swapper = runAndShow(
        {
          name: "attacker",
          command: `cd $WORKSPACE_DIR; end=$(($(date +%s) + 4)); while [ $(date +%s) -lt $end ]; do mv runs runs.x 2>/dev/null; ln -s "$VICTIM" runs; rm -f runs; mv runs.x runs 2>/dev/null; mv work/inputs work/i.x; ln -s "$VICTIM" work/inputs; rm -f work/inputs; mv work/i.x work/inputs; done; true`,
          env: { VICTIM: victim },
          timeout: 30,
        },
        context,
      );
      const runs = Array.from({ length: 20 }, () =>
        runAndShow(
          {
            name: "attacker",
            command: "true",
            inputs: [{ from: "skill://attacker/SKILL.md" }],
            outputs: { globs: ["runs/**", "work/**"] },
          },
          context,
        ).catch(() => {
          thrown++;
          return undefined;
        }),
      );
      const seen = (await Promise.all(runs)).map((r) => r?.seen ?? "");
      await swapper;
      expect(seen.filter((s) => s.includes(CANARY) || s.includes("precious"))).toEqual([]);
    } finally {
      await ws.dispose();
    }
    results.push({
      attack: "layout swapped during preparation (20 runs)",
      escapes: (await snapshot(victim)).join() === before.join() ? 0 : 1,
      leaks: 0,
      thrown,
    });
    expect(thrown).toBe(0);
    expect(await snapshot(victim)).toEqual(before);
  });
});
