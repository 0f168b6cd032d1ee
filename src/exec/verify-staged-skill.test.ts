/**
 * A skill whose trust is bound to a digest runs exactly what was trusted: real roots in temp dirs, the
 * real trust file, real runs through the local executor (whose scripts can leave a side-effect file on
 * the host, the proof of what ran) and the bubblewrap sandbox.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openRecordedTrust, type RecordedTrust, untrustedRootsOf } from "../catalog/recorded-trust.js";
import { digestRoot } from "../catalog/root-digest.js";
import { recordTrust } from "../catalog/trust-file.js";
import type { SkillRecord } from "../catalog/types.js";
import { makeSkill, makeTempDir } from "./__fixtures__/make-skill.js";
import { createExecutor } from "./create-executor.js";
import { createWorkspace } from "./create-workspace.js";
import type { SkillRunConfig } from "./run-config.js";
import { runSkillCommand, type SkillRunResult } from "./run-skill-command.js";
import { createShellPreRender } from "./shell-pre-render.js";
import type { Workspace } from "./workspace.js";

let base: string;
let side: string;
let skill: SkillRecord;
let script: string;
let workspace: Workspace;
let trust: RecordedTrust;

const good = (): string => `#!/bin/sh\necho GOOD\necho good >> ${side}\n`;
const bad = (): string => `#!/bin/sh\necho BAD\necho bad >> ${side}\n`;

beforeEach(async () => {
  base = await makeTempDir("skillrt-pinned-");
  side = path.join(base, "side-effect.txt");
  skill = { ...(await makeSkill("pinned", { "scripts/run.sh": "" })), scope: "project" };
  script = path.join(skill.dir, "scripts", "run.sh");
  await writeFile(script, good());
  // The user trusted the root as it is now; the trust is opened (as a CLI process opens it at start).
  const state = path.join(base, "state");
  recordTrust(state, { kind: "fs", id: skill.source }, await digestRoot(skill.source));
  trust = await openRecordedTrust({
    roots: untrustedRootsOf([{ path: skill.source, scope: "project" }]),
    stateDir: state,
  });
  expect(trust.isTrusted(skill)).toBe(true);
  workspace = await createWorkspace({ baseDir: base });
});
afterEach(async () => {
  await workspace.dispose();
  await rm(base, { recursive: true, force: true });
  await rm(skill.source, { recursive: true, force: true });
});

function config(kind: "local" | "sandbox", ws: Workspace = workspace): SkillRunConfig {
  return {
    environment: { workspace: ws, executor: createExecutor({ kind }).executor },
    lookup: { getSkill: (name) => (name === skill.name ? skill : undefined) },
    trust,
  };
}

const run = (kind: "local" | "sandbox", ws?: Workspace): Promise<SkillRunResult> =>
  runSkillCommand({ name: "pinned", command: ["sh", "scripts/run.sh"] }, config(kind, ws));

const sideEffects = (): Promise<string> => readFile(side, "utf8").catch(() => "");

/** `workspace` whose pinned staging calls `during` before (or after) the check of the staged copy. */
function withHook(when: "before-check" | "after-check", during: () => Promise<void>): Workspace {
  return {
    ...workspace,
    stageSkill: (record, options = {}) => {
      const verify = options.verify;
      if (verify === undefined) return workspace.stageSkill(record, options);
      return workspace.stageSkill(record, {
        ...options,
        verify: {
          key: verify.key,
          check: async (viewDir) => {
            if (when === "before-check") await during();
            await verify.check(viewDir);
            if (when === "after-check") await during();
          },
        },
      });
    },
  };
}

