import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discoverSkills as discoverAsync, discoverSkillsSync } from "./discover-skills.js";
import type { DiscoverOptions, DiscoveryResult, SkillRoot } from "./types.js";

let tmp: string;

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-discover-")));
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

async function skill(dir: string, file = "SKILL.md"): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, file), `---\nname: ${path.basename(dir)}\ndescription: d\n---\nbody\n`);
  return dir;
}

const root = (p: string) => ({ path: p, scope: "root" as const });

const drivers: [string, (roots: SkillRoot[], options?: DiscoverOptions) => Promise<DiscoveryResult>][] = [
  ["async", discoverAsync],
  ["sync", async (roots, options) => discoverSkillsSync(roots, options)],
];

describe.each(drivers)("discoverSkills (%s)", (_label, discoverSkills) => {
  it("finds skills at any depth, nested inside other skills and in hidden folders", async () => {
    await skill(`${tmp}/a`);
    await skill(`${tmp}/a/sub/inner`);
    await skill(`${tmp}/a/scripts/not-a-skill`);
    await skill(`${tmp}/.claude/skills/hidden`);
    await skill(`${tmp}/group/.system/sys`);
    await skill(`${tmp}/node_modules/pkg`);
    await skill(`${tmp}/.git/x`);
    const { skills, diagnostics } = await discoverSkills([root(tmp)]);
    expect(skills.map((s) => path.relative(tmp, s.foundAt))).toEqual([
      ".claude/skills/hidden",
      "a",
      "a/sub/inner",
      "group/.system/sys",
    ]);
    expect(skills.find((s) => s.foundAt.endsWith("inner"))?.depth).toBe(3);
    expect(diagnostics).toEqual([]);
  });

  it("accepts lowercase skill.md and prefers SKILL.md when both exist", async () => {
    await skill(`${tmp}/lower`, "skill.md");
    await skill(`${tmp}/both`, "skill.md");
    await skill(`${tmp}/both`, "SKILL.md");
    const { skills } = await discoverSkills([root(tmp)]);
    expect(skills.map((s) => path.relative(tmp, s.skillFile))).toEqual(["both/SKILL.md", "lower/skill.md"]);
  });

  it("treats a root that holds SKILL.md as one skill at depth 0", async () => {
    await skill(`${tmp}/solo`);
    const { skills } = await discoverSkills([root(`${tmp}/solo`)]);
    expect(skills).toHaveLength(1);
    expect(skills[0]).toMatchObject({ dir: `${tmp}/solo`, depth: 0, skillFile: `${tmp}/solo/SKILL.md` });
  });

  it("follows symlinked skills and symlinked SKILL.md files, and dedupes by real path", async () => {
    await skill(`${tmp}/store/real`);
    await fs.mkdir(`${tmp}/r`);
    await fs.symlink(`${tmp}/store/real`, `${tmp}/r/linked`);
    await fs.symlink(`${tmp}/store/real`, `${tmp}/r/linked-again`);
    await fs.mkdir(`${tmp}/r/filelink`);
    await fs.symlink(`${tmp}/store/real/SKILL.md`, `${tmp}/r/filelink/SKILL.md`);
    const { skills, diagnostics } = await discoverSkills([root(`${tmp}/r`)]);
    expect(skills.map((s) => [path.basename(s.foundAt), s.dir, s.skillFile])).toEqual([
      ["filelink", `${tmp}/r/filelink`, `${tmp}/store/real/SKILL.md`],
      ["linked", `${tmp}/store/real`, `${tmp}/store/real/SKILL.md`],
    ]);
    expect(diagnostics).toEqual([]);
  });

  it("stops at symlink loops with one diagnostic per link", async () => {
    await skill(`${tmp}/r/a`);
    await fs.symlink(`${tmp}/r`, `${tmp}/r/a/up`);
    await fs.symlink(`${tmp}/r/loop2`, `${tmp}/r/loop1`);
    await fs.symlink(`${tmp}/r/loop1`, `${tmp}/r/loop2`);
    const { skills, diagnostics } = await discoverSkills([root(`${tmp}/r`)]);
    expect(skills.map((s) => path.basename(s.dir))).toEqual(["a"]);
    expect(diagnostics.map((d) => [d.code, path.basename(d.path)]).sort()).toEqual([
      ["symlink-loop", "loop1"],
      ["symlink-loop", "loop2"],
      ["symlink-loop", "up"],
    ]);
  });

  it("reports broken links to directories and to SKILL.md", async () => {
    await fs.mkdir(`${tmp}/r/half`, { recursive: true });
    await fs.symlink(`${tmp}/nowhere`, `${tmp}/r/gone`);
    await fs.symlink(`${tmp}/nowhere.md`, `${tmp}/r/half/SKILL.md`);
    const { skills, diagnostics } = await discoverSkills([root(`${tmp}/r`)]);
    expect(skills).toEqual([]);
    expect(diagnostics.map((d) => [d.code, path.relative(tmp, d.path)]).sort()).toEqual([
      ["symlink-broken", "r/gone"],
      ["symlink-broken", "r/half/SKILL.md"],
    ]);
  });

  it("stops at maxDepth with a depth-limit warning", async () => {
    await skill(`${tmp}/1/2/shallow`);
    await skill(`${tmp}/1/2/3/4/deep`);
    const { skills, diagnostics } = await discoverSkills([root(tmp)], { maxDepth: 3 });
    expect(skills.map((s) => path.basename(s.dir))).toEqual(["shallow"]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: "depth-limit", severity: "warning", path: tmp });
    expect(diagnostics[0]?.message).toContain("maxDepth");
    const deeper = await discoverSkills([root(tmp)], { maxDepth: 5 });
    expect(deeper.skills).toHaveLength(2);
  });

  it("bounds directories without SKILL.md (scan-limit) but never the skills themselves", async () => {
    for (let i = 0; i < 30; i++) await skill(`${tmp}/s${String(i).padStart(2, "0")}`);
    for (let i = 0; i < 5; i++) await skill(`${tmp}/plain${i}/deeper/nested${i}`);
    const limited = await discoverSkills([root(tmp)], { maxDirs: 3 });
    expect(limited.skills.filter((s) => s.dir.includes("/s"))).toHaveLength(30);
    expect(limited.skills.length).toBeLessThan(35);
    expect(limited.diagnostics.map((d) => d.code)).toEqual(["scan-limit"]);
    expect(limited.diagnostics[0]?.message).toContain("maxDirs");
    const full = await discoverSkills([root(tmp)]);
    expect(full.skills).toHaveLength(35);
    expect(full.diagnostics).toEqual([]);
  });

  it("reports a missing explicit root and ignores a missing optional one", async () => {
    const missing = await discoverSkills([root(`${tmp}/nope`)]);
    expect(missing.diagnostics.map((d) => d.code)).toEqual(["path-not-found"]);
    const optional = await discoverSkills([{ path: `${tmp}/nope`, scope: "user", optional: true }]);
    expect(optional).toMatchObject({ skills: [], diagnostics: [] });
  });

  it("keeps root order, then sorted path order, and scans a directory only once across roots", async () => {
    await skill(`${tmp}/b/zeta`);
    await skill(`${tmp}/a/alpha`);
    await skill(`${tmp}/a/beta`);
    const { skills } = await discoverSkills([
      { path: `${tmp}/b`, scope: "project" },
      { path: `${tmp}/a`, scope: "user" },
      { path: tmp, scope: "extra" },
    ]);
    expect(skills.map((s) => [path.basename(s.dir), s.scope])).toEqual([
      ["zeta", "project"],
      ["alpha", "user"],
      ["beta", "user"],
    ]);
  });
});
