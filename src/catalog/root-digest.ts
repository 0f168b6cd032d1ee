/**
 * The content digest of a skill root: what the user saw when they trusted it. Any file added, removed,
 * renamed or edited under the root changes it, so a changed root needs trust again.
 *
 * It covers every file a run can see: `node_modules/`, a skill's own `.git/`, hidden files, and the
 * content of a directory reached through a symbolic link that leaves the root (discovery follows such
 * links to find skills, and a run sees the linked folder). The one thing left out is a `.git` folder at
 * the top of a root that is not itself a skill: a run sees only its skill's folder (the sandbox binds that
 * folder, a local run gets a copy of it), never the root's top level, and version-control bookkeeping
 * there changes on every `git status`.
 */
import { createHash, type Hash } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
} from "node:fs";
import path from "node:path";
import { RootDigestError } from "../errors/root-digest-error.js";

/** Most entries a digest walks; a larger root is refused (nobody reviewed that much). */
export const MAX_DIGEST_ENTRIES = 20_000;
/** Most bytes a digest reads. */
export const MAX_DIGEST_BYTES = 512 * 1024 * 1024;

// The walk uses synchronous calls: about seven times faster than the thread pool for a node_modules/ of
// small files (5,000 files in ~90 ms instead of ~400-600 ms), the same trade discovery makes.

/** Options of {@link digestRoot}. */
export interface DigestRootOptions {
  /**
   * Hash the folder `dir` in place of the root's entry at `rel` (a `/`-separated path below the root;
   * `""` is the root itself): the digest the root would have if that entry held what `dir` holds. A run
   * verifies its staged copy of a skill this way, so the bytes hashed are the bytes that run.
   */
  substitute?: { rel: string; dir: string };
  /** Most entries walked. Default {@link MAX_DIGEST_ENTRIES}. */
  maxEntries?: number;
  /** Most bytes read. Default {@link MAX_DIGEST_BYTES}. */
  maxBytes?: number;
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
}

/**
 * `sha256:<hex>` over every entry under `root`, in sorted order: each file's relative path, whether it is
 * executable and the SHA-256 of its bytes; each symbolic link's path and target, and when the link leads
 * to a directory outside the root (and outside `substitute.dir`), that directory's entries too, loops cut.
 * Throws {@link RootDigestError} when `root` is not a readable directory, or past
 * {@link MAX_DIGEST_ENTRIES} entries or {@link MAX_DIGEST_BYTES} bytes (`maxEntries`, `maxBytes`).
 */
export async function digestRoot(root: string, options: DigestRootOptions = {}): Promise<string> {
  return walkRoot(root, options, true);
}

/**
 * A cheap fingerprint of what {@link digestRoot} would read: the same entries, each with its kind, size,
 * inode, mode and change time (`ctime`, which no write, chmod or `utimes` leaves as it was), no content
 * read. Equal prints taken before and after a digest mean the content is still the content digested.
 * Synchronous; throws {@link RootDigestError} like {@link digestRoot} (no byte cap: nothing is read).
 */
export function rootPrint(root: string, options: Pick<DigestRootOptions, "maxEntries"> = {}): string {
  return walkRoot(root, options, false);
}

function walkRoot(root: string, options: DigestRootOptions, contents: boolean): string {
  const hash = createHash("sha256");
  const sub = options.substitute;
  let realRoot: string;
  try {
    if (!statSync(root).isDirectory()) throw new Error("not a directory");
    // The root itself may be a link to its folder (as a skills folder often is).
    realRoot = realpathSync(root);
  } catch (error) {
    throw new RootDigestError({ root, reason: "unreadable", detail: (error as Error).message });
  }
  const budget = {
    root,
    entries: 0,
    bytes: 0,
    maxEntries: options.maxEntries ?? MAX_DIGEST_ENTRIES,
    maxBytes: contents ? (options.maxBytes ?? MAX_DIGEST_BYTES) : Number.POSITIVE_INFINITY,
  };
  try {
    const covered = [realRoot, ...(sub === undefined ? [] : [realpathSync(sub.dir)])];
    const walker: Walker = { hash, sub, covered, budget, contents };
    if (sub?.rel === "") walk(walker, sub.dir, "", [realRoot], true);
    else walk(walker, root, "", [realRoot], false);
  } catch (error) {
    if (RootDigestError.isInstance(error)) throw error;
    throw new RootDigestError({ root, reason: "unreadable", detail: (error as Error).message });
  }
  return `sha256:${hash.digest("hex")}`;
}

