/**
 * A streaming reader of tar archives (POSIX ustar, pax `path`/`linkpath`/`size` records, GNU long
 * names): entries in order, each with its data when asked for. Only what skill archives need; no
 * sparse files, no multi-volume archives (those are reported as special entries).
 */
import type { ArchiveEntry, ArchiveEntryType } from "./archive-entry.js";
import { RemoteRootError } from "./remote-root-error.js";

const BLOCK = 512;

/** One tar entry, with its bytes when `withData` was set and the entry is a file. */
export interface TarItem {
  entry: ArchiveEntry;
  data?: Buffer;
}

/**
 * The entries of the tar stream `chunks`, in order. A header whose checksum is wrong, or a stream that
 * ends inside an entry, throws a {@link RemoteRootError}. With `withData`, each file's bytes come with
 * its entry (the caller caps sizes from the entry before the next one is read); without it, data is
 * skipped as it streams by.
 *
 * @param accept - called with each entry before its data is read; may throw to stop the walk
 */
export async function* readTar(
  chunks: AsyncIterable<Uint8Array>,
  options: { withData: boolean; archive: string; accept?: (entry: ArchiveEntry) => void },
): AsyncGenerator<TarItem> {
  const pending: Buffer[] = [];
  let buffered = 0;
  const iterator = chunks[Symbol.asyncIterator]();
  let ended = false;

  const fill = async (n: number): Promise<boolean> => {
    while (buffered < n && !ended) {
      const next = await iterator.next();
      if (next.done === true) ended = true;
      else {
        const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
        pending.push(chunk);
        buffered += chunk.length;
      }
    }
    return buffered >= n;
  };
  const take = (n: number): Buffer => {
    const all = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending);
    pending.length = 0;
    const out = all.subarray(0, n);
    if (all.length > n) pending.push(all.subarray(n));
    buffered -= n;
    return out;
  };
  const truncated = (): never => {
    throw new RemoteRootError({
      code: "root-fetch-failed",
      message: `${options.archive}: the tar archive is truncated.`,
    });
  };
  // Skips (or reads) `size` bytes plus the padding to the next block.
  const body = async (size: number, keep: boolean): Promise<Buffer | undefined> => {
    const padded = Math.ceil(size / BLOCK) * BLOCK;
    if (keep) {
      if (!(await fill(padded))) truncated();
      return Buffer.from(take(padded).subarray(0, size));
    }
    let left = padded;
    while (left > 0) {
      if (buffered === 0 && !(await fill(1))) truncated();
      const step = Math.min(left, buffered);
      take(step);
      left -= step;
    }
    return undefined;
  };

  let longName: string | undefined;
  let pax: Record<string, string> = {};
  try {
    while (true) {
      if (!(await fill(BLOCK))) {
        if (buffered === 0) return; // no end-of-archive blocks: accepted, as GNU tar does
        truncated();
      }
      const header = take(BLOCK);
      if (header.every((byte) => byte === 0)) return;
      verifyChecksum(header, options.archive);
      const flag = String.fromCharCode(header[156] ?? 0);
      const size = Number(pax["size"] ?? readNumber(header, 124, 12));
      if (flag === "x" || flag === "g" || flag === "L" || flag === "K") {
        if (size > 1024 * 1024) throw bad(options.archive, "an extended header over 1 MiB");
        const data = (await body(size, true)) as Buffer;
        if (flag === "x") pax = parsePax(data);
        else if (flag === "L") longName = cString(data, 0, data.length);
        continue;
      }
      let name = pax["path"] ?? longName ?? entryName(header);
      if (name === "") name = ".";
      const type = entryType(flag, name);
      const entry: ArchiveEntry = { name, type, mode: readNumber(header, 100, 8) & 0o777, size };
      longName = undefined;
      pax = {};
      options.accept?.(entry);
      // Links and special entries carry no data in tar (a hard link's size is 0).
      const dataSize = type === "file" ? size : 0;
      const data = await body(dataSize, options.withData);
      yield data === undefined ? { entry } : { entry, data };
    }
  } finally {
    await iterator.return?.();
  }
}

function entryName(header: Buffer): string {
  const name = cString(header, 0, 100);
  const ustar = header.toString("latin1", 257, 262) === "ustar";
  const prefix = ustar ? cString(header, 345, 155) : "";
  return prefix === "" ? name : `${prefix}/${name}`;
}

function entryType(flag: string, name: string): ArchiveEntryType {
  switch (flag) {
    case "0":
    case "\0":
    case "7":
      return name.endsWith("/") ? "dir" : "file";
    case "5":
      return "dir";
    case "1":
      return "hardlink";
    case "2":
      return "symlink";
    default:
      return "special";
  }
}

function cString(buffer: Buffer, start: number, length: number): string {
  const end = buffer.indexOf(0, start);
  return buffer.toString("utf8", start, end < 0 || end > start + length ? start + length : end);
}

/** An octal field, or GNU base-256 when the high bit of its first byte is set. */
function readNumber(header: Buffer, start: number, length: number): number {
  if (((header[start] ?? 0) & 0x80) !== 0) {
    let value = (header[start] ?? 0) & 0x7f;
    for (let i = start + 1; i < start + length; i++) value = value * 256 + (header[i] ?? 0);
    return value;
  }
  const text = header.toString("latin1", start, start + length).replace(/[\0 ]+/g, "");
  return text === "" ? 0 : Number.parseInt(text, 8);
}

function verifyChecksum(header: Buffer, archive: string): void {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (header[i] ?? 0);
  if (sum !== readNumber(header, 148, 8))
    throw bad(archive, "a header with a wrong checksum (not a tar archive?)");
}

function parsePax(data: Buffer): Record<string, string> {
  const records: Record<string, string> = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space < 0) break;
    const length = Number.parseInt(data.toString("latin1", at, space), 10);
    if (!(length > 0)) break;
    const record = data.toString("utf8", space + 1, at + length - 1);
    const eq = record.indexOf("=");
    if (eq > 0) records[record.slice(0, eq)] = record.slice(eq + 1);
    at += length;
  }
  return records;
}

function bad(archive: string, what: string): RemoteRootError {
  return new RemoteRootError({ code: "root-fetch-failed", message: `${archive}: ${what}.` });
}
