/**
 * Writes tar and zip archives byte by byte for tests, including the hostile ones no well-behaved tool
 * makes (names with `..`, absolute names, `:`, links, device entries, bombs).
 */
import { crc32, deflateRawSync, gzipSync } from "node:zlib";

/** One entry to write. `type` defaults to a file; `size` with no `data` writes that many zero bytes. */
export interface FixtureEntry {
  name: string;
  data?: string | Buffer;
  type?: "file" | "dir" | "symlink" | "fifo";
  /** Link target of a symlink. */
  target?: string;
  mode?: number;
}

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, "0")}\0`;
}

/** A ustar header for `entry` with a body of `size` bytes. */
export function tarHeader(entry: FixtureEntry, size: number): Buffer {
  const header = Buffer.alloc(512);
  const flag = { file: "0", dir: "5", symlink: "2", fifo: "6" }[entry.type ?? "file"];
  header.write(entry.name, 0, 100, "utf8");
  header.write(octal(entry.mode ?? (entry.type === "dir" ? 0o755 : 0o644), 8), 100, "latin1");
  header.write(octal(0, 8), 108, "latin1");
  header.write(octal(0, 8), 116, "latin1");
  header.write(octal(size, 12), 124, "latin1");
  header.write(octal(0, 12), 136, "latin1");
  header.write("        ", 148, "latin1");
  header.write(flag, 156, "latin1");
  if (entry.target !== undefined) header.write(entry.target, 157, 100, "utf8");
  header.write("ustar\u000000", 257, "latin1");
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
  return header;
}

/** A tar archive of `entries`. */
export function makeTar(entries: FixtureEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const data =
      entry.type === "file" || entry.type === undefined ? Buffer.from(entry.data ?? "") : Buffer.alloc(0);
    parts.push(tarHeader(entry, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** A gzipped tar archive of `entries`. */
export function makeTarGz(entries: FixtureEntry[]): Buffer {
  return gzipSync(makeTar(entries));
}

/** A zip archive of `entries` (deflated), symlinks and FIFOs marked in the Unix mode bits. */
export function makeZip(entries: FixtureEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const data = Buffer.from(entry.type === "symlink" ? (entry.target ?? "") : (entry.data ?? ""));
    const packed = deflateRawSync(data);
    const kind = { file: 0o100000, dir: 0o040000, symlink: 0o120000, fifo: 0o010000 }[entry.type ?? "file"];
    const external = ((kind | (entry.mode ?? 0o644)) << 16) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(external, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A SKILL.md with `name` and `description`. */
export function skillMd(name: string, description: string): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${description}\n`;
}

/**
 * A gzipped tar of `count` files of `size` zero bytes each (`count * size` bytes extracted, a few
 * hundred KiB compressed), streamed through gzip so the whole is never held in memory.
 */
export async function makeTarGzBomb(count: number, size: number): Promise<Buffer> {
  const { createGzip } = await import("node:zlib");
  const { Readable } = await import("node:stream");
  const zeros = Buffer.alloc(1024 * 1024);
  async function* parts(): AsyncGenerator<Buffer> {
    yield tarHeader({ name: "bomb/SKILL.md" }, 0);
    for (let i = 0; i < count; i++) {
      yield tarHeader({ name: `bomb/zeros-${i}.bin` }, size);
      for (let left = size; left > 0; left -= zeros.length)
        yield left >= zeros.length ? zeros : zeros.subarray(0, left);
      if (size % 512 !== 0) yield Buffer.alloc(512 - (size % 512));
    }
    yield Buffer.alloc(1024);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of Readable.from(parts()).pipe(createGzip({ level: 1 })))
    chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A zip of `count` entries of `size` zero bytes each, the deflated data shared. */
export function makeZipBomb(count: number, size: number): Buffer {
  const zeros = Buffer.alloc(size);
  const packed = deflateRawSync(zeros);
  const crc = crc32(zeros);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const name = Buffer.from(`bomb/zeros-${i}.bin`);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
