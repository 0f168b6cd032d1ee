import fs from "node:fs";
import { availableParallelism, constants } from "node:os";
import { loadNativeScanner, type NativeChunk, type NativeScanner } from "./native-scanner.js";
import { HEAD_BYTES, headFromBuffer, type SkillHead } from "./read-skill-head.js";

/** What a directory entry is, from the listing's file type (symlinks are not followed here). */
export const ENTRY_OTHER = 0;
export const ENTRY_FILE = 1;
export const ENTRY_DIR = 2;
export const ENTRY_LINK = 3;

/**
 * One listed directory: its entries are `names[from..to)` (arrays shared by the directories listed
 * together; only what may lead to a skill: folders, links, `SKILL.md` and `skill.md`, sorted by name) and,
 * when it holds a regular skill file, that file's head.
 */
export interface DirListing {
  names: readonly string[];
  /** Kind of each entry (`ENTRY_FILE`, `ENTRY_DIR`, `ENTRY_LINK`, `ENTRY_OTHER`), same index as `names`. */
  kinds: ArrayLike<number>;
  from: number;
  to: number;
  /** `SKILL.md` or `skill.md`: the regular file whose head was read with the listing. */
  headOf?: string;
  /** What the L1 record needs of that file (see `readSkillHead`); absent when the whole file must be read. */
  head?: SkillHead;
}

/** A directory that could not be listed; `error` carries the fs error `code`. */
export interface ListingError {
  error: { code: string };
}

export type ListingResult = DirListing | ListingError;

export interface ListDirsOptions {
  /**
   * List with the native scanner's background threads when it is built (default true). Off, or without
   * the addon, directories are listed on the calling thread; the results are the same.
   */
  native?: boolean;
  /** Read the head of each skill file found (default true). */
  heads?: boolean;
  abortSignal?: AbortSignal;
}

/** Directories handed over per step. */
const CHUNK_DIRS = 128;
/** How far the native threads may run ahead of what was handed over (bounds their memory: ~4 KiB each). */
const NATIVE_AHEAD = 1024;

let errnoNames: Map<number, string> | undefined;

/** `ENOENT` for 2, …: the code Node's fs errors carry (built on the first unlistable directory). */
function errnoName(errno: number): string {
  if (errnoNames === undefined) {
    errnoNames = new Map();
    for (const [name, value] of Object.entries(constants.errno)) {
      if (!errnoNames.has(value)) errnoNames.set(value, name);
    }
  }
  return errnoNames.get(errno) ?? `errno ${errno}`;
}

/**
 * Lists every directory of `dirs` (one level of a breadth-first search) and hands each listing to
 * `visit`, in order. Each listing carries, for a directory holding a regular `SKILL.md` (else
 * `skill.md`), the part of that file the L1 record needs.
 *
 * With the native scanner (see `native-scanner.ts`), background threads list and read ahead while `visit`
 * runs here, so the caller's parsing overlaps the I/O: on a small VM a directory listing costs as much
 * as reading a whole file, and this is what keeps a scan of 10,000 skills near the cost of reading their
 * SKILL.md files. Without it, everything runs on the calling thread. Never throws for an unreadable
 * directory or file (see {@link ListingError}; an unreadable skill file just has no head, and the scan
 * reads it again and reports why); throws only when aborted (or when `visit` throws).
 */
export function listDirs(
  dirs: readonly string[],
  options: ListDirsOptions,
  visit: (index: number, listing: ListingResult) => void,
): void {
  const native = options.native === false ? undefined : loadNativeScanner();
  if (native !== undefined) {
    listNative(native, dirs, options, visit);
    return;
  }
  const scratch = options.heads === false ? undefined : Buffer.allocUnsafe(HEAD_BYTES);
  for (let start = 0; start < dirs.length; start += CHUNK_DIRS) {
    options.abortSignal?.throwIfAborted();
    const end = Math.min(dirs.length, start + CHUNK_DIRS);
    for (let i = start; i < end; i++) visit(i, listOne(dirs[i]!, scratch));
  }
}

