import fs from "node:fs";

/**
 * Writes `body` behind a one-line header (`<magic> <version> <CRC-32 of the body> <body length>`) to a
 * private temporary file in `dir` (created 0700), then renames it to `file`: readers in other processes
 * see the old file or the new one, never a mix. Throws the fs error on failure (the temporary file is
 * removed).
 */
export function writeChecksummedFile(
  dir: string,
  file: string,
  magic: string,
  version: number,
  body: Uint8Array,
): void {
  const header = `${magic} ${version} ${checksum(body)} ${body.length}\n`;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Unique enough to never meet another writer's; `wx` below refuses any file already there.
  const temp = `${file}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}.tmp`;
  // `wx`: never follow or reuse a file someone else put at the temporary name.
  const fd = fs.openSync(temp, "wx", 0o600);
  try {
    fs.writeSync(fd, header);
    fs.writeSync(fd, body);
    fs.closeSync(fd);
    fs.renameSync(temp, file);
  } catch (error) {
    try {
      fs.closeSync(fd);
    } catch {
      // already closed
    }
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** Longest header line {@link readChecksummedFile} accepts. */
const MAX_HEADER = 200;

/**
 * The body of a file written by {@link writeChecksummedFile} with the same magic and version, or
 * undefined when the file is missing, of another kind or version, truncated or altered (checksum).
 * The body is read into a buffer of its own (offset 0, so 8-byte aligned: typed-array views over it
 * need no copy), not cut from a buffer of the whole file. Never throws.
 */
export function readChecksummedFile(file: string, magic: string, version: number): Buffer | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.allocUnsafe(MAX_HEADER + 1);
    const got = fs.readSync(fd, head, 0, head.length, 0);
    const newline = head.subarray(0, got).indexOf(10);
    if (newline < 0) return undefined;
    const [fileMagic, fileVersion, sum, length] = head.toString("latin1", 0, newline).split(" ");
    if (fileMagic !== magic || fileVersion !== String(version)) return undefined;
    const size = Number(length);
    if (!Number.isSafeInteger(size) || size < 0 || String(size) !== length) return undefined;
    // One byte more than the body: a file longer than its header says is refused too.
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
 * The checksum in a header: the body's CRC-32 in hex. It catches torn and damaged files (what a private
 * cache directory meets); it is not a defence against someone who can write there. Small bodies are
 * summed here; large ones by zlib (native, loaded only then: a short command reading a small cache does
 * not pay for loading it).
 */
export function checksum(bytes: Uint8Array): string {
  const sum = bytes.length < NATIVE_ABOVE ? crc32(bytes) : process.getBuiltinModule("node:zlib").crc32(bytes);
  return sum.toString(16);
}

/** Bodies at least this long are summed by zlib. */
const NATIVE_ABOVE = 64 * 1024;

let table: Int32Array | undefined;

/** CRC-32 (IEEE 802.3, as zlib's), one byte at a time. */
export function crc32(bytes: Uint8Array): number {
  table ??= crcTable();
  let crc = -1;
  for (let i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

function crcTable(): Int32Array {
  const out = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    out[n] = c;
  }
  return out;
}
