import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { crc32 as zlibCrc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { checksum, readChecksummedFile, writeChecksummedFile } from "./checksummed-file.js";
import { ContentHasher, contentHash, nameHash } from "./name-hash.js";

describe("checksum", () => {
  it("is zlib's CRC-32 in hex, small bodies and large alike", () => {
    expect(checksum(Buffer.from("123456789"))).toBe("cbf43926"); // the CRC-32 check value
    expect(checksum(new Uint8Array(0))).toBe("0");
    for (const size of [1, 7, 4096, 64 * 1024 - 1, 64 * 1024, 200_000]) {
      const bytes = randomBytes(size);
      expect(checksum(bytes), `size ${size}`).toBe(zlibCrc32(bytes).toString(16));
    }
  });

  it("round-trips a body and refuses it once a byte changed", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillrt-sum-"));
    try {
      const file = path.join(dir, "cache", "x.cache");
      for (const body of [Buffer.from("small body"), randomBytes(100_000)]) {
        writeChecksummedFile(path.dirname(file), file, "magic", 1, body);
        expect(readChecksummedFile(file, "magic", 1)?.equals(body)).toBe(true);
        expect(readChecksummedFile(file, "magic", 2)).toBeUndefined();
        const data = fs.readFileSync(file);
        data[data.length - 1]! ^= 1;
        fs.writeFileSync(file, data);
        expect(readChecksummedFile(file, "magic", 1)).toBeUndefined();
      }
      // No temporary file left behind.
      expect(fs.readdirSync(path.dirname(file))).toEqual(["x.cache"]);
      // The body comes in a buffer of its own (aligned for typed-array views); a file longer than its
      // header says, or without a header line, is refused.
      const body = randomBytes(5000);
      writeChecksummedFile(path.dirname(file), file, "magic", 1, body);
      const back = readChecksummedFile(file, "magic", 1);
      expect(back?.equals(body)).toBe(true);
      expect(back?.byteOffset).toBe(0);
      fs.appendFileSync(file, "x");
      expect(readChecksummedFile(file, "magic", 1)).toBeUndefined();
      fs.writeFileSync(file, "magic 1 ".padEnd(400, "0"));
      expect(readChecksummedFile(file, "magic", 1)).toBeUndefined();
      expect(readChecksummedFile(path.join(dir, "missing"), "magic", 1)).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("nameHash", () => {
  it("names the same text alike and different texts apart, in 24 hex digits", () => {
    const a = nameHash("/skills\0lenient");
    expect(a).toMatch(/^[0-9a-f]{24}$/);
    expect(nameHash("/skills\0lenient")).toBe(a);
    const names = new Set<string>();
    for (let i = 0; i < 10_000; i++)
      names.add(nameHash(`/home/u/skills-${i}\0${i % 2 ? "strict" : "lenient"}`));
    expect(names.size).toBe(10_000);
  });
});

describe("contentHash", () => {
  it("tells apart texts and numbers that differ in one place, and agrees on equal ones", () => {
    const ids = Float64Array.from([2049, 1234567, 6150, 1795742178404.36, 1795742178404.36]);
    const a = contentHash("lenient\u0001/s/a/SKILL.md", ids);
    expect(a).toMatch(/^[0-9a-f]{24}$/);
    expect(contentHash("lenient\u0001/s/a/SKILL.md", Float64Array.from(ids))).toBe(a);
    const seen = new Set([a]);
    for (let i = 0; i < ids.length; i++) {
      const changed = Float64Array.from(ids);
      changed[i] = changed[i]! + (i >= 3 ? 0.001 : 1); // a later mtime (sub-millisecond), or another inode
      seen.add(contentHash("lenient\u0001/s/a/SKILL.md", changed));
    }
    seen.add(contentHash("lenient\u0001/s/b/SKILL.md", ids));
    seen.add(contentHash("strict\u0001/s/a/SKILL.md", ids));
    seen.add(contentHash("lenient\u0001/s/a/SKILL.md", ids.subarray(0, 4)));
    expect(seen.size).toBe(ids.length + 4);
  });
});

describe("ContentHasher", () => {
  it("hashes pieces as contentHash hashes them joined: SHA-256 of the texts' code units, then the numbers' bits", () => {
    const ids = Float64Array.from([2049, 1234567, 6150, 1795742178404.36, 1795742178404.36]);
    const joined = "lenient\u0001/s/a/SKILL.md\u0001/s/b/SKILL.md";
    // The FNV digests of earlier versions are gone: a cache keyed by one is not found and is built again.
    const expected = createHash("sha256")
      .update(Buffer.from(joined, "utf16le"))
      .update(Buffer.from(ids.buffer))
      .digest("hex")
      .slice(0, 24);
    expect(contentHash(joined, ids)).toBe(expected);
    expect(nameHash("/home/u/skills\0lenient")).toBe(
      createHash("sha256").update("/home/u/skills\0lenient").digest("hex").slice(0, 24),
    );
    const pieces = new ContentHasher()
      .text("lenient")
      .text("\u0001")
      .text("/s/a/SKILL.md")
      .text("\u0001/s/b/SKILL.md")
      .numbers(ids.subarray(0, 2))
      .numbers(ids.subarray(2));
    expect(pieces.digest()).toBe(expected);
  });
});
