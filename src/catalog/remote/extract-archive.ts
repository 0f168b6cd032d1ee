/**
 * Extracts a zip, tar or tar.gz archive into a fresh folder, after every entry has passed the rules of
 * `archive-entry.ts`: the whole archive is checked first (names, types, the per-file and total caps),
 * so a hostile archive writes nothing at all.
 */
import { constants } from "node:fs";
import { mkdir, open, rm } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import {
  type ArchiveEntry,
  type ArchiveLimits,
  type ArchiveTally,
  checkArchiveEntry,
  defaultArchiveLimits,
  tallyEntry,
} from "./archive-entry.js";
import { readTar, readTarRanges, type TarItem } from "./read-tar.js";
import { readZip } from "./read-zip.js";
import { RemoteRootError } from "./remote-root-error.js";
import type { ArchiveFormat } from "./root-spec.js";

/** Options of {@link extractArchive}. */
export interface ExtractArchiveOptions {
  /** The format its name gives; undefined: decided by the magic bytes. */
  format?: ArchiveFormat | undefined;
  /** How the archive is named in messages (its URL or path). */
  archive: string;
  /** Caps. Default 64 MiB per file, 256 MiB in total, 10,000 files and folders. */
  limits?: ArchiveLimits;
}

/**
 * Writes the files and folders of the archive `bytes` under `dest` (created once every entry passed;
 * must not exist), or throws a {@link RemoteRootError} naming the first unsafe entry or the cap passed,
 * before creating anything (data found corrupt while writing removes `dest` again). Files get mode 0644,
 * or 0755 when the archive marks them executable; nothing but files and folders is created.
 */
export async function extractArchive(
  bytes: Buffer,
  dest: string,
  options: ExtractArchiveOptions,
): Promise<void> {
  const limits = options.limits ?? defaultArchiveLimits;
  const archive = options.archive;
  const format = options.format ?? sniffFormat(bytes, archive);
  const tally: ArchiveTally = { entries: 0, bytes: 0 };
  const accept = (entry: ArchiveEntry): void => {
    checkArchiveEntry(entry, archive);
    tallyEntry(entry, tally, limits, archive);
  };
  try {
    if (format === "zip") {
      // The one parse: the central directory (which local headers must agree with) gives every size.
      const items = readZip(bytes, archive);
      for (const item of items) accept(item.entry);
      // Each entry inflates to exactly its checked size, or is refused.
      await writeAll(dest, archive, items, (item) => item.read());
      return;
    }
    const stream = (): AsyncIterable<Uint8Array> =>
      format === "tar" ? Readable.from([bytes]) : Readable.from([bytes]).pipe(createGunzip());
    // The one parse: every header checked and counted, each entry's size and place kept.
    const items: TarItem[] = [];
    for await (const item of readTar(stream(), { archive, accept })) items.push(item);
    // The write takes exactly the bytes the parse found for each file; no header is read twice.
    const data = readTarRanges(
      stream(),
      items.filter((item) => item.entry.type === "file"),
      archive,
    );
    try {
      await writeAll(dest, archive, items, async () => {
        const next = await data.next();
        if (next.done === true) throw new Error("the data ended before its last file");
        return next.value;
      });
    } finally {
      await data.return(undefined);
    }
  } catch (error) {
    if (error instanceof RemoteRootError) throw error;
    throw new RemoteRootError({
      code: "root-fetch-failed",
      message: `${archive}: cannot read the ${format} archive (${(error as Error).message}).`,
    });
  }
}

/**
 * Creates `dest` and writes `items` in order (a file's bytes from `read`); when anything fails, `dest`
 * is removed again, so a refused archive leaves nothing behind.
 */
async function writeAll<T extends { entry: ArchiveEntry }>(
  dest: string,
  archive: string,
  items: readonly T[],
  read: (item: T) => Buffer | Promise<Buffer>,
): Promise<void> {
  await mkdir(dest, { mode: 0o700 });
  try {
    for (const item of items)
      await writeEntry(dest, item.entry, item.entry.type === "file" ? await read(item) : undefined, archive);
  } catch (error) {
    await rm(dest, { recursive: true, force: true });
    throw error;
  }
}

/** `zip` for `PK\x03\x04` (or an empty zip), `tar.gz` for `1f 8b`, `tar` for a ustar header; else refused. */
export function sniffFormat(bytes: Buffer, archive: string): ArchiveFormat {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5)) return "zip";
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return "tar.gz";
  if (bytes.toString("latin1", 257, 262) === "ustar") return "tar";
  throw new RemoteRootError({
    code: "root-fetch-failed",
    message: `${archive}: unsupported skills root file (not a zip, tar or tar.gz archive, nor a SKILL.md URL).`,
  });
}

/**
 * Writes one checked entry under `dest`: a folder, or a file of `data` (mode 0755 when `entry.mode` has
 * an execute bit, else 0644), created with `O_EXCL | O_NOFOLLOW`; a name that appears twice or lies
 * under a file is refused with a {@link RemoteRootError}.
 */
export async function writeEntry(
  dest: string,
  entry: ArchiveEntry,
  data: Buffer | undefined,
  archive: string,
): Promise<void> {
  const relative = checkArchiveEntry(entry, archive);
  if (relative === "") return;
  const target = path.join(dest, ...relative.split("/"));
  try {
    if (entry.type === "dir") {
      await mkdir(target, { recursive: true, mode: 0o755 });
      return;
    }
    await mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
    // O_EXCL: a second entry of the same name is refused; O_NOFOLLOW: never through a link (none exist).
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
    const handle = await open(target, flags, (entry.mode & 0o111) !== 0 ? 0o755 : 0o644);
    try {
      await handle.writeFile(data ?? Buffer.alloc(0));
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "EEXIST"
        ? "appears twice (or names a folder)"
        : code === "ENOTDIR"
          ? "lies under a file of the same name"
          : `could not be written (${code ?? (error as Error).message})`;
    throw new RemoteRootError({
      code: "archive-entry-rejected",
      message: `${archive}: entry '${entry.name}' ${why}; the archive was not extracted.`,
    });
  }
}