describe("a pinned skill runs exactly what was trusted", () => {
  it("runs the verified copy, and refuses a script rewritten after the trust was opened (local)", async () => {
    const first = await run("local");
    expect(first.status).toBe("ran");
    expect(first.status === "ran" && first.stdout).toBe("GOOD\n");
    // The rewrite lands between the trust check (opened above) and the next run, as during a model request.
    await writeFile(script, bad());
    const second = await run("local");
    expect(second.status).toBe("refused");
    expect(second.status === "refused" && second.message).toContain(
      `its root ${skill.source} changed since the user trusted it`,
    );
    expect(second.status === "refused" && second.message).toContain(`skillrt trust ${skill.source}`);
    expect(await sideEffects()).toBe("good\n");
  });

  it("the sandbox runs the verified copy too, and refuses a changed node_modules/ file", async () => {
    const first = await run("sandbox");
    expect(first.status === "ran" && first.stdout).toBe("GOOD\n");
    const { mkdir } = await import("node:fs/promises");
    await mkdir(path.join(skill.dir, "node_modules", "x"), { recursive: true });
    await writeFile(path.join(skill.dir, "node_modules", "x", "index.js"), "process.exit(1)\n");
    const second = await run("sandbox");
    expect(second.status).toBe("refused");
    expect(second.status === "refused" && second.message).toContain("changed since the user trusted it");
  });

  it("a rewrite after the copy was checked does not reach the run: the checked copy runs", async () => {
    const hooked = withHook("after-check", () => writeFile(script, bad()));
    const result = await run("local", hooked);
    expect(result.status === "ran" && result.stdout).toBe("GOOD\n");
    expect(await sideEffects()).toBe("good\n");
    expect(await readFile(script, "utf8")).toBe(bad());
    // The next run sees the change and refuses.
    expect((await run("local")).status).toBe("refused");
    expect(await sideEffects()).toBe("good\n");
  });

  it("a rewrite between the copy and its check is not what is checked or run", async () => {
    const hooked = withHook("before-check", () => writeFile(script, bad()));
    const result = await run("sandbox", hooked);
    expect(result.status === "ran" && result.stdout).toBe("GOOD\n");
  });

  it("a writer racing the staging never gets its content run", async () => {
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        await writeFile(script, i % 2 === 0 ? bad() : good());
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const outcomes: string[] = [];
    try {
      for (let i = 0; i < 15; i++) {
        const result = await run("local");
        if (result.status === "ran") outcomes.push(result.stdout);
        else {
          expect(result.message).toContain("changed since the user trusted it");
          outcomes.push("refused");
        }
      }
    } finally {
      writing = false;
      await writer;
    }
    expect(outcomes.every((o) => o === "GOOD\n" || o === "refused")).toBe(true);
    // Every run that ran left one "good" line; the rewritten content never ran.
    const ran = outcomes.filter((o) => o === "GOOD\n").length;
    expect(await sideEffects()).toBe("good\n".repeat(ran));
  });

  it("a pinned skill's !`cmd` runs only from the body of the checked copy", async () => {
    const trustedBody = "Marker: !`echo TRUSTED-$((6*7))`\n";
    await writeFile(
      path.join(skill.dir, "SKILL.md"),
      `---\nname: pinned\ndescription: d\n---\n${trustedBody}`,
    );
    // The root changed: trust it again, and open the trust as a new process would.
    const state = path.join(base, "state");
    recordTrust(state, { kind: "fs", id: skill.source }, await digestRoot(skill.source));
    trust = await openRecordedTrust({
      roots: untrustedRootsOf([{ path: skill.source, scope: "project" }]),
      stateDir: state,
    });
    const pinnedRender = createShellPreRender({
      run: { environment: { workspace, executor: createExecutor({ kind: "local" }).executor } },
      trust,
    });
    expect(await pinnedRender(skill, trustedBody)).toBe("Marker: TRUSTED-42\n");
    // A body read from a SKILL.md rewritten after the check (and put back before the copy) does not run.
    const planted = `Marker: !\`echo planted >> ${side}\`\n`;
    const refused = await pinnedRender(skill, planted);
    expect(refused).toContain("not run: this skill changed since it was trusted");
    expect(refused).toContain(`skillrt trust ${skill.source}`);
    // A SKILL.md rewritten on disk: the copy no longer matches.
    await writeFile(path.join(skill.dir, "SKILL.md"), `---\nname: pinned\ndescription: d\n---\n${planted}`);
    // (the trust notices the change itself: the skill is untrusted now).
    expect(trust.isTrusted(skill)).toBe(false);
    expect(await pinnedRender(skill, planted)).toContain("not run: this skill is not trusted");
    expect(await sideEffects()).toBe("");
  });

  it("a skill reached through a link that leaves its root runs when unchanged, and is refused once edited", async () => {
    const { mkdir, symlink } = await import("node:fs/promises");
    const root = path.join(base, "linked-root");
    const outside = path.join(base, "outside", "far");
    await mkdir(path.join(outside, "scripts"), { recursive: true });
    await mkdir(root);
    await writeFile(path.join(outside, "SKILL.md"), "---\nname: far\ndescription: d\n---\nBody.\n");
    await writeFile(path.join(outside, "scripts", "run.sh"), "echo FAR\n");
    await symlink(outside, path.join(root, "far"));
    const far: SkillRecord = { ...skill, name: "far", dir: path.join(root, "far"), source: root };
    const state = path.join(base, "state-linked");
    recordTrust(state, { kind: "fs", id: root }, await digestRoot(root));
    const linkedTrust = await openRecordedTrust({
      roots: untrustedRootsOf([{ path: root, scope: "project" }]),
      stateDir: state,
    });
    const runFar = () =>
      runSkillCommand(
        { name: "far", command: ["sh", "scripts/run.sh"] },
        {
          environment: { workspace, executor: createExecutor({ kind: "sandbox" }).executor },
          lookup: { getSkill: (name) => (name === "far" ? far : undefined) },
          trust: linkedTrust,
        },
      );
    const first = await runFar();
    expect(first.status === "ran" && first.stdout).toBe("FAR\n");
    await writeFile(path.join(outside, "scripts", "run.sh"), "echo CHANGED\n");
    const second = await runFar();
    expect(second.status).toBe("refused");
    expect(second.status === "refused" && second.message).toContain(`its root ${root} changed`);
  });
});
