/**
 * The files a conversation keeps from its workspace between turns (and processes, and machines): the
 * regular files under `work/` (with the staged `work/inputs/`) and `out/`, content-addressed by sha256.
 * `skills/` (the skills' own views, staged again), `runs/` (one scratch folder per run), `home/` and `tmp/`
 * are not kept; neither are symlinks, FIFOs, sockets, devices or empty folders.
 *
 * Both directions go through held directory descriptors (`dir-handle.ts`): collecting never follows a
 * symlink a script planted (it is reported and left out), and restoring writes each file with no-follow,
 * exclusive creates into a fresh workspace, after checking its name (confined to `work/` and `out/`) and
 * its bytes (they must hash to the digest they were saved under).
 */
import { createHash } from "node:crypto";
import type { Stats } from "node:fs";
import path from "node:path";
import {
  BeneathError,
  type DirHandle,
  listDir,
  lstatIn,
  openDirHandle,
  openSubdir,
  openSubpath,
  readFileIn,
  writeFileIn,
} from "./dir-handle.js";

/** The folders of a workspace whose files are kept, relative to its root. */
export const KEPT_WORKSPACE_FOLDERS = ["work", "out"] as const;

/** One kept file: where it is in the workspace and what it holds. */
export interface WorkspaceFile {
  /** Path relative to the workspace root, `/`-separated, under `work/` or `out/`. */
  path: string;
  /** sha256 of the content, 64 lower-case hex digits. */
  digest: string;
  size: number;
  /** `0o755` for a file someone could execute, else `0o644`. */
  mode: number;
}

/** A file of the workspace that is not kept, and why (for the user and the model). */
export interface NotKeptFile {
  path: string;
  reason: string;
}

/** Caps on what a conversation keeps of its workspace. */
export interface WorkspaceFileLimits {
  /** Largest file kept, in bytes. Default {@link DEFAULT_WORKSPACE_FILE_LIMITS} (16 MiB). */
  maxFileBytes: number;
  /** Most bytes kept in all, per conversation. Default 64 MiB. */
  maxTotalBytes: number;
  /** Most files kept per conversation. Default 1,000. */
  maxFiles: number;
}

/** Default caps: 16 MiB a file, 64 MiB and 1,000 files a conversation. */
export const DEFAULT_WORKSPACE_FILE_LIMITS: WorkspaceFileLimits = {
  maxFileBytes: 16 * 1024 ** 2,
  maxTotalBytes: 64 * 1024 ** 2,
  maxFiles: 1000,
};

/** Deepest folder nesting walked below a kept folder (deeper folders are reported, not kept). */
const MAX_DEPTH = 32;
/** Most files left out that are named one by one (the rest are counted). */
const MAX_NOT_KEPT = 20;
/** Most entries (files and folders) looked at in one collection: a script making millions of files does not stall the save. */
const MAX_ENTRIES = 100_000;

/** What {@link collectWorkspaceFiles} found. */
export interface CollectedFiles {
  /** Kept files, by path. */
  files: WorkspaceFile[];
  /** Contents read, by digest (each distinct content once); not those of files {@link KnownFiles} vouched for. */
  contents: Map<string, Uint8Array>;
  /** Files left out: over a cap, or not a regular file. */
  notKept: NotKeptFile[];
  /** What the kept files were seen as now, for the next collection. */
  known: KnownFiles;
}

/**
 * Kept files as last collected or restored, by path: a file whose inode, size, modification and change
 * times are still these holds the same content (the change time moves with every write and cannot be set
 * back), so it is not read and hashed again. Its content is then not in {@link CollectedFiles.contents}:
 * the store holds it already, since the conversation refers to it.
 */
export type KnownFiles = Map<
  string,
  { digest: string; ino: number; size: number; mtimeMs: number; ctimeMs: number }
>;

function knownEntry(digest: string, stat: Stats) {
  return { digest, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs };
}

