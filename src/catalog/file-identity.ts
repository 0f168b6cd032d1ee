import type fs from "node:fs";

/**
 * What tells one version of a file or directory from another without reading it: device, inode, size,
 * modification and change times. A directory's times change whenever an entry is added, removed or
 * renamed in it; a file's when its content changes.
 */
export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/**
 * How long after its last change a file's identity is trusted to describe what was read. Timestamps
 * come from a coarse clock: a write in the same tick as the read leaves them unchanged, so anything
 * changed this close to the read is read again next time (the "racy" case of git's index).
 */
export const SETTLE_MS = 2000;

/** The identity of a stat result. */
export function fileIdentity(stat: fs.Stats): FileIdentity {
  return { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs };
}

/**
 * True when `stat` (a stat result, or an identity) shows the same version as `known`, and `known` had settled (see {@link SETTLE_MS})
 * when it was taken at `readAt` (`Date.now()` before the read).
 */
export function unchangedSince(known: FileIdentity, readAt: number, stat: FileIdentity): boolean {
  return (
    stat.mtimeMs === known.mtimeMs &&
    stat.ctimeMs === known.ctimeMs &&
    stat.size === known.size &&
    stat.ino === known.ino &&
    stat.dev === known.dev &&
    Math.max(known.mtimeMs, known.ctimeMs) < readAt - SETTLE_MS
  );
}