interface Walker {
  hash: Hash;
  sub: DigestRootOptions["substitute"];
  /** Real folders whose entries are hashed where they are: a link into them is not followed. */
  covered: string[];
  budget: { root: string; entries: number; bytes: number; maxEntries: number; maxBytes: number };
  /** Hash file contents (a digest), or only what `lstat` says of each entry (a print). */
  contents: boolean;
}

function count(walker: Walker, bytes: number): void {
  const { budget } = walker;
  budget.entries += 1;
  budget.bytes += bytes;
  if (budget.entries > budget.maxEntries)
    throw new RootDigestError({ root: budget.root, reason: "entries", limit: budget.maxEntries });
  if (budget.bytes > budget.maxBytes)
    throw new RootDigestError({ root: budget.root, reason: "bytes", limit: budget.maxBytes });
}

/** Whether `dir` holds a skill file, so that it is a skill's folder a run sees whole. */
function holdsSkillFile(dir: string, names: readonly string[]): boolean {
  for (const name of ["SKILL.md", "skill.md"]) {
    if (!names.includes(name)) continue;
    if (statSync(path.join(dir, name), { throwIfNoEntry: false })?.isFile() === true) return true;
  }
  return false;
}

/**
 * Hashes the entries of `dir` (named `rel` below the root). `chain`: the real folders being walked, so a
 * link back to one of them is not followed again. `inSub`: `dir` is (inside) the substituted copy.
 */
function walk(walker: Walker, dir: string, rel: string, chain: string[], inSub: boolean): void {
  const { hash, sub } = walker;
  const names = readdirSync(dir).sort();
  const skipTopGit = rel === "" && !holdsSkillFile(dir, names);
  for (const name of names) {
    if (skipTopGit && name === ".git") continue;
    const full = path.join(dir, name);
    const relPath = rel === "" ? name : `${rel}/${name}`;
    const stat = lstatSync(full);
    count(walker, stat.isFile() && walker.contents ? stat.size : 0);
    if (!walker.contents) hash.update(`${stat.ino} ${stat.ctimeMs} ${stat.size} ${stat.mode}\0`);
    if (!inSub && sub !== undefined && relPath === sub.rel) {
      // The staged copy takes the entry's place; a link on the way to it is hashed as the link it is.
      if (stat.isSymbolicLink()) hash.update(`l ${relPath}\0${readlinkSync(full)}\n`);
      hash.update(`d ${relPath}\n`);
      walk(walker, sub.dir, relPath, chain, true);
    } else if (stat.isDirectory()) {
      hash.update(`d ${relPath}\n`);
      walk(walker, full, relPath, chain, inSub);
    } else if (stat.isSymbolicLink()) {
      hash.update(`l ${relPath}\0${readlinkSync(full)}\n`);
      followDirLink(walker, full, relPath, chain, inSub);
    } else if (stat.isFile()) {
      const mode = (stat.mode & 0o111) === 0 ? "f" : "x";
      hash.update(`${mode} ${relPath}\0${walker.contents ? hashFile(full, stat.size) : ""}\n`);
    }
  }
}

const chunk = Buffer.alloc(1024 * 1024);

/**
 * Kernel file systems a link may point into but the digest never walks: their files can block a read or
 * never end, and no skill ships content there (a run sees its skill's folder, not these).
 */
const SYSTEM_TREES = ["/proc", "/sys", "/dev"];

/**
 * SHA-256 (hex) of the regular file at `file` (`size` bytes when it was listed), read in chunks without
 * following a link swapped in and without blocking on a FIFO or device swapped in; a swap, or a file
 * grown past `size`, throws (the root is then not trusted).
 */
function hashFile(file: string, size: number): string {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${file} changed while it was read`);
    const hash = createHash("sha256");
    // Never more than the size counted against the cap: a file growing while it is read is a change.
    let total = 0;
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      total += read;
      if (total > size) throw new Error(`${file} changed while it was read`);
      hash.update(chunk.subarray(0, read));
    }
    return hash.digest("hex");
  } finally {
    closeSync(fd);
  }
}

/** Hashes what a link leads to when it is a folder the rest of the walk does not cover. */
function followDirLink(walker: Walker, link: string, relPath: string, chain: string[], inSub: boolean): void {
  let target: string;
  try {
    target = realpathSync(link);
  } catch {
    return; // a dangling link: its target string is all there is
  }
  if (walker.covered.some((c) => isInside(c, target)) || SYSTEM_TREES.some((t) => isInside(t, target)))
    return;
  if (!statSync(target).isDirectory()) return;
  if (chain.includes(target)) {
    walker.hash.update(`loop ${relPath}\n`);
    return;
  }
  walker.hash.update(`d ${relPath}\n`);
  walk(walker, target, relPath, [...chain, target], inSub);
}
