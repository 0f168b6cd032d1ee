import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  makeTar,
  makeTarGz,
  makeTarGzBomb,
  makeZip,
  makeZipBomb,
  skillMd,
} from "./__fixtures__/make-archives.js";
import { extractArchive } from "./extract-archive.js";
import { RemoteRootError } from "./remote-root-error.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-extract-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const hello = skillMd("hello", "Says hello");

async function listTree(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)) + (e.isDirectory() ? "/" : ""))
    .sort();
}

async function refusal(bytes: Buffer, format?: "zip" | "tar" | "tar.gz"): Promise<RemoteRootError> {
  const dest = path.join(dir, "tree");
  const error = await extractArchive(bytes, dest, { format, archive: "hostile" }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RemoteRootError);
  // Nothing was written: not even the files that came before the bad entry, nor the folder itself.
  expect(await listTree(dir)).toEqual([]);
  return error as RemoteRootError;
}

describe("extractArchive", () => {
  it("extracts tar, tar.gz and zip archives (format from the magic bytes), executable bits kept", async () => {
    const entries = [
      { name: "skills/", type: "dir" as const },
      { name: "skills/hello/SKILL.md", data: hello },
      { name: "./skills/hello/scripts/run.sh", data: "echo hi\n", mode: 0o755 },
    ];
    for (const [i, bytes] of [makeTar(entries), makeTarGz(entries), makeZip(entries)].entries()) {
      const dest = path.join(dir, `t${i}`);
      await extractArchive(bytes, dest, { archive: `a${i}` });
      expect(await listTree(dest)).toEqual([
        "skills/",
        "skills/hello/",
        "skills/hello/SKILL.md",
        "skills/hello/scripts/",
        "skills/hello/scripts/run.sh",
      ]);
      expect(await readFile(path.join(dest, "skills/hello/SKILL.md"), "utf8")).toBe(hello);
      expect((await stat(path.join(dest, "skills/hello/scripts/run.sh"))).mode & 0o777).toBe(0o755);
      expect((await stat(path.join(dest, "skills/hello/SKILL.md"))).mode & 0o777).toBe(0o644);
    }
  });

  it("reads archives made by the system tar (GNU, long names) and zip", async () => {
    const src = path.join(dir, "src");
    const long = `${"n".repeat(120)}/SKILL.md`;
    execFileSync("mkdir", ["-p", path.join(src, "hello", path.dirname(long))]);
    await writeFile(path.join(src, "hello", long), hello);
    await writeFile(path.join(src, "hello", "SKILL.md"), hello);
    execFileSync("tar", ["-czf", path.join(dir, "a.tgz"), "-C", src, "hello"]);
    execFileSync("zip", ["-qr", path.join(dir, "a.zip"), "hello"], { cwd: src });
    for (const name of ["a.tgz", "a.zip"]) {
      const dest = path.join(dir, `out-${name}`);
      await extractArchive(await readFile(path.join(dir, name)), dest, { archive: name });
      expect(await readFile(path.join(dest, "hello", long), "utf8")).toBe(hello);
      expect(await readFile(path.join(dest, "hello", "SKILL.md"), "utf8")).toBe(hello);
    }
  });

  const hostile: Array<[string, { name: string; type?: "symlink" | "fifo"; target?: string }, RegExp]> = [
    [
      "a '..' entry",
      { name: "skills/../../evil.txt" },
      /entry 'skills\/\.\.\/\.\.\/evil\.txt' has '\.\.' in its path/,
    ],
    ["an absolute entry", { name: "/tmp/evil.txt" }, /entry '\/tmp\/evil\.txt' has an absolute path/],
    ["a ':' entry", { name: "C:evil.txt" }, /entry 'C:evil\.txt' has ':' in its name/],
    [
      "a symlink entry",
      { name: "skills/link", type: "symlink", target: "/etc/passwd" },
      /entry 'skills\/link' is a link/,
    ],
    ["a FIFO entry", { name: "skills/pipe", type: "fifo" }, /entry 'skills\/pipe' is a special file/],
  ];
  for (const [what, bad, message] of hostile) {
    it(`refuses an archive with ${what}, naming it, and writes nothing`, async () => {
      const entries = [{ name: "skills/hello/SKILL.md", data: hello }, bad];
      for (const bytes of [makeTarGz(entries), makeZip(entries)]) {
        const error = await refusal(bytes);
        expect(error.code).toBe("archive-entry-rejected");
        expect(error.message).toMatch(message);
      }
      await expect(stat(path.join(dir, "..", "evil.txt"))).rejects.toThrow();
    });
  }

  it("refuses a 300 MiB extraction bomb (5 × 60 MiB) at the 256 MiB total cap, before writing", async () => {
    const mib = 1024 * 1024;
    const tgz = await makeTarGzBomb(5, 60 * mib);
    const zip = makeZipBomb(5, 60 * mib);
    expect(tgz.length + zip.length).toBeLessThan(2 * mib);
    for (const bytes of [tgz, zip]) {
      const error = await refusal(bytes);
      expect(error.message).toMatch(
        /entry 'bomb\/zeros-4\.bin' takes the extracted size past the 256 MiB limit/,
      );
    }
  });

  it("refuses one file over the 64 MiB per-file cap", async () => {
    const error = await refusal(makeZipBomb(1, 65 * 1024 * 1024));
    expect(error.message).toMatch(/entry 'bomb\/zeros-0\.bin' is 65 MiB, over the 64 MiB limit per file/);
  });

  it("refuses a file that is no archive, and a corrupt one", async () => {
    expect((await refusal(Buffer.from("<html>not found</html>"))).message).toMatch(
      /unsupported skills root file/,
    );
    const tar = makeTar([{ name: "a/SKILL.md", data: hello }]);
    tar[0] = 0x41; // header checksum no longer matches
    expect((await refusal(tar, "tar")).message).toMatch(/wrong checksum/);
  });
});
