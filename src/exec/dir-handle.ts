/**
 * Directories held open by descriptor, so the host never follows a path the sandbox can rewrite.
 *
 * Node has no `openat`, but on Linux `/proc/self/fd/<n>/<name>` is one: the kernel jumps straight to the
 * directory the descriptor holds (whatever its path is now) and looks up `<name>` in it. Every step
 * below opens exactly one name relative to a held directory with `O_NOFOLLOW`, so a component that a
 * script swapped for a symlink fails the open (`ELOOP`/`ENOTDIR`) instead of being followed, and a
 * directory renamed away after it was opened is still the directory that was checked. Symlinks inside
 * a root are resolved by reading their text and walking again from the root (`resolveBeneath`), never
 * by the kernel, so they cannot lead out of it. Descriptors are opened close-on-exec (libuv), so no
 * child process inherits them.
 *
 * Metadata calls (open, lstat, readdir, mkdir, unlink) are synchronous: each is a few microseconds,
 * while a trip through libuv's thread pool per call made collection ten times slower on a loaded
 * machine. File contents are read and written asynchronously.
 */
import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  read,
  readdirSync,
  readlinkSync,
  rmdirSync,
  type Stats,
  symlinkSync,
  unlinkSync,
  write,
} from "node:fs";
import { BeneathError } from "../errors/beneath-error.js";

// `fs.read` / `fs.write` as promises, written out: node:util's promisify would load node:util, whose
// module namespace costs `skillrt run` several milliseconds of start-up.
function readAsync(
  fd: number,
  buffer: Uint8Array,
  offset: number,
  length: number,
  position: number | null,
): Promise<{ bytesRead: number }> {
  return new Promise((resolve, reject) => {
    read(fd, buffer, offset, length, position, (error, bytesRead) =>
      error === null ? resolve({ bytesRead }) : reject(error),
    );
  });
}

function writeAsync(
  fd: number,
  buffer: Uint8Array,
  offset: number,
  length: number,
): Promise<{ bytesWritten: number }> {
  return new Promise((resolve, reject) => {
    write(fd, buffer, offset, length, (error, bytesWritten) =>
      error === null ? resolve({ bytesWritten }) : reject(error),
    );
  });
}

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;
const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;

/** A directory held open; `at` names it for one-level lookups (`${at}/${name}`). */
export interface DirHandle {
  /** Path relative to the root it was opened from (`""` for the root), for messages. */
  readonly rel: string;
  /** `/proc/self/fd/<n>`: names the held directory itself, wherever it is now. */
  readonly at: string;
  close(): Promise<void>;
}

// Defined in errors/ (a SkillrtError, exported by the package); re-exported for the exec files importing it here.
export { BeneathError };

let procChecked: boolean | undefined;

/** Whether descriptor-relative paths work here (Linux with `/proc` mounted). */
export async function descriptorPathsWork(): Promise<boolean> {
  if (procChecked !== undefined) return procChecked;
  try {
    const fd = openSync("/", DIR_FLAGS);
    try {
      lstatSync(`/proc/self/fd/${fd}/.`);
      procChecked = true;
    } finally {
      closeSync(fd);
    }
  } catch {
    procChecked = false;
  }
  return procChecked;
}

