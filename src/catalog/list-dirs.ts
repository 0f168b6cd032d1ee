import fs from "node:fs";
import { type FileIdentity, fileIdentity, unchangedSince } from "./file-identity.js";
import { HEAD_BYTES, headFromBuffer, OPEN_FLAGS, type SkillHead } from "./read-skill-head.js";

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
  /** Identity of that file, taken from the descriptor its head was read from. */
  headId?: FileIdentity;
  /** Identity of the directory, taken just before it was listed (absent when it could not be). */
  id?: FileIdentity;
  /** The {@link KnownListing} this listing is, when it was found unchanged and not read again (no head then). */
  reused?: KnownListing;
}

/** A listing kept from an earlier scan (in memory or in the metadata cache), for stat-only re-scans. */
export interface KnownListing {
  id: FileIdentity;
  /** `Date.now()` before it was listed. */
  readAt: number;
  names: string[];
  kinds: number[];
}

/** A listing as kept for later scans, or undefined when it has no identity. */
export function knownListing(listing: DirListing, readAt: number): KnownListing | undefined {
  if (listing.id === undefined) return undefined;
  if (listing.reused !== undefined) return listing.reused;
  return {
    id: listing.id,
    readAt,
    names: listing.names.slice(listing.from, listing.to),
    kinds: Array.from(listing.kinds).slice(listing.from, listing.to),
  };
}

/** A directory that could not be listed; `error` carries the fs error `code`. */
export interface ListingError {
  error: { code: string };
}

export type ListingResult = DirListing | ListingError;

export interface ListDirsOptions {
  /** Read the head of each skill file found (default true). */
  heads?: boolean;
  /**
   * Listings of an earlier scan: a directory whose identity (stat) is unchanged is not listed again
   * (its listing comes back with `reused: true` and without a head).
   */
  known?: ReadonlyMap<string, KnownListing>;
  abortSignal?: AbortSignal;
}

/** Directories listed between abort checks. */
const CHUNK_DIRS = 128;

/**
 * Lists every directory of `dirs` (one level of a breadth-first search) and hands each listing to
 * `visit`, in order. Each listing carries, for a directory holding a regular `SKILL.md` (else
 * `skill.md`), the part of that file the L1 record needs. Never throws for an unreadable directory or
 * file (see {@link ListingError}; an unreadable skill file just has no head, and the scan reads it again
 * and reports why); throws only when aborted (or when `visit` throws).
 */
export function listDirs(
  dirs: readonly string[],
  options: ListDirsOptions,
  visit: (index: number, listing: ListingResult) => void,
): void {
  const scratch = options.heads === false ? undefined : Buffer.allocUnsafe(HEAD_BYTES);
  const known = options.known;
  for (let start = 0; start < dirs.length; start += CHUNK_DIRS) {
    options.abortSignal?.throwIfAborted();
    const end = Math.min(dirs.length, start + CHUNK_DIRS);
    for (let i = start; i < end; i++) visit(i, listOne(dirs[i]!, scratch, known));
  }
}

/** One directory listed, with the head of its skill file. */
function listOne(
  dir: string,
  scratch: Buffer | undefined,
  known: ReadonlyMap<string, KnownListing> | undefined,
): ListingResult {
  let entries: fs.Dirent[];
  let id: FileIdentity | undefined;
  try {
    // Stat before listing: a change made in between leaves an identity older than the listing, so the
    // next scan lists again (never the reverse).
    const stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (stat !== undefined) {
      const before = known?.get(dir);
      if (before !== undefined && unchangedSince(before.id, before.readAt, stat)) {
        const { names, kinds, id } = before;
        return { names, kinds, from: 0, to: names.length, id, reused: before };
      }
      id = fileIdentity(stat);
    }
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
    // Discovery needs only what may lead to a skill: folders, links and the skill files themselves
    // (`SKILL.md`, `skill.md`, single-file `NAME.skill.md`).
    if (
      kind !== ENTRY_DIR &&
      kind !== ENTRY_LINK &&
      entry.name !== "SKILL.md" &&
      entry.name !== "skill.md" &&
      !entry.name.endsWith(".skill.md")
    ) {
      continue;
    }
    names.push(entry.name);
    kinds.push(kind);
    if (kind === ENTRY_FILE && entry.name === "SKILL.md") which = "SKILL.md";
    else if (kind === ENTRY_FILE && entry.name === "skill.md" && which === undefined) which = "skill.md";
  }
  const listing: DirListing = { names, kinds, from: 0, to: names.length };
  if (id !== undefined) listing.id = id;
  if (which === undefined || scratch === undefined) return listing;
  let got: number;
  try {
    const fd = fs.openSync(`${dir}/${which}`, OPEN_FLAGS);
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) throw new Error("not a regular file");
      listing.headId = fileIdentity(stat);
      got = fs.readSync(fd, scratch, 0, HEAD_BYTES, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    delete listing.headId;
    return listing;
  }
  listing.headOf = which;
  const head = headFromBuffer(scratch, 0, got);
  if (head !== undefined) listing.head = head;
  return listing;
}
