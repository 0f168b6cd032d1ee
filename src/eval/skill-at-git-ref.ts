/**
 * A skill folder as it was at a git revision (an outcome eval's baseline: the previous version of the
 * skill), written out of the repository's object store with `git archive`; the working tree, the index
 * and HEAD are not touched.
 */
import { spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { SkillrtError } from "../errors/skillrt-error.js";

function run(
  command: string,
  args: readonly string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Writes the skill folder `skillDir` (inside a git work tree) as it was at `ref` into `<into>/<folder name>`
 * and returns that path. Throws `SkillrtError` (`invalid-argument`) when `skillDir` is not in a git
 * repository, `ref` is not a revision there, or the skill folder did not exist at `ref`.
 */
export async function skillAtGitRef(skillDir: string, ref: string, into: string): Promise<string> {
  const fail = (message: string) => new SkillrtError({ code: "invalid-argument", message });
  if (ref === "" || ref.startsWith("-")) throw fail(`'${ref}' is not a git revision`);
  const prefix = await run("git", ["rev-parse", "--show-prefix", "--show-toplevel"], skillDir);
  const [folderLine = "", top = ""] = prefix.stdout.split("\n");
  if (prefix.code !== 0 || top === "")
    throw fail(
      `${skillDir} is not in a git repository, so --baseline ${ref} cannot be read from git (give a folder instead)`,
    );
  const folder = folderLine.trim().replace(/\/$/, "");
  const tree = `${ref}:${folder}`;
  const exists = await run("git", ["cat-file", "-t", tree], top);
  if (exists.code !== 0 || exists.stdout.trim() !== "tree")
    throw fail(
      `the skill folder ${folder === "" ? "(the repository root)" : folder} does not exist at git revision '${ref}'`,
    );
  const target = path.join(into, path.basename(path.resolve(skillDir)));
  await mkdir(target, { recursive: true });
  // git archive | tar -x, without a shell: the revision is an argument, never parsed by one.
  const archive = spawn("git", ["archive", "--format=tar", tree], {
    cwd: top,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const tar = spawn("tar", ["-x", "-f", "-", "-C", target], { stdio: ["pipe", "ignore", "pipe"] });
  let errors = "";
  const collect = (chunk: Buffer) => {
    errors += chunk.toString("utf8");
  };
  archive.stderr.on("data", collect);
  tar.stderr.on("data", collect);
  archive.stdout.pipe(tar.stdin);
  const exit = (child: typeof archive | typeof tar) =>
    new Promise<number | null>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", resolve);
    });
  const [archived, extracted] = await Promise.all([exit(archive), exit(tar)]);
  if (archived !== 0 || extracted !== 0)
    throw fail(
      `could not read the skill at git revision '${ref}': ${errors.trim() || `exit ${archived ?? extracted}`}`,
    );
  return target;
}
