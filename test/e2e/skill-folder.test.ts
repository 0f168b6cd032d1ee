/**
 * Scripts see their skill folder as it is: `skillrt run` over a generated skill of nested folders, with a
 * packing script written the way skill-creator's `package_skill.py` is (`Path(".").resolve().rglob("*")`,
 * run as `python3 -m scripts.<module> . <out>`), packs every file of the skill and nothing else, under
 * the sandbox and the local executor alike. The folder stays read-only in the sandbox.
 */
import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeSandbox } from "../../src/exec/sandbox-executor.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

const PACKER = `import os
import sys
import zipfile
from pathlib import Path

from scripts.helpers import archive_name


def main():
    skill = Path(sys.argv[1]).resolve()
    out = Path(sys.argv[2]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    target = out / archive_name(skill)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in skill.rglob("*"):
            if file.is_file():
                archive.write(file, file.relative_to(skill))
    walked = sorted(
        os.path.relpath(os.path.join(d, f), ".") for d, _, files in os.walk(".") for f in files
    )
    with zipfile.ZipFile(target) as archive:
        print("zip", "|".join(sorted(archive.namelist())))
    print("walk", "|".join(walked))
    print("top", "|".join(sorted(os.listdir("."))))


main()
`;

const FILES: Record<string, string> = {
  "LICENSE.txt": "license\n",
  "scripts/__init__.py": "",
  "scripts/pack.py": PACKER,
  "scripts/helpers.py": 'def archive_name(path):\n    return path.name + ".skill"\n',
  "references/guide.md": "# Guide\n",
  "references/deep/deeper/note.md": "deep\n",
  "assets/templates/page.html": "<p>page</p>\n",
  "agents/grader.md": "grader\n",
  ".hidden/config.json": "{}\n",
};

/** Every regular file below `dir`, relative, sorted. */
async function filesBelow(dir: string, rel = ""): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) found.push(...(await filesBelow(dir, child)));
    else if (entry.isFile()) found.push(child);
  }
  return found.sort();
}

const sandbox = probeSandbox();

describe("a skill's folder in the workspace is the real folder", () => {
  let tmp: string;
  let root: string;
  let skillDir: string;
  let expected: string[];

  beforeAll(async () => {
    assertBuilt();
    tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), "skillrt-folder-")));
    root = path.join(tmp, "skills");
    skillDir = path.join(root, "packer");
    await mkdir(skillDir, { recursive: true });
    await writeFile(
      path.join(skillDir, "SKILL.md"),
      "---\nname: packer\ndescription: Packs itself into an archive.\n---\nRun scripts/pack.py.\n",
    );
    for (const [rel, content] of Object.entries(FILES)) {
      await mkdir(path.dirname(path.join(skillDir, rel)), { recursive: true });
      await writeFile(path.join(skillDir, rel), content);
    }
    await chmod(path.join(skillDir, "scripts/pack.py"), 0o755);
    expected = await filesBelow(skillDir);
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  const executors = [...(sandbox.ok ? ["sandbox"] : []), "local"];
  for (const executor of executors) {
    it(`${executor}: python3 -m scripts.pack . "$OUTPUT_DIR" packs every file, as outside skillrt`, async () => {
      const run = await runCli(
        [
          "run",
          "packer",
          "--root",
          root,
          "--executor",
          executor,
          "--json",
          "--",
          // Root writes through the copy's read-only modes (as it would into the real folder), so
          // Python's bytecode cache would land in it; every other user gets EACCES and no cache.
          `python3 ${executor === "local" && process.getuid?.() === 0 ? "-B " : ""}-m scripts.pack . "$OUTPUT_DIR"`,
        ],
        { cwd: tmp, env: {} },
      );
      const result = JSON.parse(run.stdout) as { exitCode: number; stdout: string; stderr: string };
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      const lines = Object.fromEntries(
        result.stdout
          .trim()
          .split("\n")
          .map((line) => [line.slice(0, line.indexOf(" ")), line.slice(line.indexOf(" ") + 1).split("|")]),
      );
      expect(expected).toHaveLength(Object.keys(FILES).length + 1);
      expect(lines["zip"]).toEqual(expected);
      expect(lines["walk"]).toEqual(expected);
      // No links to workspace folders are added to the skill's folder.
      expect(lines["top"]).toEqual((await readdir(skillDir)).sort());
    });
  }

  it.skipIf(!sandbox.ok)("sandbox: the folder is read-only, and the run says where to write", async () => {
    const run = await runCli(
      ["run", "packer", "--root", root, "--executor", "sandbox", "--json", "--", "echo changed > SKILL.md"],
      { cwd: tmp, env: {} },
    );
    const result = JSON.parse(run.stdout) as { exitCode: number; stderr: string };
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/Read-only file system/);
    expect(run.stderr).toContain("the skill folder is read-only: write files to $OUTPUT_DIR");
    expect(await readFile(path.join(skillDir, "SKILL.md"), "utf8")).toContain("name: packer");
  });
});
