import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skillTrust } from "../catalog/skill-trust.js";
import type { SkillRecord } from "../catalog/types.js";
import { createExecutor } from "./create-executor.js";
import { createWorkspace } from "./create-workspace.js";
import { probeSandbox } from "./sandbox-executor.js";
import { createShellPreRender, findShellDirectives } from "./shell-pre-render.js";
import type { Workspace } from "./workspace.js";

describe("findShellDirectives", () => {
  it("finds inline !`cmd` and ```! blocks, not the ones shown inside other code fences", () => {
    const body = [
      "Status: !`git status --short` and (!`date`)",
      "```bash",
      "echo !`not-this`",
      "```",
      "```!",
      "echo one",
      "echo two",
      "```",
      "a!`not-after-a-letter`",
    ].join("\n");
    const found = findShellDirectives(body);
    expect(found.map((d) => [d.kind, d.command])).toEqual([
      ["inline", "git status --short"],
      ["inline", "date"],
      ["block", "echo one\necho two"],
    ]);
    for (const d of found) expect(body.slice(d.start, d.end)).toMatch(/^(!`|```!)/);
  });
});

describe("createShellPreRender", () => {
  let dir: string;
  let workspace: Workspace;
  const record = (scope: SkillRecord["scope"]): SkillRecord => ({
    name: "live",
    description: "d",
    location: path.join(dir, "SKILL.md"),
    dir,
    scope,
    source: path.dirname(dir),
    origin: { kind: "fs", id: path.dirname(dir), label: "root" },
    extras: {},
    disableModelInvocation: false,
    userInvocable: true,
    active: false,
    diagnostics: [],
  });
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-prerender-"));
    await writeFile(path.join(dir, "SKILL.md"), "---\nname: live\ndescription: d\n---\nbody\n");
    await writeFile(path.join(dir, "data.txt"), "from-the-skill-dir\n");
    workspace = await createWorkspace({ id: "prerender-test" });
  });
  afterAll(async () => {
    await workspace.dispose();
    await rm(dir, { recursive: true, force: true });
  });
  const run = () => ({
    environment: {
      workspace,
      executor: createExecutor({ kind: "local" }).executor,
      skillEnv: { live: { LIVE_TOKEN: "s3cret-value-123" } },
    },
  });

  it("a trusted skill's directives run in its folder; output in place, secrets redacted, failures said", async () => {
    const preRender = createShellPreRender({ run: run(), trust: skillTrust(undefined) });
    const out = await preRender(
      record("user"),
      "A: !`cat data.txt`\nB: !`echo $LIVE_TOKEN`\nC: !`exit 3`\n```!\necho block\n```\nend",
    );
    expect(out).toContain("A: from-the-skill-dir\n");
    expect(out).not.toContain("s3cret-value-123");
    expect(out).toMatch(/C: \[`exit 3` failed with exit code 3\]/);
    expect(out).toContain("\nblock\nend");
  });

  it("an untrusted skill's directives are replaced by a note and never run", async () => {
    const marker = path.join(dir, "ran");
    const preRender = createShellPreRender({ run: run(), trust: skillTrust(undefined) });
    const out = await preRender(record("project"), `X !\`touch ${marker}\` Y`);
    expect(out).toContain("not run: this skill is not trusted");
    expect(out).toContain(`skillrt trust ${path.dirname(dir)}`);
    const { existsSync } = await import("node:fs");
    expect(existsSync(marker)).toBe(false);
  });
});

describe("!`cmd` runs in the project directory, as Claude Code runs it", () => {
  let project: string;
  let skillDir: string;
  beforeAll(async () => {
    project = await mkdtemp(path.join(os.tmpdir(), "skillrt-prerender-project-"));
    const git = (...args: string[]) => execFileSync("git", args, { cwd: project, stdio: "pipe" });
    git("init", "-q", "-b", "feature-x");
    git(
      "-c",
      "user.name=t",
      "-c",
      "user.email=t@example.com",
      "commit",
      "-q",
      "--allow-empty",
      "-m",
      "start",
    );
    await writeFile(path.join(project, "notes.txt"), "project file\n");
    skillDir = path.join(project, ".claude", "skills", "branch");
    await mkdir(skillDir, { recursive: true });
    await writeFile(path.join(skillDir, "SKILL.md"), "---\nname: branch\ndescription: d\n---\nbody\n");
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  const record = (scope: SkillRecord["scope"]): SkillRecord => ({
    name: "branch",
    description: "d",
    location: path.join(skillDir, "SKILL.md"),
    dir: skillDir,
    scope,
    source: path.dirname(skillDir),
    origin: { kind: "fs", id: path.dirname(skillDir), label: "root" },
    extras: {},
    disableModelInvocation: false,
    userInvocable: true,
    active: false,
    diagnostics: [],
  });
  const kinds = probeSandbox().ok ? (["sandbox", "local"] as const) : (["local"] as const);

  it.each(kinds)(
    "%s: `git branch --show-current` prints the project's branch; the project is read-only in a sandbox",
    async (kind) => {
      const workspace = await createWorkspace({ id: `prerender-project-${kind}` });
      try {
        const preRender = createShellPreRender({
          run: { environment: { workspace, executor: createExecutor({ kind }).executor } },
          trust: skillTrust(undefined),
          projectDir: project,
        });
        const out = await preRender(
          record("user"),
          "Branch: !`git branch --show-current`\nPwd: !`pwd`\nNotes: !`cat notes.txt`\nWrite: !`touch written.txt && echo wrote`",
        );
        expect(out).toContain("Branch: feature-x\n");
        expect(out).toContain(`Pwd: ${await realpath(project)}\n`);
        expect(out).toContain("Notes: project file\n");
        if (kind === "sandbox") {
          // Claude Code runs it with the user's rights; the sandbox lets it read the project, not change it.
          expect(out).toMatch(
            /Write: \[`touch written\.txt && echo wrote` failed with exit code 1: .*Read-only file system/,
          );
        }
      } finally {
        await workspace.dispose();
        await rm(path.join(project, "written.txt"), { force: true });
      }
    },
  );

  it("an untrusted (project) skill's directives still never run there", async () => {
    const workspace = await createWorkspace({ id: "prerender-project-untrusted" });
    try {
      const marker = path.join(project, "ran");
      const preRender = createShellPreRender({
        run: { environment: { workspace, executor: createExecutor({ kind: "local" }).executor } },
        trust: skillTrust(undefined),
        projectDir: project,
      });
      const out = await preRender(record("project"), `X !\`touch ${marker}\` Y`);
      expect(out).toContain("not run: this skill is not trusted");
      const { existsSync } = await import("node:fs");
      expect(existsSync(marker)).toBe(false);
    } finally {
      await workspace.dispose();
    }
  });
});
