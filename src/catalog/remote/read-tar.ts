/**
 * A streaming reader of tar archives (POSIX ustar, pax `path`/`linkpath`/`size` records, GNU long
 * names): entries in order, each with where its data starts in the (decompressed) stream. Only what skill
 * archives need; no sparse files, no multi-volume archives (those are reported as special entries).
 *
 * Sizes are read strictly: a negative base-256 size, one past 2^53, an octal field with anything but
 * digits 0-7, or a pax `size` that is not a decimal number refuses the archive. The walk of
 * {@link readTar} is the one parse of an archive: {@link readTarRanges} then takes exactly the bytes it
 * found, so the sizes checked are the sizes written.
 */
import type { ArchiveEntry, ArchiveEntryType } from "./archive-entry.js";
import { RemoteRootError } from "./remote-root-error.js";

const BLOCK = 512;

/** One tar entry and where its data lies in the stream (`size` bytes from `offset`; 0 for all but files). */
export interface TarItem {
  entry: ArchiveEntry;
  offset: number;
  /** Bytes of data that follow the header (the entry's size for a file, else 0). */
  dataSize: number;
}

/** A real archive has at most three headers (pax `x`, GNU `L` and `K`) before an entry; more is refused. */
const MAX_EXTENDED_HEADERS = 4;

/** 16 MiB: the most bytes all extended headers of one archive may hold (they are read, never written). */
const MAX_EXTENDED_BYTES = 16 * 1024 * 1024;

/**
 * The entries of the tar stream `chunks`, in order. A header whose checksum is wrong, a size that is
 * negative, overflowing or not a number, or a stream that ends inside an entry throws a
 * {@link RemoteRootError}. Data is skipped as it streams by (its length checked).
 *
 * @param accept - called with each entry before its data is skipped; may throw to stop the walk
 */
export async function* readTar(
  chunks: AsyncIterable<Uint8Array>,
  options: { archive: string; accept?: (entry: ArchiveEntry) => void },
): AsyncGenerator<TarItem> {
  const pending: Buffer[] = [];
  let buffered = 0;
  let consumed = 0;
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
    consumed += n;
    return out;
  };
  const truncated = (): never => {
    throw new RemoteRootError({
      code: "root-fetch-failed",
      message: `${options.archive}: the tar archive is truncated.`,
    });
  };
  // Skips (or reads) `size` bytes plus the padding to the next block; `size` is a checked integer >= 0.
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
  let extended = 0;
  let extendedBytes = 0;
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
      const headerSize = readSize(header, options.archive);
      if (flag === "x" || flag === "g" || flag === "L" || flag === "K") {
        // A pax `size` is the next entry's, never an extended header's own.
        const size = headerSize;
        if (size > 1024 * 1024) throw bad(options.archive, "an extended header over 1 MiB");
        extendedBytes += size;
        if (extendedBytes > MAX_EXTENDED_BYTES)
          throw bad(options.archive, "more than 16 MiB of extended headers");
        if (++extended > MAX_EXTENDED_HEADERS)
          throw bad(options.archive, "a run of extended headers with no entry");
        const data = (await body(size, true)) as Buffer;
        if (flag === "x") pax = parsePax(data);
        else if (flag === "L") longName = cString(data, 0, data.length);
        continue;
      }
      const size = pax["size"] === undefined ? headerSize : paxSize(pax["size"], options.archive);
      let name = pax["path"] ?? longName ?? entryName(header);
      if (name === "") name = ".";
      const type = entryType(flag, name);
      const mode = readNumber(header, 100, 8, options.archive, "mode") & 0o777;
      const entry: ArchiveEntry = { name, type, mode, size };
      longName = undefined;
      pax = {};
      extended = 0;
      options.accept?.(entry);
      // Links and special entries carry no data in tar (a hard link's size is 0).
      const dataSize = type === "file" ? size : 0;
      const offset = consumed;
      await body(dataSize, false);
      yield { entry, offset, dataSize };
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

/**
 * A numeric header field: octal digits (leading spaces, ended by NUL or space), or GNU base-256 when the
 * high bit of its first byte is set. A negative base-256 number (its sign bit set), a value past 2^53,
 * or any other character refuses the archive: `parseInt` would have read `-1` or `12x` as numbers.
 */
function readNumber(header: Buffer, start: number, length: number, archive: string, field: string): number {
  const first = header[start] ?? 0;
  if ((first & 0x80) !== 0) {
    if ((first & 0x40) !== 0) throw bad(archive, `a header with a negative ${field}`);
    let value = first & 0x3f;
    for (let i = start + 1; i < start + length; i++) value = value * 256 + (header[i] ?? 0);
    if (!Number.isSafeInteger(value)) throw bad(archive, `a header whose ${field} overflows`);
    return value;
  }
  const raw = header.toString("latin1", start, start + length);
  const match = /^ *([0-7]*)[ \0]*(?:\0[\s\S]*)?$/.exec(raw);
  if (match === null) throw bad(archive, `a header whose ${field} is not an octal number`);
  const digits = match[1] ?? "";
  const value = digits === "" ? 0 : Number.parseInt(digits, 8);
  if (!Number.isSafeInteger(value)) throw bad(archive, `a header whose ${field} overflows`);
  return value;
}

function readSize(header: Buffer, archive: string): number {
  return readNumber(header, 124, 12, archive, "size");
}

/** A pax `size` record: decimal digits only, at most 2^53. */
function paxSize(text: string, archive: string): number {
  const value = /^[0-9]{1,16}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value))
    throw bad(archive, `a pax size '${text.slice(0, 40)}' that is not a size`);
  return value;
}

function verifyChecksum(header: Buffer, archive: string): void {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (header[i] ?? 0);
  let stored: number;
  try {
    stored = readNumber(header, 148, 8, archive, "checksum");
  } catch {
    stored = -1;
  }
  if (sum !== stored) throw bad(archive, "a header with a wrong checksum (not a tar archive?)");
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

/**
 * The data of each of `items` (found by {@link readTar} in the same bytes), read from a fresh pass over
 * the stream: exactly `dataSize` bytes from `offset`, no header read again. A stream that ends early
 * throws a {@link RemoteRootError}.
 */
export async function* readTarRanges(
  chunks: AsyncIterable<Uint8Array>,
  items: readonly TarItem[],
  archive: string,
): AsyncGenerator<Buffer> {
  const iterator = chunks[Symbol.asyncIterator]();
  let chunk: Buffer = Buffer.alloc(0);
  let at = 0; // stream offset of chunk[0]
  try {
    for (const item of items) {
      const out = Buffer.allocUnsafe(item.dataSize);
      let filled = 0;
      while (filled < item.dataSize) {
        const from = item.offset + filled;
        if (from >= at + chunk.length) {
          const next = await iterator.next();
          if (next.done === true) throw bad(archive, "the tar archive is truncated");
          at += chunk.length;
          chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
          continue;
        }
        const start = from - at;
        const n = Math.min(item.dataSize - filled, chunk.length - start);
        chunk.copy(out, filled, start, start + n);
        filled += n;
      }
      yield out;
    }
  } finally {
    await iterator.return?.();
  }
}
