/**
 * One entry of an archive as the readers report it, and the rules every entry must pass before anything
 * is written (trpc-agent-go's): no absolute names, no `..`, no `:`, no links or special files, caps on
 * each file and on the whole extraction.
 */
import { RemoteRootError } from "./remote-root-error.js";

/** What an entry is. Only `file` and `dir` are ever written. */
export type ArchiveEntryType = "file" | "dir" | "symlink" | "hardlink" | "special";

/** An entry's header: its name as stored, its type, permission bits and size in bytes. */
export interface ArchiveEntry {
  name: string;
  type: ArchiveEntryType;
  mode: number;
  size: number;
}

/** Caps of one archive or git checkout. */
export interface ArchiveLimits {
  /** Most bytes of one file. Default 64 MiB. */
  maxFileBytes: number;
  /** Most bytes of all files together. Default 256 MiB. */
  maxTotalBytes: number;
  /**
   * Most files and folders (each one written costs an inode and a scan, whatever its size: a 1.2 MB
   * archive held 200,000 empty files). Default 10,000.
   */
  maxEntries?: number;
}

/** 64 MiB per file, 256 MiB in total, 10,000 files and folders. */
export const defaultArchiveLimits: Required<ArchiveLimits> = {
  maxFileBytes: 64 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxEntries: 10_000,
};

/** What an archive has added up to so far, for {@link tallyEntry}. */
export interface ArchiveTally {
  entries: number;
  bytes: number;
}

/**
 * Counts `entry` (a file or folder) into `tally`, or refuses it when it takes the archive past a cap:
 * the number of files and folders, the size of one file, or the total size. The message names the
 * archive (or URL), the entry and the cap.
 */
export function tallyEntry(
  entry: ArchiveEntry,
  tally: ArchiveTally,
  limits: ArchiveLimits,
  archive: string,
): void {
  if (entry.type !== "file" && entry.type !== "dir") return;
  const maxEntries = limits.maxEntries ?? defaultArchiveLimits.maxEntries;
  if (++tally.entries > maxEntries)
    throw new RemoteRootError({
      code: "archive-entry-rejected",
      message: `${archive}: more than ${maxEntries} files and folders (the limit of one remote root, reached at '${printable(entry.name)}'); the archive was not extracted. Split the root into smaller ones.`,
    });
  tally.bytes = countEntryBytes(entry, tally.bytes, limits, archive);
}

/**
 * The entry's relative POSIX path inside the extraction (a leading `./` and a trailing `/` dropped;
 * `""` for the archive's own top folder), or a {@link RemoteRootError} naming the entry when its name or
 * type is unsafe.
 */
export function checkArchiveEntry(entry: ArchiveEntry, archive: string): string {
  const name = entry.name;
  const reject = (why: string): never => {
    throw new RemoteRootError({
      code: "archive-entry-rejected",
      message: `${archive}: entry '${printable(name)}' ${why}; the archive was not extracted.`,
    });
  };
  if (entry.type === "symlink" || entry.type === "hardlink") reject("is a link (links are not extracted)");
  if (entry.type === "special") reject("is a special file (device, FIFO or similar)");
  if (name.startsWith("/") || name.startsWith("\\")) reject("has an absolute path");
  if (name.includes(":")) reject("has ':' in its name");
  if (name.includes("\0") || name.includes("\\")) reject("has a NUL or '\\' in its name");
  const parts = name.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.includes("..")) reject("has '..' in its path");
  return parts.join("/");
}

/** Adds `entry`'s size to `total` and returns it, or refuses the entry past a cap. */
export function countEntryBytes(
  entry: ArchiveEntry,
  total: number,
  limits: ArchiveLimits,
  archive: string,
): number {
  if (entry.type !== "file") return total;
  if (entry.size > limits.maxFileBytes)
    throw new RemoteRootError({
      code: "archive-entry-rejected",
      message: `${archive}: entry '${printable(entry.name)}' is ${mib(entry.size)}, over the ${mib(limits.maxFileBytes)} limit per file; the archive was not extracted.`,
    });
  const next = total + entry.size;
  if (next > limits.maxTotalBytes)
    throw new RemoteRootError({
      code: "archive-entry-rejected",
      message: `${archive}: entry '${printable(entry.name)}' takes the extracted size past the ${mib(limits.maxTotalBytes)} limit; the archive was not extracted.`,
    });
  return next;
}

/** A size for messages: `64 MiB`, `1.5 MiB`, or in KiB under 1 MiB (`2.0 KiB`). */
export function mib(bytes: number): string {
  const value = bytes / (1024 * 1024);
  if (value < 1) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} MiB`;
}

function printable(name: string): string {
  return name.replace(/[\0-\x1f\x7f]/g, "?").slice(0, 300);
}
