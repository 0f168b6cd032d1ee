import { createHash } from "node:crypto";
import path from "node:path";
import type { Diagnostic, ParseMode } from "../spec/types.js";
import { readChecksummedJson, writeChecksummedJson } from "./checksummed-json.js";
import type { FileIdentity } from "./file-identity.js";
import type { KnownListing } from "./list-dirs.js";
import type { CatalogState, ScannedSkill } from "./scan-catalog.js";
import { type RecordFields, toSkillRecord } from "./to-skill-record.js";
import type { SkillRoot } from "./types.js";

/** Bumped whenever what the cache stores, or what a parse of the same bytes gives, changes. */
export const CATALOG_CACHE_VERSION = 1;
const MAGIC = "skillrt-catalog-cache";

/** What the cache holds for one root: the listings and skill files of its last scan. */
export interface RootCache {
  /** Listings by real directory path. */
  known: Map<string, KnownListing>;
  /** Scanned skills by real skill directory. */
  skills: Map<string, ScannedSkill>;
}

/** The cache of every root of a catalog, as loaded: what a scan may reuse once it has checked it. */
export interface LoadedCatalogCache {
  /** Per root (same order as the roots), undefined where nothing usable was cached. */
  roots: (RootCache | undefined)[];
  /** Every cached skill of every root, by real skill directory (the scan's `previous`). */
  previous: Map<string, ScannedSkill>;
}

/** The file holding one root's cache (named by a hash of the root's path and the parse mode). */
export function rootCacheFile(cacheDir: string, root: SkillRoot, mode: ParseMode): string {
  const key = createHash("sha256").update(`${root.path}\0${mode}`).digest("hex").slice(0, 24);
  return path.join(cacheDir, `catalog-${key}.json`);
}

/**
 * Loads the cached listings and skills of each root. A file that is missing, of another version,
 * for another root or mode, truncated, or whose checksum or shape does not hold is ignored (that root
 * is scanned afresh); nothing here throws. What is loaded is only a candidate: the scan reuses an
 * entry only when its directory's or file's identity (dev, inode, size, mtime, ctime) is unchanged.
 */
export function loadCatalogCache(
  cacheDir: string,
  roots: readonly SkillRoot[],
  mode: ParseMode,
): LoadedCatalogCache {
  const previous = new Map<string, ScannedSkill>();
  const loaded = roots.map((root) => {
    const cache = readRootCache(rootCacheFile(cacheDir, root, mode), root, mode);
    if (cache !== undefined) for (const [dir, skill] of cache.skills) previous.set(dir, skill);
    return cache;
  });
  return { roots: loaded, previous };
}

/**
 * Writes the cache of every root whose scan did not just reuse what `cached` holds for it (new, changed
 * or removed entries). Each file is written whole to a private temporary file and renamed into place, so
 * concurrent processes see either the old or the new cache, never a mix. Failures (read-only home, full
 * disk) are ignored: the cache only ever saves time. Returns what the cache now holds per root, for the
 * next call's `cached`.
 */
export function saveCatalogCache(
  cacheDir: string,
  roots: readonly SkillRoot[],
  mode: ParseMode,
  state: CatalogState,
  cached: readonly (RootCache | undefined)[],
): (RootCache | undefined)[] {
  const byRoot = new Map<string, Map<string, ScannedSkill>>();
  for (const [dir, skill] of state.scanned) {
    let skills = byRoot.get(skill.root);
    if (skills === undefined) {
      skills = new Map();
      byRoot.set(skill.root, skills);
    }
    skills.set(dir, skill);
  }
  return roots.map((root, i) => {
    const known = state.listings[i] ?? new Map<string, KnownListing>();
    const skills = byRoot.get(root.path) ?? new Map<string, ScannedSkill>();
    const before = cached[i];
    if (before === undefined && known.size === 0) return undefined; // a missing root: nothing to keep
    if (before !== undefined && sameEntries(before.known, known) && sameEntries(before.skills, skills)) {
      return before;
    }
    try {
      writeRootCache(cacheDir, rootCacheFile(cacheDir, root, mode), root, mode, { known, skills });
      return { known, skills };
    } catch {
      return undefined; // not cached this time; the next run scans this root afresh
    }
  });
}

/** True when `next` holds exactly the entry objects of `before` (everything was reused). */
function sameEntries<T>(before: ReadonlyMap<string, T>, next: ReadonlyMap<string, T>): boolean {
  if (before.size !== next.size) return false;
  for (const [key, value] of next) if (before.get(key) !== value) return false;
  return true;
}

type IdTuple = [dev: number, ino: number, size: number, mtimeMs: number, ctimeMs: number];
type ListingTuple = [dir: string, readAt: number, ...id: IdTuple, names: string[], kinds: number[]];
/**
 * One skill: `file` is "" for `<dir>/SKILL.md` and `foundAt` "" when it is `dir`; `fields` is 0 for a
 * broken skill, whose diagnostics are then the reasons; the record's location, dir, scope and source
 * come from the entry and its root.
 */
type SkillTuple = [
  dir: string,
  file: string,
  foundAt: string,
  readAt: number,
  ...id: IdTuple,
  fields: { [K in keyof RecordFields]-?: RecordFields[K] | undefined } | 0,
  diagnostics: Diagnostic[],
];

interface CacheBody {
  v: number;
  root: string;
  mode: ParseMode;
  listings: ListingTuple[];
  skills: SkillTuple[];
}

