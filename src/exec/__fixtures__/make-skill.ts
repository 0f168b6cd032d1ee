/** Test helpers: real skill directories in temp dirs. */
import { chmod, mkdir, mkdtemp, realpath, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SkillRecord } from "../../catalog/types.js";

/** Creates `<tmp>/<name>/` with a SKILL.md and the given files (relative path → content). */
export async function makeSkill(
  name: string,
  files: Record<string, string | Buffer> = {},
): Promise<SkillRecord> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), "skillrt-exec-skill-")));
  const dir = path.join(base, name);
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: test skill ${name}\n---\nBody.\n`,
  );
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
    if (rel.startsWith("scripts/")) await chmod(file, 0o755);
  }
  return {
    name,
    description: `test skill ${name}`,
    location: path.join(dir, "SKILL.md"),
    dir,
    scope: "root",
    source: base,
    origin: { kind: "fs", id: base, label: `root ${base}` },
    extras: {},
    disableModelInvocation: false,
    userInvocable: true,
    active: false,
    diagnostics: [],
  };
}

/** A temp directory for workspaces. */
export async function makeTempDir(prefix = "skillrt-exec-"): Promise<string> {
  return realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
}
