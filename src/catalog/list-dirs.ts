import fs from "node:fs";
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
  /** Read the head of each skill file found (default true). */
  heads?: boolean;
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
  for (let start = 0; start < dirs.length; start += CHUNK_DIRS) {
    options.abortSignal?.throwIfAborted();
    const end = Math.min(dirs.length, start + CHUNK_DIRS);
    for (let i = start; i < end; i++) visit(i, listOne(dirs[i]!, scratch));
  }
}

/** One directory listed, with the head of its skill file. */
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
