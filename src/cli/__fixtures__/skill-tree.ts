import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** A temp directory for one test; `cleanup` removes it. */
export async function makeTempDir(
  prefix = "skillrt-cli-",
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
  return { dir, cleanup: () => fs.rm(dir, { recursive: true, force: true }) };
}

/** Writes `<root>/<dirName>/SKILL.md` with the given frontmatter lines and body; returns the skill dir. */
export async function writeSkill(
  root: string,
  dirName: string,
  frontmatter: string,
  body = "# Instructions\n\nDo the thing.\n",
  files: Record<string, string | Uint8Array> = {},
): Promise<string> {
  const dir = path.join(root, dirName);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, "SKILL.md"), `---\n${frontmatter}\n---\n\n${body}`);
  for (const [relative, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
    await fs.writeFile(path.join(dir, relative), content);
  }
  return dir;
}

/** `name: <name>\ndescription: <description>`. */
export function fm(name: string, description: string, extra = ""): string {
  return `name: ${name}\ndescription: ${description}${extra === "" ? "" : `\n${extra}`}`;
}
