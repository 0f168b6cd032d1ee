import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  makeTar,
  makeTarGz,
  makeTarGzBomb,
  makeZip,
  makeZipBomb,
  skillMd,
  tarHeader,
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

  /** A tar whose one file's 12-byte size field is `field` (checksum fixed), then `body` and the end blocks. */
  function tarWithSizeField(field: Buffer, body: Buffer): Buffer {
    const header = tarHeader({ name: "skills/x/big.bin" }, 0);
    field.copy(header, 124);
    header.write("        ", 148, "latin1");
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
    const padded = Buffer.alloc(Math.ceil(body.length / 512) * 512);
    body.copy(padded);
    return Buffer.concat([
      tarHeader({ name: "skills/x/SKILL.md" }, 0),
      header,
      padded,
      // What a desynchronised reader would take for a header: a 100 MiB file.
      tarHeader({ name: "skills/x/payload.bin" }, 100 * 1024 * 1024),
      Buffer.alloc(1024),
    ]);
  }
  const base256 = (bytes: number[]) => Buffer.from([...Array(12 - bytes.length).fill(0), ...bytes]);

  it.each([
    ["a negative octal size", Buffer.from("-0000001000\0", "latin1"), /size is not an octal number/],
    ["a negative base-256 size", Buffer.from([0xff, ...Array(9).fill(0xff), 0xfe, 0x00]), /negative size/],
    [
      "a base-256 size past 2^53",
      (() => {
        const field = base256([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
        field[0] = 0x80;
        return field;
      })(),
      /size overflows/,
    ],
    ["a size with junk in it", Buffer.from("00000012x4\0\0", "latin1"), /size is not an octal number/],
  ])("refuses a tar with %s before writing anything", async (_what, field, message) => {
    const tar = tarWithSizeField(field, Buffer.alloc(512, 0x41));
    for (const [bytes, format] of [
      [tar, "tar"],
      [gzipSync(tar), "tar.gz"],
    ] as const) {
      const error = await refusal(bytes, format);
      expect(error.message).toMatch(message);
    }
  });

  it("refuses a pax size that is not a size", async () => {
    const record = (text: string) => {
      let line = ` ${text}\n`;
      line = `${line.length + String(line.length).length}${line}`;
      return line;
    };
    for (const size of ["-1000", "99999999999999999999", "1e9", "0x10"]) {
      const pax = Buffer.from(record(`size=${size}`));
      const tar = Buffer.concat([
        tarHeader({ name: "PaxHeader" }, pax.length).fill(0x78, 156, 157),
        Buffer.concat([pax], 512),
        tarHeader({ name: "skills/x/SKILL.md" }, 0),
        Buffer.alloc(1024),
      ]);
      // The flag byte changed: fix the checksum.
      tar.write("        ", 148, "latin1");
      let sum = 0;
      for (const byte of tar.subarray(0, 512)) sum += byte;
      tar.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
      expect((await refusal(tar, "tar")).message).toMatch(/pax size .* that is not a size/);
    }
  });

  it("refuses a tar whose data is shorter or longer than its header says", async () => {
    const field = (n: number) => Buffer.from(`${n.toString(8).padStart(11, "0")}\0`, "latin1");
    // Says 600 bytes, has 20 and then the end: the stream ends inside the entry.
    const short = tarWithSizeField(field(600), Buffer.alloc(20, 0x41)).subarray(0, 1024 + 512 + 20);
    expect((await refusal(short, "tar")).message).toMatch(/truncated/);
    // Says 5 bytes, has 700: what follows its first block is no header.
    const long = tarWithSizeField(field(5), Buffer.alloc(700, 0x41));
    expect((await refusal(long, "tar")).message).toMatch(/wrong checksum/);
  });

  it("refuses more files than the entry cap (default 10,000) from a small archive, naming the cap", async () => {
    const entries = Array.from({ length: 10_001 }, (_, i) => ({ name: `many/f${i}` }));
    const tgz = makeTarGz(entries);
    expect(tgz.length).toBeLessThan(400 * 1024);
    for (const bytes of [tgz, makeZip(entries)]) {
      const error = await refusal(bytes);
      expect(error.message).toBe(
        "hostile: more than 10000 files and folders (the limit of one remote root, reached at 'many/f10000'); the archive was not extracted. Split the root into smaller ones.",
      );
    }
    const dest = path.join(dir, "tree");
    const small = { maxFileBytes: 1024, maxTotalBytes: 4096, maxEntries: 3 };
    const ok = [{ name: "a/SKILL.md", data: hello }, { name: "a/b" }];
    await extractArchive(makeTarGz(ok), dest, { archive: "ok", limits: small });
    expect(await listTree(dest)).toEqual(["a/", "a/SKILL.md", "a/b"]);
  });

  it("refuses a zip whose local header disagrees with its central directory, or inflates past its size", async () => {
    const zip = () => makeZip([{ name: "skills/x/SKILL.md", data: hello }]);
    const central = (bytes: Buffer) => bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    const lyingLocalSize = zip();
    lyingLocalSize.writeUInt32LE(100 * 1024 * 1024, 22);
    const otherLocalName = zip();
    otherLocalName.write("../", 30, "latin1");
    const smallCentralSize = zip();
    smallCentralSize.writeUInt32LE(10, central(smallCentralSize) + 24);
    smallCentralSize.writeUInt32LE(10, 22);
    const stored = zip();
    stored.writeUInt16LE(0, 8);
    stored.writeUInt16LE(0, central(stored) + 10);
    for (const bytes of [lyingLocalSize, otherLocalName])
      expect((await refusal(bytes)).message).toMatch(/local header disagrees with the central directory/);
    expect((await refusal(smallCentralSize)).message).toMatch(/inflates to more than its declared 10 bytes/);
    expect((await refusal(stored)).message).toMatch(/stored with \d+ bytes but declares \d+/);
  });

  it("refuses runs of extended headers, and more than 16 MiB of them in all", async () => {
    const longLink = (name: string): Buffer => {
      const data = Buffer.from(`${name}\0`);
      const header = tarHeader({ name: "././@LongLink" }, data.length);
      header.write("L", 156, "latin1");
      header.write("        ", 148, "latin1");
      let sum = 0;
      for (const byte of header) sum += byte;
      header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
      return Buffer.concat([header, data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
    };
    const file = (name: string) => Buffer.concat([tarHeader({ name }, 0)]);
    const run = Buffer.concat([
      ...Array.from({ length: 5 }, () => longLink("a/x")),
      file("a/x"),
      Buffer.alloc(1024),
    ]);
    expect((await refusal(run, "tar")).message).toMatch(/a run of extended headers with no entry/);
    const longName = `a/${"n".repeat(1024 * 1024 - 100)}`;
    const heavy = gzipSync(
      Buffer.concat([
        ...Array.from({ length: 17 }, (_, i) => [longLink(`${longName}${i}`), file(`a/${i}`)]).flat(),
        Buffer.alloc(1024),
      ]),
    );
    expect((await refusal(heavy, "tar.gz")).message).toMatch(/more than 16 MiB of extended headers/);
  });
});
