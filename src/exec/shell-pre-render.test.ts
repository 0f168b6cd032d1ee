import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skillTrust } from "../catalog/skill-trust.js";
import type { SkillRecord } from "../catalog/types.js";
import { createExecutor } from "./create-executor.js";
import { createWorkspace } from "./create-workspace.js";
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
