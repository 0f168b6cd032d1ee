/**
 * Extracts a zip, tar or tar.gz archive into a fresh folder, after every entry has passed the rules of
 * `archive-entry.ts`: the whole archive is checked first (names, types, the per-file and total caps),
 * so a hostile archive writes nothing at all.
 */
import { constants } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import {
  type ArchiveEntry,
  type ArchiveLimits,
  checkArchiveEntry,
  countEntryBytes,
  defaultArchiveLimits,
} from "./archive-entry.js";
import { readTar } from "./read-tar.js";
import { readZip } from "./read-zip.js";
import { RemoteRootError } from "./remote-root-error.js";
import type { ArchiveFormat } from "./root-spec.js";

/** Options of {@link extractArchive}. */
export interface ExtractArchiveOptions {
  /** The format its name gives; undefined: decided by the magic bytes. */
  format?: ArchiveFormat | undefined;
  /** How the archive is named in messages (its URL or path). */
  archive: string;
  /** Size caps. Default 64 MiB per file, 256 MiB in total. */
  limits?: ArchiveLimits;
}

/**
 * Writes the files and folders of the archive `bytes` under `dest` (created once every entry passed;
 * must not exist), or throws a {@link RemoteRootError} naming the first unsafe entry, before creating anything. Files get mode 0644,
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
  if (format === "zip") {
    const items = readZip(bytes, archive);
    let total = 0;
    for (const item of items) {
      checkArchiveEntry(item.entry, archive);
      total = countEntryBytes(item.entry, total, limits, archive);
    }
    await mkdir(dest, { mode: 0o700 });
    for (const item of items)
      await writeEntry(dest, item.entry, item.entry.type === "file" ? item.read() : undefined, archive);
    return;
  }
  const stream = (): AsyncIterable<Uint8Array> =>
    format === "tar" ? Readable.from([bytes]) : Readable.from([bytes]).pipe(createGunzip());
  let total = 0;
  const accept = (entry: ArchiveEntry): void => {
    checkArchiveEntry(entry, archive);
    total = countEntryBytes(entry, total, limits, archive);
  };
  try {
    for await (const _ of readTar(stream(), { withData: false, archive, accept })) {
      // First pass: every header checked, the data only counted.
    }
    await mkdir(dest, { mode: 0o700 });
    for await (const { entry, data } of readTar(stream(), { withData: true, archive })) {
      await writeEntry(dest, entry, data, archive);
    }
  } catch (error) {
    if (error instanceof RemoteRootError) throw error;
    throw new RemoteRootError({
      code: "root-fetch-failed",
      message: `${archive}: cannot read the ${format} archive (${(error as Error).message}).`,
    });
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

async function writeEntry(
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
