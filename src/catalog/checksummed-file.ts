import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { crc32 } from "node:zlib";

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
  const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
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

/**
 * The body of a file written by {@link writeChecksummedFile} with the same magic and version, or
 * undefined when the file is missing, of another kind or version, truncated or altered (checksum).
 * Never throws.
 */
export function readChecksummedFile(file: string, magic: string, version: number): Buffer | undefined {
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  const newline = data.indexOf(10);
  if (newline < 0 || newline > 200) return undefined;
  const [fileMagic, fileVersion, sum, length] = data.toString("latin1", 0, newline).split(" ");
  if (fileMagic !== magic || fileVersion !== String(version)) return undefined;
  const body = data.subarray(newline + 1);
  if (length !== String(body.length) || sum !== checksum(body)) return undefined;
  return body;
}

/**
 * The checksum in a header: the body's CRC-32 in hex. It catches torn and damaged files (what a private
 * cache directory meets); it is not a defence against someone who can write there.
 */
export function checksum(bytes: Uint8Array): string {
  return crc32(bytes).toString(16);
}