function listNative(
  native: NativeScanner,
  dirs: readonly string[],
  options: ListDirsOptions,
  visit: (index: number, listing: ListingResult) => void,
): void {
  // One core stays with this thread (it parses what the others list, and lists too while it would wait).
  const threads = Math.max(1, Math.min(3, availableParallelism() - 1, Math.ceil(dirs.length / CHUNK_DIRS)));
  const headBytes = options.heads === false ? 0 : HEAD_BYTES;
  const handle = native.start(dirs as string[], headBytes, threads, NATIVE_AHEAD);
  // The heads of a chunk land here; each skill's part is taken off before the next chunk.
  const heads = Buffer.allocUnsafeSlow(CHUNK_DIRS * HEAD_BYTES);
  try {
    for (let start = 0; start < dirs.length; start += CHUNK_DIRS) {
      options.abortSignal?.throwIfAborted();
      const end = Math.min(dirs.length, start + CHUNK_DIRS);
      unpackNative(native.take(handle, start, end, heads), heads, start, visit);
    }
  } finally {
    native.stop(handle);
  }
}

/** Hands each directory of a native chunk to `visit`, with what each head's record needs taken off `heads`. */
function unpackNative(
  chunk: NativeChunk,
  heads: Buffer,
  first: number,
  visit: (index: number, listing: ListingResult) => void,
): void {
  const { sizes, errnos, kinds, headLengths, headOf } = chunk;
  const names = chunk.names.split("\0");
  let offset = 0;
  let at = 0;
  for (let i = 0; i < sizes.length; i++) {
    const size = sizes[i]!;
    if (size < 0) {
      const errno = errnos[i]!;
      visit(first + i, { error: { code: errnoName(errno) } });
      continue;
    }
    const listing: DirListing = { names, kinds, from: offset, to: offset + size };
    offset += size;
    const got = headLengths[i]!;
    if (got >= 0) {
      listing.headOf = headOf[i] === 1 ? "SKILL.md" : "skill.md";
      const head = headFromBuffer(heads, at, got);
      if (head !== undefined) listing.head = head;
      at += got;
    }
    visit(first + i, listing);
  }
}

/** One directory listed on this thread: the same result as the native scanner's. */
function listOne(dir: string, scratch: Buffer | undefined): ListingResult {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    return { error: { code: typeof code === "string" ? code : String(error) } };
  }
  const names: string[] = [];
  const kinds: number[] = [];
  let which: string | undefined;
  for (const entry of entries) {
    const kind = entry.isFile()
      ? ENTRY_FILE
      : entry.isDirectory()
        ? ENTRY_DIR
        : entry.isSymbolicLink()
          ? ENTRY_LINK
          : ENTRY_OTHER;
    // Discovery needs only what may lead to a skill: folders, links and the skill files themselves.
    if (kind !== ENTRY_DIR && kind !== ENTRY_LINK && entry.name !== "SKILL.md" && entry.name !== "skill.md") {
      continue;
    }
    names.push(entry.name);
    kinds.push(kind);
    if (kind === ENTRY_FILE && entry.name === "SKILL.md") which = "SKILL.md";
    else if (kind === ENTRY_FILE && entry.name === "skill.md" && which === undefined) which = "skill.md";
  }
  const listing: DirListing = { names, kinds, from: 0, to: names.length };
  if (which === undefined || scratch === undefined) return listing;
  let got: number;
  try {
    const fd = fs.openSync(`${dir}/${which}`, "r");
    try {
      got = fs.readSync(fd, scratch, 0, HEAD_BYTES, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return listing;
  }
  listing.headOf = which;
  const head = headFromBuffer(scratch, 0, got);
  if (head !== undefined) listing.head = head;
  return listing;
}
