/**
 * A reader of zip archives held in memory (downloads are capped at 64 MiB): the central directory's
 * entries, and each file's bytes inflated with `node:zlib` no larger than the size the directory
 * declares, CRC-checked. Stored and deflated entries; no ZIP64, no encryption.
 *
 * The central directory is the one parse: its sizes are the ones checked against the caps, and each
 * entry's local header must agree with it (name, method, and sizes and CRC unless a data descriptor
 * follows), so no reader can see a different archive than the one checked.
 */
import { crc32, inflateRawSync } from "node:zlib";
import type { ArchiveEntry, ArchiveEntryType } from "./archive-entry.js";
import { RemoteRootError } from "./remote-root-error.js";

/** One central-directory entry and where its data starts. */
export interface ZipItem {
  entry: ArchiveEntry;
  /** Reads (inflates) the entry's bytes; throws a {@link RemoteRootError} when they are corrupt. */
  read(): Buffer;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/** The entries of the zip archive `bytes`, in central-directory order. */
export function readZip(bytes: Buffer, archive: string): ZipItem[] {
  const bad = (what: string): never => {
    throw new RemoteRootError({ code: "root-fetch-failed", message: `${archive}: ${what}.` });
  };
  const end = findEndOfCentralDirectory(bytes);
  if (end < 0) bad("not a zip archive (no end of central directory)");
  const count = bytes.readUInt16LE(end + 10);
  const dirSize = bytes.readUInt32LE(end + 12);
  let at = bytes.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff || dirSize === 0xffffffff)
    bad("ZIP64 archives are not supported");
  if (at + dirSize > end) bad("the central directory lies outside the archive");
  const items: ZipItem[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) bad("a corrupt central directory");
    const madeBy = bytes.readUInt16LE(at + 4) >> 8;
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const crc = bytes.readUInt32LE(at + 16);
    const compressed = bytes.readUInt32LE(at + 20);
    const size = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const external = bytes.readUInt32LE(at + 38);
    const local = bytes.readUInt32LE(at + 42);
    // Bit 11: UTF-8 names; older archives are CP437, read here as latin1 (ASCII names are the same).
    if (at + 46 + nameLength > bytes.length) bad("a corrupt central directory");
    const rawName = bytes.subarray(at + 46, at + 46 + nameLength);
    const name = rawName.toString((flags & 0x800) !== 0 ? "utf8" : "latin1");
    at += 46 + nameLength + extraLength + commentLength;
    if (compressed === 0xffffffff || size === 0xffffffff)
      bad(`entry '${name}' needs ZIP64, which is not supported`);
    if (method === 0 && compressed !== size)
      bad(`entry '${name}' is stored with ${compressed} bytes but declares ${size}`);
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== 0x04034b50)
      bad(`entry '${name}' has no local header`);
    checkLocalHeader(bytes, local, { rawName, method, crc, compressed, size, flags }, () =>
      bad(
        `entry '${name}': its local header disagrees with the central directory (name, method, size or CRC)`,
      ),
    );
    const unixMode = madeBy === 3 ? external >>> 16 : 0;
    const type = entryType(name, unixMode, external);
    const entry: ArchiveEntry = { name, type, mode: unixMode & 0o777, size };
    items.push({
      entry,
      read: () => {
        if ((flags & 1) !== 0) bad(`entry '${name}' is encrypted`);
        const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
        if (start + compressed > bytes.length) bad(`entry '${name}' runs past the end of the archive`);
        const raw = bytes.subarray(start, start + compressed);
        let data: Buffer;
        if (method === 0) data = raw;
        else if (method === 8) {
          try {
            // Never more than the declared size: a bomb stops at the cap the caller checked.
            data = size === 0 ? Buffer.alloc(0) : inflateRawSync(raw, { maxOutputLength: size });
          } catch {
            return bad(`entry '${name}' inflates to more than its declared ${size} bytes, or is corrupt`);
          }
        } else return bad(`entry '${name}' uses compression method ${method} (only stored and deflate)`);
        if (data.length !== size || crc32(data) !== crc) bad(`entry '${name}' is corrupt (size or CRC)`);
        return data;
      },
    });
  }
  return items;
}

/**
 * Throws (by `refuse`) unless the local header at `local` names the same entry as the central directory:
 * the same name bytes and method, and — unless bit 3 says sizes follow the data — the same CRC and sizes.
 */
function checkLocalHeader(
  bytes: Buffer,
  local: number,
  central: { rawName: Buffer; method: number; crc: number; compressed: number; size: number; flags: number },
  refuse: () => never,
): void {
  const flags = bytes.readUInt16LE(local + 6);
  const nameLength = bytes.readUInt16LE(local + 26);
  if (local + 30 + nameLength > bytes.length) refuse();
  if (!bytes.subarray(local + 30, local + 30 + nameLength).equals(central.rawName)) refuse();
  if (bytes.readUInt16LE(local + 8) !== central.method) refuse();
  if ((flags & 0x8) !== 0 && (central.flags & 0x8) !== 0) return;
  if (
    bytes.readUInt32LE(local + 14) !== central.crc ||
    bytes.readUInt32LE(local + 18) !== central.compressed ||
    bytes.readUInt32LE(local + 22) !== central.size
  )
    refuse();
}

function entryType(name: string, unixMode: number, external: number): ArchiveEntryType {
  const kind = unixMode & S_IFMT;
  if (kind === S_IFLNK) return "symlink";
  if (kind === S_IFDIR || name.endsWith("/") || (external & 0x10) !== 0) return "dir";
  if (kind === 0 || kind === S_IFREG) return "file";
  return "special";
}

function findEndOfCentralDirectory(bytes: Buffer): number {
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let i = bytes.length - 22; i >= lowest; i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) return i;
  }
  return -1;
}
