import fs from "node:fs";
import path from "node:path";
import type { ParseMode } from "../spec/types.js";
import { readChecksummedFile, writeChecksummedFile } from "./checksummed-file.js";
import { decodeRootCache, hasLink, pathCodec, type RootCache, StoredListing } from "./decode-root-cache.js";
import type { KnownListing } from "./list-dirs.js";
import { nameHash } from "./name-hash.js";
import type { CatalogState, ScannedSkill } from "./scan-catalog.js";
import { fsOrigin } from "./skill-origin.js";
import type { SkillRoot } from "./types.js";

/** Bumped whenever what the cache stores, or what a parse of the same bytes gives, changes. */
export const CATALOG_CACHE_VERSION = 8;
export type { RootCache };

const MAGIC = "skillrt-catalog-cache";

/** The cache of every root of a catalog, as loaded: what a scan may reuse once it has checked it. */
export interface LoadedCatalogCache {
  /** Per root (same order as the roots), undefined where nothing usable was cached. */
  roots: (RootCache | undefined)[];
  /** Every cached skill of every root, by real skill directory (the scan's `previous`). */
  previous: Map<string, ScannedSkill>;
}

/** The file holding one root's cache (named by a hash of the root's path and the parse mode). */
export function rootCacheFile(cacheDir: string, root: SkillRoot, mode: ParseMode): string {
  return path.join(cacheDir, `catalog-${nameHash(`${root.path}\0${mode}`)}.cache`);
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
  const loaded = roots.map((root) => readRootCache(rootCacheFile(cacheDir, root, mode), root, mode));
  let previous: Map<string, ScannedSkill> | undefined;
  return {
    roots: loaded,
    // Gathered when a scan asks (a warm start that reuses the cached state whole never does).
    get previous() {
      if (previous === undefined) {
        previous = new Map();
        for (const cache of loaded)
          if (cache !== undefined) for (const [dir, skill] of cache.skills) previous.set(dir, skill);
      }
      return previous;
    },
  };
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
  limits: string,
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
    const closed = isClosed(root, state, known, skills);
    if (
      before !== undefined &&
      before.closed === closed &&
      before.limits === limits &&
      sameEntries(before.known, known) &&
      sameEntries(before.skills, skills)
    ) {
      return before;
    }
    try {
      const cache: RootCache = { known, skills, closed, limits };
      const bytes = encodeRootCache(root, mode, cache);
      const file = rootCacheFile(cacheDir, root, mode);
      writeChecksummedFile(cacheDir, file, MAGIC, CATALOG_CACHE_VERSION, bytes);
      // The version 1 cache (JSON) of this root, replaced by this one.
      fs.rmSync(file.replace(/\.cache$/, ".json"), { force: true });
      return cache;
    } catch {
      return undefined; // not cached this time; the next run scans this root afresh
    }
  });
}

/** See {@link RootCache.closed}. */
function isClosed(
  root: SkillRoot,
  state: CatalogState,
  known: ReadonlyMap<string, KnownListing>,
  skills: ReadonlyMap<string, ScannedSkill>,
): boolean {
  const inside = `${root.path}/`;
  for (const d of state.discoveryDiagnostics)
    if (d.path === root.path || d.path.startsWith(inside)) return false;
  for (const listing of known.values()) if (hasLink(listing)) return false;
  for (const skill of skills.values()) if (skill.id === undefined) return false;
  return true;
}

/** True when `next` holds exactly the entry objects of `before` (everything was reused). */
function sameEntries<T>(before: ReadonlyMap<string, T>, next: ReadonlyMap<string, T>): boolean {
  if (before.size !== next.size) return false;
  for (const [key, value] of next) if (before.get(key) !== value) return false;
  return true;
}

/**
 * One root's cache as JSON text (parsed by V8 in one call — several times faster than reading cells
 * one by one): `{ root, mode, base, closed, limits, known, skills }`. Paths are stored relative to `base`
 * (the root's real path; see {@link pathCodec}). `known` holds one row per listing: `[dir, readAt, dev,
 * ino, size, mtimeMs, ctimeMs, names joined by "/", kinds as digits]`; `skills` one row per skill with an
 * identity: `[dir, file ("" for dir/SKILL.md), foundAt ("" for dir), readAt, dev, ino, size, mtimeMs,
 * ctimeMs, record or null, diagnostics or null]`. A record is stored whole, key by key in its own order
 * (so fields added to records are kept without a format change), except that its location, directory,
 * scope and source are `""` when they are what the entry implies (a string, like the value it stands for:
 * V8 then keeps one shape for every parsed record). JSON escapes lone surrogates, so every
 * string comes back as it was.
 */
function encodeRootCache(root: SkillRoot, mode: ParseMode, cache: RootCache): Buffer {
  let base = root.path;
  for (const dir of cache.known.keys()) {
    base = dir; // the root's real path: listed first
    break;
  }
  const paths = pathCodec(base);
  const known: unknown[] = [];
  for (const [dir, listing] of cache.known) {
    const { id } = listing;
    known.push([
      paths.encode(dir),
      listing.readAt,
      id.dev,
      id.ino,
      id.size,
      id.mtimeMs,
      id.ctimeMs,
      listing instanceof StoredListing ? listing.joined : listing.names.join("/"),
      listing instanceof StoredListing ? listing.kindText : listing.kinds.join(""),
    ]);
  }
  const skills: unknown[] = [];
  for (const [dir, skill] of cache.skills) {
    const id = skill.id;
    if (id === undefined) continue;
    const file = skill.file === `${dir}/SKILL.md` ? "" : paths.encode(skill.file);
    const foundAt = skill.foundAt === dir ? "" : paths.encode(skill.foundAt);
    let record: Record<string, unknown> | null = null;
    if (skill.record !== undefined) {
      record = { ...skill.record };
      if (record["origin"] === fsOrigin(root.path, root.scope)) record["origin"] = ""; // the root's
      if (record["location"] === skill.file) record["location"] = "";
      if (record["dir"] === dir) record["dir"] = "";
      if (record["scope"] === root.scope) record["scope"] = "";
      if (record["source"] === root.path) record["source"] = "";
    }
    skills.push([
      paths.encode(dir),
      file,
      foundAt,
      skill.readAt,
      id.dev,
      id.ino,
      id.size,
      id.mtimeMs,
      id.ctimeMs,
      record,
      record === null ? (skill.broken ?? []) : null,
    ]);
  }
  const body = { root: root.path, mode, base, closed: cache.closed, limits: cache.limits, known, skills };
  return Buffer.from(JSON.stringify(body), "utf8");
}

/** One root's cache file, or undefined when it is absent or cannot be trusted. */
export function readRootCache(file: string, root: SkillRoot, mode: ParseMode): RootCache | undefined {
  const body = readChecksummedFile(file, MAGIC, CATALOG_CACHE_VERSION);
  if (body === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
  return decodeRootCache(parsed, root, mode);
}