function wrap(fd: number, rel: string): DirHandle {
  let open = true;
  return {
    rel,
    at: `/proc/self/fd/${fd}`,
    async close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

function checkName(name: string): void {
  if (name === "" || name === "." || name === ".." || name.includes("/") || name.includes("\0")) {
    throw new BeneathError("invalid", `invalid path component '${name}'`);
  }
}

export function join(rel: string, name: string): string {
  return rel === "" ? name : `${rel}/${name}`;
}

/**
 * Opens a trusted absolute directory (one the host created, e.g. a workspace root). The last component
 * must not be a symlink.
 */
export async function openDirHandle(dir: string): Promise<DirHandle> {
  if (!(await descriptorPathsWork())) {
    throw new BeneathError("invalid", "descriptor-relative paths need Linux with /proc mounted");
  }
  return wrap(openSync(dir, DIR_FLAGS), "");
}

/**
 * Opens `name` inside `dir` as a directory without following it; with `create`, makes it first
 * (mode 0o755 unless given). A symlink, a file or a missing name (without `create`) throws `BeneathError`.
 */
export async function openSubdir(
  dir: DirHandle,
  name: string,
  options: { create?: boolean; mode?: number } = {},
): Promise<DirHandle> {
  checkName(name);
  const rel = join(dir.rel, name);
  if (options.create === true) {
    try {
      mkdirSync(`${dir.at}/${name}`, { mode: options.mode ?? 0o755 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  try {
    return wrap(openSync(`${dir.at}/${name}`, DIR_FLAGS), rel);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENOTDIR")
      throw new BeneathError("not-directory", `${rel} is not a directory (a symlink or a file)`);
    if (code === "ENOENT") throw new BeneathError("missing", `${rel} does not exist`);
    throw error;
  }
}

/** Opens the directory `rel` (components separated by `/`) below `root` without following any symlink. */
export async function openSubpath(
  root: DirHandle,
  rel: string,
  options: { create?: boolean; mode?: number } = {},
): Promise<DirHandle> {
  const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
  let current = root;
  try {
    for (const part of parts) {
      const next = await openSubdir(current, part, options);
      if (current !== root) await current.close();
      current = next;
    }
  } catch (error) {
    if (current !== root) await current.close();
    throw error;
  }
  // Always hand back a handle the caller owns and closes.
  return current === root ? reopen(root) : current;
}

/** A second handle on a held directory (through its descriptor's magic link, which must be followed). */
export async function reopen(dir: DirHandle): Promise<DirHandle> {
  return wrap(openSync(dir.at, O_RDONLY | O_DIRECTORY), dir.rel);
}

/** `lstat` of `name` in `dir` (never follows it); `undefined` when missing. */
export async function lstatIn(dir: DirHandle, name: string): Promise<Stats | undefined> {
  checkName(name);
  try {
    return lstatSync(`${dir.at}/${name}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Entries of a held directory. */
export async function listDir(dir: DirHandle): Promise<Dirent[]> {
  return readdirSync(dir.at, { withFileTypes: true });
}

/**
 * Reads up to `max` bytes of the regular file `name` in `dir` without following it and without
 * blocking on a FIFO or device. `undefined` when it is not a regular file (or is missing).
 */
export async function readFileIn(
  dir: DirHandle,
  name: string,
  max: number,
): Promise<{ bytes: Buffer; size: number; dev: number; ino: number } | undefined> {
  const opened = openFileIn(dir, name);
  if (opened === undefined) return undefined;
  const { fd, stat } = opened;
  try {
    const want = Math.min(max, stat.size);
    const buffer = Buffer.alloc(want);
    let filled = 0;
    while (filled < want) {
      const { bytesRead } = await readAsync(fd, buffer, filled, want - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { bytes: buffer.subarray(0, filled), size: stat.size, dev: stat.dev, ino: stat.ino };
  } finally {
    closeSync(fd);
  }
}

/** Opens the regular file `name` in `dir` for reading (not following it, not blocking); else `undefined`. */
function openFileIn(dir: DirHandle, name: string): { fd: number; stat: Stats } | undefined {
  checkName(name);
  let fd: number;
  try {
    fd = openSync(`${dir.at}/${name}`, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENOENT" || code === "ENXIO" || code === "EISDIR") return undefined;
    throw error;
  }
  const stat = fstatSync(fd);
  if (stat.isFile()) return { fd, stat };
  closeSync(fd);
  return undefined;
}

/** Creates (replacing anything there) the regular file `name` in `dir` with `bytes`. */
export async function writeFileIn(
  dir: DirHandle,
  name: string,
  bytes: Uint8Array,
  mode = 0o644,
): Promise<void> {
  await removeIn(dir, name);
  const fd = openSync(`${dir.at}/${name}`, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  try {
    let done = 0;
    while (done < bytes.length) done += (await writeAsync(fd, bytes, done, bytes.length - done)).bytesWritten;
  } finally {
    closeSync(fd);
  }
}

/** Creates the symlink `name` → `target` in `dir` (the target is never followed by the host). */
export async function symlinkIn(dir: DirHandle, name: string, target: string): Promise<void> {
  checkName(name);
  symlinkSync(target, `${dir.at}/${name}`);
}

/**
 * Removes `name` from `dir` recursively without following symlinks: a directory is opened by
 * descriptor (a symlink swapped in is unlinked, never entered). Missing is fine.
 */
export async function removeIn(dir: DirHandle, name: string): Promise<void> {
  const stat = await lstatIn(dir, name);
  if (stat === undefined) return;
  if (!stat.isDirectory()) {
    ignoreMissing(() => unlinkSync(`${dir.at}/${name}`));
    return;
  }
  let sub: DirHandle;
  try {
    sub = await openSubdir(dir, name);
  } catch (error) {
    if (error instanceof BeneathError) return removeIn(dir, name); // swapped meanwhile: look again
    throw error;
  }
  try {
    for (const entry of await listDir(sub)) await removeIn(sub, entry.name);
  } finally {
    await sub.close();
  }
  ignoreMissing(() => rmdirSync(`${dir.at}/${name}`));
}

function ignoreMissing(fn: () => void): void {
  try {
    fn();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/**
 * Copies `srcName` from `src` to `dstName` in `dst` (replacing what is there): directories recursively,
 * regular files by descriptor with their permission bits, symlinks as symlinks (never followed); other
 * kinds (FIFOs, devices, sockets) are skipped. `budget.bytes` is decremented and the copy stops with an
 * error when it runs out.
 */
export async function copyIn(
  src: DirHandle,
  srcName: string,
  dst: DirHandle,
  dstName: string,
  budget: { bytes: number },
): Promise<void> {
  const stat = await lstatIn(src, srcName);
  if (stat === undefined) throw new BeneathError("missing", `${join(src.rel, srcName)} does not exist`);
  await removeIn(dst, dstName);
  if (stat.isSymbolicLink()) {
    await symlinkIn(dst, dstName, readlinkSync(`${src.at}/${srcName}`));
  } else if (stat.isDirectory()) {
    const from = await openSubdir(src, srcName);
    try {
      const to = await openSubdir(dst, dstName, { create: true, mode: (stat.mode & 0o777) | 0o700 });
      try {
        for (const entry of await listDir(from)) await copyIn(from, entry.name, to, entry.name, budget);
      } finally {
        await to.close();
      }
    } finally {
      await from.close();
    }
  } else if (stat.isFile()) {
    const from = openFileIn(src, srcName);
    if (from === undefined) return;
    try {
      const to = openSync(
        `${dst.at}/${dstName}`,
        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
        stat.mode & 0o777,
      );
      try {
        const chunk = Buffer.alloc(Math.min(1024 * 1024, Math.max(1, from.stat.size)));
        for (;;) {
          const { bytesRead } = await readAsync(from.fd, chunk, 0, chunk.length, null);
          if (bytesRead === 0) break;
          budget.bytes -= bytesRead;
          if (budget.bytes < 0)
            throw new BeneathError("invalid", `${join(src.rel, srcName)}: the copy exceeds the size limit`);
          let done = 0;
          while (done < bytesRead) done += (await writeAsync(to, chunk, done, bytesRead - done)).bytesWritten;
        }
      } finally {
        closeSync(to);
      }
    } finally {
      closeSync(from.fd);
    }
  }
}
