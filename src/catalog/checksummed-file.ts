import fs from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import { checkCacheDir, openCacheFile, writeCacheFile } from "../util/trusted-cache.js";

/**
 * Writes `body` behind a one-line header (`<magic> <version> <CRC-32 of the body> <body length>`) to
 * `file` in cache directory `dir` by the cache rule (`writeCacheFile`: the directory created 0700 and
 * refused unless it is the user's own and private; a private temporary file renamed into place, so readers
 * in other processes see the old file or the new one, never a mix). Throws on failure.
 */
export function writeChecksummedFile(
  dir: string,
  file: string,
  magic: string,
  version: number,
  body: Uint8Array,
): void {
  const header = `${magic} ${version} ${checksum(body)} ${body.length}\n`;
  writeCacheFile(dir, path.relative(dir, file), [header, body]);
}

/** Longest header line {@link readChecksummedFile} accepts. */
const MAX_HEADER = 200;

/** Default cap on a checksummed cache file's size (far above any real one: a planted file cannot make a reader allocate without bound). */
export const MAX_CACHE_FILE_BYTES = 512 * 1024 * 1024;

/**
 * The body of a file written by {@link writeChecksummedFile} with the same magic and version, or
 * undefined when the file is missing, of another kind or version, truncated or altered (checksum), or
 * when the cache rule refuses it (its directory is not the user's own and private; the file is a
 * symlink, a FIFO or anything but a regular file of the user's, or over `maxBytes`).
 * The body is read into a buffer of its own (offset 0, so 8-byte aligned: typed-array views over it
 * need no copy), not cut from a buffer of the whole file. Never throws.
 */
export function readChecksummedFile(
  file: string,
  magic: string,
  version: number,
  maxBytes = MAX_CACHE_FILE_BYTES,
): Buffer | undefined {
  if (!checkCacheDir(path.dirname(file)).ok) return undefined;
  const open = openCacheFile(file, maxBytes);
  if (open === undefined) return undefined;
  const fd = open.fd;
  try {
    const head = Buffer.allocUnsafe(MAX_HEADER + 1);
    const got = fs.readSync(fd, head, 0, head.length, 0);
    const newline = head.subarray(0, got).indexOf(10);
    if (newline < 0) return undefined;
    const [fileMagic, fileVersion, sum, length] = head.toString("latin1", 0, newline).split(" ");
    if (fileMagic !== magic || fileVersion !== String(version)) return undefined;
    const size = Number(length);
    if (!Number.isSafeInteger(size) || size < 0 || String(size) !== length) return undefined;
    if (newline + 1 + size !== open.size) return undefined; // longer or shorter than its header says
    // One byte more than the body: a file grown since it was opened is refused too.
    const body = Buffer.allocUnsafeSlow(size + 1);
    let read = 0;
    for (let n = 1; n > 0 && read < body.length; read += n) {
      n = fs.readSync(fd, body, read, body.length - read, newline + 1 + read);
    }
    if (read !== size) return undefined;
    const bytes = body.subarray(0, size);
    return sum === checksum(bytes) ? bytes : undefined;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The checksum in a header: the body's CRC-32 (zlib's) in hex. It catches torn and damaged files (what a
 * private cache directory meets); it is not a defence against someone who can write there.
 */
export function checksum(bytes: Uint8Array): string {
  return crc32(bytes).toString(16);
}