function writeRootCache(
  cacheDir: string,
  file: string,
  root: SkillRoot,
  mode: ParseMode,
  cache: RootCache,
): void {
  const listings: ListingTuple[] = [];
  for (const [dir, listing] of cache.known)
    listings.push([dir, listing.readAt, ...idTuple(listing.id), listing.names, listing.kinds]);
  const skills: SkillTuple[] = [];
  for (const [dir, skill] of cache.skills) {
    if (skill.id === undefined) continue;
    const record = skill.record;
    // Absent optional fields are written as undefined, which JSON leaves out.
    const fields: { [K in keyof RecordFields]-?: RecordFields[K] | undefined } | 0 =
      record === undefined
        ? 0
        : {
            name: record.name,
            description: record.description,
            extras: record.extras,
            license: record.license,
            compatibility: record.compatibility,
            allowedTools: record.allowedTools,
            metadata: record.metadata,
          };
    const file = skill.file === `${dir}/SKILL.md` ? "" : skill.file;
    const foundAt = skill.foundAt === dir ? "" : skill.foundAt;
    const diagnostics = record?.diagnostics ?? skill.broken ?? [];
    skills.push([dir, file, foundAt, skill.readAt, ...idTuple(skill.id), fields, diagnostics]);
  }
  const body: CacheBody = { v: CATALOG_CACHE_VERSION, root: root.path, mode, listings, skills };
  writeChecksummedJson(cacheDir, file, MAGIC, CATALOG_CACHE_VERSION, body);
}

function idTuple(id: FileIdentity): IdTuple {
  return [id.dev, id.ino, id.size, id.mtimeMs, id.ctimeMs];
}

/** One root's cache file, or undefined when it is absent or cannot be trusted. */
export function readRootCache(file: string, root: SkillRoot, mode: ParseMode): RootCache | undefined {
  const body = readChecksummedJson(file, MAGIC, CATALOG_CACHE_VERSION);
  if (body === undefined) return undefined;
  try {
    return fromBody(body, root, mode);
  } catch {
    return undefined;
  }
}

/** The cache in `body`, when every entry has the shape written; else undefined. */
function fromBody(body: unknown, root: SkillRoot, mode: ParseMode): RootCache | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const {
    v,
    root: rootPath,
    mode: bodyMode,
    listings,
    skills,
  } = body as Partial<Record<keyof CacheBody, unknown>>;
  if (v !== CATALOG_CACHE_VERSION || rootPath !== root.path || bodyMode !== mode) return undefined;
  if (!Array.isArray(listings) || !Array.isArray(skills)) return undefined;
  const known = new Map<string, KnownListing>();
  for (const entry of listings as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 9) return undefined;
    const [dir, readAt, dev, ino, size, mtimeMs, ctimeMs, names, kinds] = entry as unknown[];
    const id = toId(dev, ino, size, mtimeMs, ctimeMs);
    if (typeof dir !== "string" || typeof readAt !== "number" || id === undefined) return undefined;
    if (!isStringArray(names) || !isNumberArray(kinds) || names.length !== kinds.length) return undefined;
    known.set(dir, { id, readAt, names, kinds });
  }
  const scanned = new Map<string, ScannedSkill>();
  for (const entry of skills as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 11) return undefined;
    const [dir, fileOr, foundAtOr, readAt, dev, ino, size, mtimeMs, ctimeMs, fields, diagnostics] =
      entry as unknown[];
    const id = toId(dev, ino, size, mtimeMs, ctimeMs);
    if (typeof dir !== "string" || typeof fileOr !== "string" || typeof foundAtOr !== "string")
      return undefined;
    if (typeof readAt !== "number" || id === undefined) return undefined;
    if (!Array.isArray(diagnostics) || !diagnostics.every(isDiagnostic)) return undefined;
    const file = fileOr === "" ? `${dir}/SKILL.md` : fileOr;
    const skill: ScannedSkill = {
      file,
      foundAt: foundAtOr === "" ? dir : foundAtOr,
      root: root.path,
      readAt,
      id,
    };
    if (fields === 0) {
      skill.broken = diagnostics;
    } else {
      if (!isFields(fields)) return undefined;
      skill.record = toSkillRecord(
        { skillFile: file, dir, scope: root.scope, root: root.path },
        fields,
        diagnostics,
      );
    }
    scanned.set(dir, skill);
  }
  return { known, skills: scanned };
}

function toId(
  dev: unknown,
  ino: unknown,
  size: unknown,
  mtimeMs: unknown,
  ctimeMs: unknown,
): FileIdentity | undefined {
  if (
    typeof dev !== "number" ||
    typeof ino !== "number" ||
    typeof size !== "number" ||
    typeof mtimeMs !== "number" ||
    typeof ctimeMs !== "number"
  ) {
    return undefined;
  }
  return { dev, ino, size, mtimeMs, ctimeMs };
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isNumberArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((item) => typeof item === "number");
}

function isDiagnostic(value: unknown): value is Diagnostic {
  if (typeof value !== "object" || value === null) return false;
  const d = value as Record<string, unknown>;
  return (
    typeof d["code"] === "string" &&
    (d["severity"] === "error" || d["severity"] === "warning") &&
    typeof d["message"] === "string" &&
    typeof d["path"] === "string"
  );
}

/** The parsed fields of a record, with their types. */
function isFields(value: unknown): value is RecordFields {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r["name"] === "string" &&
    typeof r["description"] === "string" &&
    typeof r["extras"] === "object" &&
    r["extras"] !== null &&
    (r["license"] === undefined || typeof r["license"] === "string") &&
    (r["compatibility"] === undefined || typeof r["compatibility"] === "string") &&
    (r["allowedTools"] === undefined || isStringArray(r["allowedTools"])) &&
    (r["metadata"] === undefined || (typeof r["metadata"] === "object" && r["metadata"] !== null))
  );
}
