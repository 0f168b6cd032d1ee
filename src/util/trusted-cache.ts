/**
 * The one rule every skillrt cache follows (the catalog's metadata, the search index, the sandbox probe,
 * and any cache added later): a cache is only as trustworthy as the directory it lives in, so
 *
 * - the cache directory must be a directory owned by the current user and writable by nobody else
 *   (created 0700 when missing); otherwise the cache is off: nothing is read from it or written to it
 *   ({@link checkCacheDir} says why, for one warning);
 * - every cache file is opened without following a symlink and without blocking (a FIFO planted at a
 *   cache file's path cannot hang the open), then checked to be a regular file owned by the user and no
 *   larger than the cache's cap ({@link readCacheFile});
 * - every path read back from a cache is confined to the root it belongs to ({@link isWithin}); a
 *   record that points elsewhere is dropped by its cache and the folder read again.
 *
 * A checksum in a cache file catches torn writes, not someone who can write the directory: this rule is
 * what keeps another user's files out.
 */
// Built-ins as bin/skillrt.js takes them (every start loads this file): no import facade.
const fs = process.getBuiltinModule("node:fs");
const path = process.getBuiltinModule("node:path");

/** What {@link checkCacheDir} found: a directory the cache may use, or why it must not. */
export type CacheDirTrust = { ok: true; dir: string } | { ok: false; dir: string; reason: string };

const { O_RDONLY, O_NOFOLLOW = 0, O_NONBLOCK = 0 } = fs.constants;

/** The current user's uid, or undefined where the platform has none (Windows: ownership is not checked). */
function currentUid(): number | undefined {
  return process.getuid?.();
}

/**
 * Whether `dir` may hold a cache: it must be a directory (not a symlink to one: its real path is checked),
 * owned by the current user and not writable by its group or others. A directory that does not exist yet
 * passes (nothing is read from it); with `create` it is created 0700 (with any missing parents) and
 * checked. Never throws.
 */
export function checkCacheDir(dir: string, options: { create?: boolean } = {}): CacheDirTrust {
  let stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (stat === undefined && options.create === true) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      return { ok: false, dir, reason: `it cannot be created (${(error as NodeJS.ErrnoException).code})` };
    }
    stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  }
  // Nothing there yet: nothing to read, and a write creates it private.
  if (stat === undefined) return { ok: true, dir };
  if (stat.isSymbolicLink()) {
    // A link the user made to a private directory of theirs is fine; where it points is what is checked.
    try {
      stat = fs.statSync(fs.realpathSync(dir));
    } catch (error) {
      return {
        ok: false,
        dir,
        reason: `it is a dangling symlink (${(error as NodeJS.ErrnoException).code})`,
      };
    }
  }
  if (!stat.isDirectory()) return { ok: false, dir, reason: "it is not a directory" };
  const uid = currentUid();
  if (uid !== undefined && stat.uid !== uid)
    return { ok: false, dir, reason: `it is owned by uid ${stat.uid}, not by you (uid ${uid})` };
  if (uid !== undefined && (stat.mode & 0o022) !== 0)
    return {
      ok: false,
      dir,
      reason: `other users can write to it (mode ${(stat.mode & 0o7777).toString(8).padStart(4, "0")})`,
    };
  return { ok: true, dir };
}

/**
 * The one-line warning for a cache directory {@link checkCacheDir} refused: what is wrong, that the
 * cache is off, and how to fix it.
 */
export function untrustedCacheWarning(trust: CacheDirTrust & { ok: false }): string {
  return (
    `the cache directory ${trust.dir} is not used: ${trust.reason}. ` +
    "Caching is off for this run (nothing is read from or written to it). " +
    `Fix: make it yours and private (chown $(id -u) and chmod 700 ${trust.dir}), ` +
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
  if (!checkCacheDir(dir).ok) return undefined;
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
    throw error;
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
