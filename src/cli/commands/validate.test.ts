import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../__fixtures__/run-cli.js";
import { fm, makeTempDir, writeSkill } from "../__fixtures__/skill-tree.js";

interface Report {
  skills: {
    path: string;
    name: string | null;
    valid: boolean;
    diagnostics: { code: string; severity: string }[];
  }[];
  diagnostics: { code: string }[];
}

let tmp: { dir: string; cleanup: () => Promise<void> };
let root: string;
beforeEach(async () => {
  tmp = await makeTempDir();
  root = path.join(tmp.dir, "skills");
  await writeSkill(root, "good", fm("good", "Does good things."));
  await writeSkill(root, "mismatch", fm("other-name", "Name differs from its folder."));
});
afterEach(async () => {
  await tmp.cleanup();
});

const validate = (args: string[], options: { tty?: boolean; env?: Record<string, string> } = {}) =>
  runCli(["validate", ...args], { cwd: tmp.dir, ...options });

describe("skillrt validate", () => {
  it("accepts a valid skill directory (exit 0) with a summary line", async () => {
    const { code, out } = await validate(["skills/good"]);
    expect(code).toBe(0);
    expect(out).toBe("✔ 1 skill valid\n");
  });

  it("accepts a SKILL.md file as its directory", async () => {
    const { code, out } = await validate([path.join(root, "good", "SKILL.md"), "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(out) as Report;
    expect(report.skills).toEqual([
      { path: path.join(root, "good"), name: "good", valid: true, diagnostics: [] },
    ]);
  });

  it("rejects a path through a file (skills/good/SKILL.md/..) as the reference does: it does not exist", async () => {
    const { code, out } = await validate(["skills/good/SKILL.md/..", "--strict", "--json"]);
    expect(code).toBe(1);
    const report = JSON.parse(out) as Report;
    expect(report.skills.map((s) => [s.valid, s.diagnostics.map((d) => d.code)])).toEqual([
      [false, ["path-not-found"]],
    ]);
    expect(out).toContain("Path does not exist: skills/good/SKILL.md/..");
    expect((await validate(["skills/good/../good", "--strict"])).code).toBe(0);
  });

  it("searches a root, reports errors linter-style and exits 1", async () => {
    const { code, out } = await validate(["skills", "--strict"]);
    expect(code).toBe(1);
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^skills\/mismatch\/SKILL\.md(:\d+)? {2}error {2}Directory name 'mismatch' must match skill name 'other-name' {2}name-directory-mismatch$/,
    );
    expect(lines.at(-1)).toBe("✖ 1 error in 2 skills");
  });

  it("checks the configured roots when no PATH is given, leniently by default", async () => {
    const { code, out } = await validate(["--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(out) as Report;
    expect(
      report.skills.map((s) => [s.name, s.valid, s.diagnostics.map((d) => `${d.severity} ${d.code}`)]),
    ).toEqual([
      ["good", true, []],
      ["other-name", true, ["warning name-directory-mismatch"]],
    ]);
    expect(report.diagnostics).toEqual([]);
    await fs.writeFile(path.join(root, "good", "SKILL.md"), "");
    const broken = await validate([]);
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(/^skills\/good\/SKILL\.md:1 {2}error {2}.+ {2}frontmatter-missing$/m);
    expect(broken.out).toMatch(/✖ 1 error, 1 warning in 2 skills\n$/);
  });

  it("reports the Claude Code fields an agent file sets that skillrt ignores, naming each (roots and a file)", async () => {
    await fs.mkdir(path.join(tmp.dir, "agents"));
    const file = path.join(tmp.dir, "agents", "planner.md");
    await fs.writeFile(
      file,
      "---\nname: planner\ndescription: Plans.\nskills: [good]\nmaxTurns: 1\npermissionMode: plan\ncolor: blue\n---\nPlan.\n",
    );
    const { code, out } = await validate(["--root", "skills"]);
    expect(code).toBe(0);
    expect(out).toMatch(
      /^agents\/planner\.md {2}warning {2}Agent 'planner': field 'permissionMode' \(Claude Code\) has no equivalent in skillrt and is ignored: .+ {2}agent-field-ignored$/m,
    );
    expect(out).toMatch(
      /^agents\/planner\.md {2}warning {2}Agent 'planner': field 'color' \(Claude Code\).+agent-field-ignored$/m,
    );
    expect(out).not.toContain("'maxTurns'");
    expect(out).not.toContain("'skills'");
    const one = await validate(["agents/planner.md", "--json"]);
    expect(one.code).toBe(0);
    const report = JSON.parse(one.out) as Report;
    expect(report.skills).toEqual([]);
    expect(report.diagnostics.map((d) => d.code)).toEqual(["agent-field-ignored", "agent-field-ignored"]);
    expect((await validate(["agents/planner.md"])).out).toMatch(/✔ 1 agent file valid \(2 warnings\)\n$/);
  });

  it("prints a summary with warnings when all skills are valid", async () => {
    const { code, out } = await validate(["skills"]);
    expect(code).toBe(0);
    expect(out).toMatch(
      /^skills\/mismatch\/SKILL\.md:2 {2}warning {2}.+ {2}name-directory-mismatch\n\n✔ 2 skills valid \(1 warning\)\n$/,
    );
  });

  it("reports a missing path, a non-skill file and a folder without skills, without throwing", async () => {
    await fs.writeFile(path.join(tmp.dir, "README.md"), "# hi\n");
    await fs.mkdir(path.join(tmp.dir, "empty"));
    const { code, out } = await validate(["nope", "README.md", "empty", "--json"]);
    expect(code).toBe(1);
    const report = JSON.parse(out) as Report;
    expect(
      report.skills.map((s) => [path.basename(s.path), s.name, s.valid, s.diagnostics.map((d) => d.code)]),
    ).toEqual([
      ["nope", null, false, ["path-not-found"]],
      ["README.md", null, false, ["not-a-directory"]],
      ["empty", null, false, ["skill-file-missing"]],
    ]);
  });

  it("reports discovery problems (a broken symlink) at the top level", async () => {
    await fs.symlink(path.join(tmp.dir, "gone"), path.join(root, "dangling"));
    const { out } = await validate(["skills", "--json"]);
    const report = JSON.parse(out) as Report;
    expect(report.diagnostics.map((d) => d.code)).toEqual(["symlink-broken"]);
    expect(report.skills).toHaveLength(2);
    const human = await validate(["skills"]);
    expect(human.out).toMatch(/^skills\/dangling {2}(warning|error) {2}.+ {2}symlink-broken$/m);
  });

  it("colours severities on a TTY unless NO_COLOR is set", async () => {
    const coloured = await validate(["skills", "--strict"], { tty: true, env: { HOME: tmp.dir } });
    expect(coloured.out).toContain("\u001b[31merror\u001b[39m");
    const plain = await validate(["skills", "--strict"], {
      tty: true,
      env: { HOME: tmp.dir, NO_COLOR: "1" },
    });
    expect(plain.out).not.toContain("\u001b[");
  });

  it("shows progress on a TTY for long runs and never when piped", async () => {
    for (let i = 0; i < 60; i++) await writeSkill(root, `s${i}`, fm(`s${i}`, `Skill ${i}.`));
    const tty = await validate(["skills"], { tty: true, env: { HOME: tmp.dir } });
    expect(tty.err).toContain("validating 62/62");
    expect(tty.err.endsWith("\r\u001b[K")).toBe(true);
    const piped = await validate(["skills"]);
    expect(piped.err).toBe("");
    expect(piped.out).toMatch(/62 skills/);
  });

  it("rejects unknown options with exit 2", async () => {
    const { code, err } = await validate(["--strct"]);
    expect(code).toBe(2);
    expect(err).toContain("Run 'skillrt validate --help' for usage.");
  });
});
