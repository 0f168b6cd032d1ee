/**
 * The one rule every skillrt cache follows (the catalog's metadata, the search index, the sandbox probe,
 * and any cache added later): a cache is only as trustworthy as the directory it lives in, so
 *
 * - the cache directory must be a directory owned by the current user and writable by nobody else
 *   (created 0700 when missing), and so must be the whole path to it: no folder on the way another user
 *   owns or can write (a sticky one such as /tmp excepted), no symlink on the way another user made;
 *   otherwise the cache is off: nothing is read from it or written to it ({@link checkCacheDir} says
 *   why, for one warning). The one checker for every cache and state directory;
 * - every cache file is opened without following a symlink and without blocking (a FIFO planted at a
 *   cache file's path cannot hang the open), then checked to be a regular file owned by the user and no
 *   larger than the cache's cap ({@link readCacheFile});
 * - every path read back from a cache is confined to the root it belongs to ({@link isWithin}); a
 *   record that points elsewhere is dropped by its cache and the folder read again.
 *
 * A checksum in a cache file catches torn writes, not someone who can write the directory: this rule is
 * what keeps another user's files out.
 */
import fs from "node:fs";
import path from "node:path";
import { errnoWithPath } from "./errno-with-path.js";

/** What {@link checkCacheDir} found: a directory the cache may use, or why it must not. */
export type CacheDirTrust = { ok: true; dir: string } | { ok: false; dir: string; reason: string };

const { O_RDONLY, O_NOFOLLOW = 0, O_NONBLOCK = 0 } = fs.constants;

/** The current user's uid, or undefined where the platform has none (Windows: ownership is not checked). */
function currentUid(): number | undefined {
  return process.getuid?.();
}

/**
 * Whether `dir` may hold a cache (or the user's state): checked along its WHOLE path, since a folder is
 * only as private as the folders that lead to it (whoever can rename or replace one of them decides what
 * `dir` is). Walking from `/` to `dir`, following symlinks as the kernel would:
 *
 * - a symlink must be owned by the user or root (a link another user made, even in a sticky folder such as
 *   /tmp, is theirs to point anywhere);
 * - every folder on the way must be owned by the user or root, and writable by nobody else, except that a
 *   sticky folder (mode +t: /tmp) may be world-writable, since others cannot rename or remove what is
 *   ours inside it;
 * - `dir` itself must be a directory owned by the user and writable by nobody else (a sticky one too).
 *
 * A path that does not exist yet passes from the first missing folder (nothing to read; a write creates
 * it) unless `create` is given: then each missing folder is created 0700 and checked as it is made (a
 * folder someone else slipped in first is found and refused). Never throws.
 */