/** sha256 of `bytes` in hex. */
export function fileDigest(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A size in words (`12.5 MiB`). */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number(value.toFixed(1))} ${units[unit]}`;
}

/**
 * Reads the kept folders of the workspace at `root` (files in path order; caps applied in that order: a
 * file past a cap is left out and named with the cap, the files after it are still kept while they fit).
 * A file `known` vouches for is not read again.
 */
export async function collectWorkspaceFiles(
  root: string,
  limits: WorkspaceFileLimits = DEFAULT_WORKSPACE_FILE_LIMITS,
  known?: KnownFiles,
): Promise<CollectedFiles> {
  const result: CollectedFiles = { files: [], contents: new Map(), notKept: [], known: new Map() };
  let total = 0;
  let seen = 0;
  let untold = 0;
  /** Notes a file left out; past {@link MAX_NOT_KEPT} they are only counted. */
  const leaveOut = (entry: NotKeptFile): void => {
    if (result.notKept.length < MAX_NOT_KEPT) result.notKept.push(entry);
    else untold += 1;
  };
  const handle = await openDirHandle(root);

  const walk = async (dir: DirHandle, rel: string, depth: number): Promise<void> => {
    const entries = (await listDir(dir)).map((e) => e.name).sort();
    for (const name of entries) {
      const file = `${rel}/${name}`;
      seen += 1;
      if (seen > MAX_ENTRIES) {
        if (seen === MAX_ENTRIES + 1)
          leaveOut({
            path: file,
            reason: `more than ${MAX_ENTRIES.toLocaleString("en")} files and folders in the workspace; from here on nothing is kept`,
          });
        return;
      }
      const stat = await lstatIn(dir, name);
      if (stat === undefined) continue;
      if (stat.isDirectory()) {
        if (depth >= MAX_DEPTH) {
          leaveOut({ path: `${file}/`, reason: `nested deeper than ${MAX_DEPTH} folders` });
          continue;
        }
        let sub: DirHandle;
        try {
          sub = await openSubdir(dir, name);
        } catch (error) {
          // Replaced meanwhile (no longer a folder to walk) is skipped; one that cannot be opened is said.
          if (!BeneathError.isInstance(error)) {
            const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
            leaveOut({ path: `${file}/`, reason: `could not be read (${code})` });
          }
          continue;
        }
        try {
          await walk(sub, file, depth + 1);
        } finally {
          await sub.close();
        }
        continue;
      }
      if (!stat.isFile()) {
        const kind = stat.isSymbolicLink() ? "a symlink" : "not a regular file (a FIFO, socket or device)";
        leaveOut({ path: file, reason: `${kind}; only regular files are kept` });
        continue;
      }
      if (stat.size > limits.maxFileBytes) {
        leaveOut({
          path: file,
          reason: `${sizeText(stat.size)} is over the per-file cap of ${sizeText(limits.maxFileBytes)}`,
        });
        continue;
      }
      if (result.files.length >= limits.maxFiles) {
        leaveOut({
          path: file,
          reason: `over the cap of ${limits.maxFiles} files a conversation`,
        });
        continue;
      }
      const mode = (stat.mode & 0o111) === 0 ? 0o644 : 0o755;
      const prior = known?.get(file);
      if (
        prior !== undefined &&
        prior.ino === stat.ino &&
        prior.size === stat.size &&
        prior.mtimeMs === stat.mtimeMs &&
        prior.ctimeMs === stat.ctimeMs &&
        total + stat.size <= limits.maxTotalBytes
      ) {
        total += stat.size;
        result.files.push({ path: file, digest: prior.digest, size: stat.size, mode });
        result.known.set(file, prior);
        continue;
      }
      // Read one byte past the cap: a file that grew since the lstat is caught here.
      let read: Awaited<ReturnType<typeof readFileIn>>;
      try {
        read = await readFileIn(dir, name, limits.maxFileBytes + 1);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        leaveOut({ path: file, reason: `could not be read (${code})` });
        continue;
      }
      if (read === undefined) continue; // gone or replaced by something else meanwhile
      if (read.bytes.length > limits.maxFileBytes) {
        leaveOut({
          path: file,
          reason: `over the per-file cap of ${sizeText(limits.maxFileBytes)}`,
        });
        continue;
      }
      if (total + read.bytes.length > limits.maxTotalBytes) {
        leaveOut({
          path: file,
          reason:
            `${sizeText(read.bytes.length)} would take the conversation past its cap of ` +
            `${sizeText(limits.maxTotalBytes)} (${sizeText(total)} kept already)`,
        });
        continue;
      }
      total += read.bytes.length;
      const digest = fileDigest(read.bytes);
      result.contents.set(digest, read.bytes);
      result.files.push({ path: file, digest, size: read.bytes.length, mode });
      // The stat from before the read: a write since then changes the times, and the next collection reads.
      if (read.bytes.length === stat.size) result.known.set(file, knownEntry(digest, stat));
    }
  };

  try {
    for (const folder of KEPT_WORKSPACE_FOLDERS) {
      const stat = await lstatIn(handle, folder);
      if (stat === undefined) continue;
      if (!stat.isDirectory()) {
        leaveOut({
          path: `${folder}/`,
          reason: "replaced by a symlink or a file; nothing under it is kept",
        });
        continue;
      }
      const dir = await openSubdir(handle, folder);
      try {
        await walk(dir, folder, 0);
      } finally {
        await dir.close();
      }
    }
  } finally {
    await handle.close();
  }
  if (untold > 0) result.notKept.push({ path: "…", reason: `and ${untold} more files not kept` });
  return result;
}

/**
 * Why `file` may not be written into a workspace, or undefined when it may: a relative `/`-separated path
 * under `work/` or `out/` whose every part is a plain name (no `.`, `..`, empty part or NUL).
 */
export function restoredPathProblem(file: string): string | undefined {
  const parts = file.split("/");
  if (!(KEPT_WORKSPACE_FOLDERS as readonly string[]).includes(parts[0] ?? "") || parts.length < 2)
    return "not under work/ or out/";
  if (parts.some((p) => p === "" || p === "." || p === ".." || p.includes("\0")))
    return "not a plain relative path";
  return undefined;
}

/**
 * Writes `files` into the workspace at `root` (a fresh one: its `work/` and `out/` hold nothing to keep),
 * each read with `read(digest)` and checked against its digest, and notes each written file in `known`.
 * Returns the files that could not be restored, and why; the others are in place.
 */
export async function restoreWorkspaceFiles(
  root: string,
  files: readonly WorkspaceFile[],
  read: (digest: string) => Promise<Uint8Array | undefined>,
  known?: KnownFiles,
): Promise<NotKeptFile[]> {
  const problems: NotKeptFile[] = [];
  const handle = await openDirHandle(root);
  try {
    for (const file of files) {
      const problem = restoredPathProblem(file.path);
      if (problem !== undefined) {
        problems.push({ path: file.path, reason: `not restored: ${problem}` });
        continue;
      }
      const bytes = await read(file.digest);
      if (bytes === undefined) {
        problems.push({ path: file.path, reason: "not restored: the store no longer holds its content" });
        continue;
      }
      if (fileDigest(bytes) !== file.digest) {
        problems.push({
          path: file.path,
          reason: "not restored: its content in the store does not match its digest",
        });
        continue;
      }
      try {
        const dir = await openSubpath(handle, path.posix.dirname(file.path), { create: true });
        try {
          const name = path.posix.basename(file.path);
          await writeFileIn(dir, name, bytes, file.mode === 0o755 ? 0o755 : 0o644);
          const stat = await lstatIn(dir, name);
          if (stat?.isFile() === true) known?.set(file.path, knownEntry(file.digest, stat));
        } finally {
          await dir.close();
        }
      } catch (error) {
        problems.push({ path: file.path, reason: `not restored: ${(error as Error).message}` });
      }
    }
  } finally {
    await handle.close();
  }
  return problems;
}
