/**
 * Listing leaks: a script plants links to `/`, to the workspace's parent (other workspaces) and to a
 * canary directory, then asks for outputs through every glob shape. Nothing outside the workspace may
 * appear in what the model sees: no file names, no contents, no host paths in warnings.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SkillRecord } from "../../src/catalog/types.js";
import { createWorkspace } from "../../src/exec/create-workspace.js";
import type { Workspace } from "../../src/exec/workspace.js";
import { attackExecutor, attackSkill, contextFor, runAndShow, tempDir } from "./support.js";

const CANARY = "CANARYNAME";

describe("no host listing or content through output globs", () => {
  let base: string;
  let canary: string;
  let skill: SkillRecord;
  let ws: Workspace;
  let neighbour: Workspace;

  beforeAll(async () => {
    base = await tempDir("skillrt-sec-list-");
    canary = path.join(base, `${CANARY}-dir`);
    await mkdir(path.join(canary, `${CANARY}-sub`), { recursive: true });
    await writeFile(path.join(canary, `${CANARY}-file.txt`), `${CANARY} content\n`);
    await writeFile(path.join(canary, `${CANARY}-sub`, `${CANARY}-deep.txt`), `${CANARY} deep\n`);
    skill = await attackSkill(base);
    ws = await createWorkspace({ baseDir: base });
    neighbour = await createWorkspace({ baseDir: base, id: `${CANARY}-neighbour` });
    await writeFile(path.join(neighbour.outDir, `${CANARY}-theirs.txt`), `${CANARY} theirs\n`);
  });
  afterAll(async () => {
    await ws.dispose();
    await neighbour.dispose();
    await rm(base, { recursive: true, force: true });
  });

  const GLOBS = [
    "out/r/root/**",
    "out/r/**",
    "out/r/etc/*",
    "out/r/etc/passwd",
    "out/up/**",
    "out/up/*/out/*",
    "out/c/**",
    "out/c/*",
    "out/c",
    `out/c/${CANARY}-file.txt`,
    "out/chain/**",
    "out/rel/**",
    "out/**",
    "**",
    "*",
    "$OUTPUT_DIR/**",
    "$WORKSPACE_DIR/**",
    "work/**",
    "out/r/../c/**",
    "out/loop/**",
    "skills/**",
  ];

  it(`${GLOBS.length} globs through links to /, the parent and a canary: 0 leaks`, async () => {
    const plant = [
      "ln -s / $OUTPUT_DIR/r",
      "ln -s $WORKSPACE_DIR/.. $OUTPUT_DIR/up",
      `ln -s ${canary} $OUTPUT_DIR/c`,
      "ln -s ../out/c $WORK_DIR/chain0 && ln -s $WORK_DIR/chain0 $OUTPUT_DIR/chain",
      "ln -s ../../.. $OUTPUT_DIR/rel",
      "ln -s loop $OUTPUT_DIR/loop",
      `ln -s ${canary}/${CANARY}-file.txt $OUTPUT_DIR/file-link.txt`,
      "mkfifo $OUTPUT_DIR/fifo",
      "echo mine > $OUTPUT_DIR/mine.txt",
    ].join(" && ");
    const context = contextFor(ws, skill, attackExecutor());
    const planted = await runAndShow({ name: "attacker", command: plant }, context);
    expect(planted.result.status, planted.seen).toBe("ran");
    let leaks = 0;
    let thrown = 0;
    const started = performance.now();
    for (const glob of GLOBS) {
      for (const inline of [true, false]) {
        try {
          const { result, seen } = await runAndShow(
            { name: "attacker", command: "true", outputs: { globs: [glob], inline } },
            context,
          );
          if (result.status !== "ran") throw new Error(seen);
          // Host paths the model must not learn: the canary's names and contents, the neighbour
          // workspace, and the usual names under / and /etc.
          const bad = [
            CANARY,
            "passwd",
            "hostname",
            "os-release",
            "bin/",
            "usr/",
            path.basename(neighbour.root),
          ];
          // The glob's own text comes back in messages; that is the model's words, not a leak.
          const scrubbed = seen.split(glob).join("");
          const hit = bad.filter((b) => scrubbed.includes(b));
          if (hit.length > 0) {
            leaks++;
            console.error(`leak through ${glob}: ${hit.join(", ")}\n${seen}`);
          }
        } catch (error) {
          thrown++;
          console.error(error);
        }
      }
    }
    const { seen: own } = await runAndShow(
      { name: "attacker", command: "true", outputs: { globs: ["out/**"], inline: true } },
      context,
    );
    console.info(
      JSON.stringify({
        attack: "listing-leak",
        globs: GLOBS.length * 2,
        leaks,
        thrown,
        ms: Math.round(performance.now() - started),
      }),
    );
    expect(leaks).toBe(0);
    expect(thrown).toBe(0);
    // The script's own file is still collected, and the links are reported by their workspace names.
    expect(own).toContain("mine");
    expect(own).toContain("dropped out/file-link.txt: it is a symlink that leaves the workspace");
  }, 120_000);
});