export function checkCacheDir(dir: string, options: { create?: boolean } = {}): CacheDirTrust {
  const uid = currentUid();
  if (uid === undefined) return checkWithoutOwners(dir, options.create === true);
  let problem: string | undefined;
  try {
    problem = walkPath(path.resolve(dir), uid, options.create === true);
  } catch (error) {
    problem = `its path cannot be checked (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  return problem === undefined ? { ok: true, dir } : { ok: false, dir, reason: problem };
}

/** Most symlinks followed on one path (the kernel's limit is 40 as well). */
const MAX_LINKS = 40;

/** Mode bits that let the group or others write. */
const OTHERS_WRITE = 0o022;
const STICKY = 0o1000;

/** The mode as `0755`, for messages. */
function modeText(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, "0");
}

/**
 * Walks `target` (absolute) from `/` as {@link checkCacheDir} says; the problem found, or undefined.
 * The walk keeps `current`, the real path reached so far (every folder in it checked), and the names still
 * to walk; a symlink's target is put in front of them (from `/` when absolute), `..` goes up from the real
 * path, as the kernel resolves it.
 */
function walkPath(target: string, uid: number, create: boolean): string | undefined {
  const root = fs.lstatSync("/", { throwIfNoEntry: false });
  if (root === undefined) return "/ cannot be read";
  const rootProblem = folderProblem("/", root, uid, target === "/");
  if (rootProblem !== undefined) return rootProblem;
  const pending = target.split("/").filter((name) => name !== "");
  let current = "/";
  let links = 0;
  while (pending.length > 0) {
    const name = pending.shift() as string;
    if (name === ".") continue;
    if (name === "..") {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, name);
    let stat = fs.lstatSync(next, { throwIfNoEntry: false });
    if (stat === undefined) {
      // Nothing there: nothing to read (the parent, checked, is writable by no one else or sticky).
      if (!create) return undefined;
      try {
        fs.mkdirSync(next, { mode: 0o700 });
      } catch (error) {
        // Someone (maybe another user in a sticky folder) made it first: what is there now is checked.
        if ((error as NodeJS.ErrnoException).code !== "EEXIST")
          return `it cannot be created (${(error as NodeJS.ErrnoException).code} at ${next})`;
      }
      stat = fs.lstatSync(next, { throwIfNoEntry: false });
      if (stat === undefined) return `it cannot be created (${next} vanished)`;
    }
    if (stat.isSymbolicLink()) {
      if (stat.uid !== uid && stat.uid !== 0)
        return `${next} on its path is a symlink owned by uid ${stat.uid}, not by you (uid ${uid}) or root`;
      if (++links > MAX_LINKS) return `its path has more than ${MAX_LINKS} symlinks`;
      let link: string;
      try {
        link = fs.readlinkSync(next);
      } catch (error) {
        return `${next} on its path cannot be read (${(error as NodeJS.ErrnoException).code})`;
      }
      if (link.startsWith("/")) current = "/";
      pending.unshift(...link.split("/").filter((part) => part !== ""));
      continue;
    }
    const last = pending.length === 0;
    if (!stat.isDirectory()) return last ? "it is not a directory" : `${next} on its path is not a directory`;
    const problem = folderProblem(next, stat, uid, last);
    if (problem !== undefined) return problem;
    current = next;
  }
  return undefined;
}

/**
 * What is wrong with folder `at` of a cache path, or undefined: `last` is the cache directory itself
 * (the user's own, writable by no one else), else a folder leading to it (the user's or root's, writable
 * by no one else unless sticky).
 */
function folderProblem(
  at: string,
  stat: import("node:fs").Stats,
  uid: number,
  last: boolean,
): string | undefined {
  if (last) {
    if (stat.uid !== uid) return `it is owned by uid ${stat.uid}, not by you (uid ${uid})`;
    if ((stat.mode & OTHERS_WRITE) !== 0) return `other users can write to it (mode ${modeText(stat.mode)})`;
    return undefined;
  }
  if (stat.uid !== uid && stat.uid !== 0)
    return `${at} on its path is owned by uid ${stat.uid}, not by you (uid ${uid}) or root`;
  if (
    (stat.mode & STICKY) === 0 &&
    ((stat.mode & 0o002) !== 0 || ((stat.mode & 0o020) !== 0 && !isPrivateGroup(stat.gid, uid)))
  )
    return `other users can write to ${at} on its path (mode ${modeText(stat.mode)})`;
  return undefined;
}

/** {@link isPrivateGroup}'s answers by gid: the account files are read once per process. */
const privateGroups = new Map<number, boolean>();

/**
 * Whether group `gid` is the user's own private group (the user-private-group scheme: a umask of 002 makes
 * folders such as `~/.cache` group-writable by a group that has only the user): `/etc/group` lists it
 * with no member but the user, and `/etc/passwd` gives it as no other account's primary group. A group
 * these files do not describe (a directory service) is not private. Read only when a folder on a cache's
 * path is group-writable.
 */
function isPrivateGroup(gid: number, uid: number): boolean {
  let known = privateGroups.get(gid);
  if (known === undefined) {
    known = false;
    try {
      const accounts = fs
        .readFileSync("/etc/passwd", "utf8")
        .split("\n")
        .map((line) => line.split(":"));
      const user = accounts.find((a) => a[2] === String(uid))?.[0];
      const others = accounts.some((a) => a[3] === String(gid) && a[2] !== String(uid));
      const group = fs
        .readFileSync("/etc/group", "utf8")
        .split("\n")
        .map((line) => line.split(":"))
        .find((g) => g[2] === String(gid));
      const members = (group?.[3] ?? "").split(",").filter((m) => m !== "");
      known = user !== undefined && group !== undefined && !others && members.every((m) => m === user);
    } catch {
      // unreadable account files: not known to be private
    }
    privateGroups.set(gid, known);
  }
  return known;
}

/** {@link checkCacheDir} where there are no uids (Windows): a directory, or nothing yet. */
function checkWithoutOwners(dir: string, create: boolean): CacheDirTrust {
  if (create) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      return { ok: false, dir, reason: `it cannot be created (${(error as NodeJS.ErrnoException).code})` };
    }
  }
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (stat === undefined || stat.isDirectory()) return { ok: true, dir };
  return { ok: false, dir, reason: "it is not a directory" };
}

/**
 * The one-line warning for a cache directory {@link checkCacheDir} refused: what is wrong, that the
 * cache is off, and how to fix it.
 */
export function untrustedCacheWarning(trust: CacheDirTrust & { ok: false }): string {
  return (
    `the cache directory ${trust.dir} is not used: ${trust.reason}. ` +
    "Caching is off for this run (nothing is read from or written to it). " +
    (trust.reason.includes(" on its path ")
      ? "Fix: the folders above it must be yours or root's, writable by no one else (chmod go-w; a shared one sticky, as /tmp is), and no symlink on the way another user's, "
      : `Fix: make it yours and private (chown $(id -u) and chmod 700 ${trust.dir}), `) +
    "or set SKILLRT_CACHE_DIR to a private directory (SKILLRT_CACHE=0 turns caching off)."
  );
}

/** An open cache file and its size; the caller closes `fd`. */
export interface OpenCacheFile {
  fd: number;
  size: number;
}

/**
 * Opens `file` (a file of a cache directory that passed {@link checkCacheDir}) for reading when it is a
 * regular file owned by the user and at most `maxBytes` long: opened with `O_NOFOLLOW` (a symlink is
 * refused, not followed) and `O_NONBLOCK` (a FIFO or device does not block the open), then checked on
 * the open descriptor (so a file swapped after the check is not what is read). Undefined otherwise,
 * including when it does not exist. Never throws.
 */
export function openCacheFile(file: string, maxBytes: number): OpenCacheFile | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    const uid = currentUid();
    if (stat.isFile() && (uid === undefined || stat.uid === uid) && stat.size <= maxBytes)
      return { fd, size: stat.size };
  } catch {
    // refused below
  }
  fs.closeSync(fd);
  return undefined;
}

/**
 * The whole of cache file `name` in `dir`, when the directory passes {@link checkCacheDir} and the file
 * {@link openCacheFile}; else undefined. Never throws.
 */
export function readCacheFile(dir: string, name: string, maxBytes: number): Buffer | undefined {
  return checkCacheDir(dir).ok ? readCheckedCacheFile(dir, name, maxBytes) : undefined;
}

/**
 * {@link readCacheFile} in a directory that passed {@link checkCacheDir} earlier in this process, for a
 * reader of many files in one directory (the bundle loader: each start). Sound because a path that passed
 * can only be changed by the user or root: every folder on it is theirs and writable by no one else (a
 * sticky one's entries of theirs cannot be renamed by others). Never throws.
 */
export function readCheckedCacheFile(dir: string, name: string, maxBytes: number): Buffer | undefined {
  const open = openCacheFile(path.join(dir, name), maxBytes);
  if (open === undefined) return undefined;
  try {
    const bytes = Buffer.allocUnsafe(open.size);
    let read = 0;
    for (let n = 1; n > 0 && read < bytes.length; read += n)
      n = fs.readSync(open.fd, bytes, read, bytes.length - read, read);
    return read === open.size ? bytes : undefined;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(open.fd);
  }
}

/**
 * Writes cache file `name` in `dir` (created 0700 when missing) whole: `parts` go to a fresh private
 * temporary file (`wx`, 0600: nothing already at that name is followed or reused) renamed into place, so
 * readers in other processes see the old file or the new one, never a mix. Throws when the directory
 * fails {@link checkCacheDir} or on any fs error (the temporary file is removed): callers ignore it,
 * a cache only ever saves time.
 */
export function writeCacheFile(dir: string, name: string, parts: readonly (string | Uint8Array)[]): void {
  const trust = checkCacheDir(dir, { create: true });
  if (!trust.ok) throw new Error(`cache directory refused: ${trust.reason}`);
  const file = path.join(dir, name);
  // Unique enough to never meet another writer's; `wx` refuses any file already there.
  const temp = `${file}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}.tmp`;
  const fd = fs.openSync(temp, "wx", 0o600);
  try {
    for (const part of parts) {
      if (typeof part === "string") fs.writeSync(fd, part);
      else fs.writeSync(fd, part);
    }
    fs.closeSync(fd);
    fs.renameSync(temp, file);
  } catch (error) {
    try {
      fs.closeSync(fd);
    } catch {
      // already closed
    }
    fs.rmSync(temp, { force: true });
    // The file meant, not the temporary one (a full disk is then reported with the path to free).
    throw errnoWithPath(error, file);
  }
}

/**
 * Whether absolute path `p` is `root` itself or lies below it, lexically: no empty, `.` or `..` segment
 * and no NUL after the root. Cache readers use it on every path they read back: a cached record may only
 * point inside the root it was cached for. (A character scan: a warm start checks ten thousands.)
 */
export function isWithin(root: string, p: string): boolean {
  if (root.charCodeAt(0) !== SLASH) return false;
  if (p === root) return root.indexOf("\0") < 0;
  // `from`: the slash that ends the root in `p` (the root's own, when it ends with one, as "/" does).
  const from = root.charCodeAt(root.length - 1) === SLASH ? root.length - 1 : root.length;
  if (p.length <= from + 1 || p.charCodeAt(from) !== SLASH || !p.startsWith(root)) return false;
  return plainSegments(p, from);
}

const SLASH = 47;
const DOT = 46;

/**
 * Whether every segment of `text` after position `from` (a `/` there starts the first) is a plain name:
 * not empty, `.` or `..`, and without NUL. `safe/names` → true; `a//b`, `a/../b`, `a/.` → false.
 */
export function plainSegments(text: string, from: number): boolean {
  const end = text.length;
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return false;
    if (c !== SLASH) continue;
    // A segment starts after this slash.
    const a = i + 1 < end ? text.charCodeAt(i + 1) : SLASH;
    if (a === SLASH) return false;
    if (a !== DOT) continue;
    const b = i + 2 < end ? text.charCodeAt(i + 2) : SLASH;
    if (b === SLASH) return false;
    if (b === DOT && (i + 3 >= end || text.charCodeAt(i + 3) === SLASH)) return false;
  }
  return true;
}
