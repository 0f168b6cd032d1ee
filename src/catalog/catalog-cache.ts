import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Diagnostic, ParseMode } from "../spec/types.js";
import { CellFormatError, CellReader, CellWriter, DERIVED } from "./cache-cells.js";
import { readChecksummedFile, writeChecksummedFile } from "./checksummed-file.js";
import type { FileIdentity } from "./file-identity.js";
import { ENTRY_LINK, type KnownListing } from "./list-dirs.js";
import type { CatalogState, ScannedSkill } from "./scan-catalog.js";
import type { SkillRecord, SkillRoot } from "./types.js";

/** Bumped whenever what the cache stores, or what a parse of the same bytes gives, changes. */
export const CATALOG_CACHE_VERSION = 3;
const MAGIC = "skillrt-catalog-cache";

/** What the cache holds for one root: the listings and skill files of its last scan. */
export interface RootCache {
  /** Listings by real directory path. */
  known: Map<string, KnownListing>;
  /** Scanned skills by real skill directory. */
  skills: Map<string, ScannedSkill>;
  /**
   * True when the scan of this root followed no symlink and reported nothing about discovery (no
   * unreadable folder, dangling link, limit reached) and every skill file had an identity: then the same
   * identities of the listed folders and skill files mean the same scan result (see `reuseCachedScan`).
   */
  closed: boolean;
  /** The discovery limits the scan ran with (`maxDepth/maxDirs`). */
  limits: string;
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
  return path.join(cacheDir, `catalog-${key}.cache`);
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
  for (const listing of known.values()) if (listing.kinds.includes(ENTRY_LINK)) return false;
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
 * Writes one root's cache as cells (see `cache-cells.ts`): the root, mode and the base path the other
 * paths are stored relative to; the record key table and record shapes (key lists); every listing (its
 * directory, identity and entries); every skill (directory, file, identity, then either its record —
 * a shape and one value per key, where the location, directory, scope and source are marked derived
 * when they are what the entry implies — or the diagnostics that make it broken). Records are stored
 * key by key, whatever keys they have, so fields added to records are kept without a format change.
 */
function encodeRootCache(root: SkillRoot, mode: ParseMode, cache: RootCache): Buffer {
  let base = root.path;
  for (const dir of cache.known.keys()) {
    base = dir; // the root's real path: listed first
    break;
  }
  const paths = pathCodec(base);
  const keys: string[] = [];
  const keyIndex = new Map<string, number>();
  const shapes: number[][] = [];
  const shapeIndex = new Map<string, number>();
  const body = new CellWriter();
  body.count(cache.known.size);
  for (const [dir, listing] of cache.known) {
    body.str(paths.encode(dir)).num(listing.readAt);
    identity(body, listing.id);
    body.str(listing.names.join("/")).str(listing.kinds.join(""));
  }
  let skills = 0;
  for (const skill of cache.skills.values()) if (skill.id !== undefined) skills++;
  body.count(skills);
  for (const [dir, skill] of cache.skills) {
    if (skill.id === undefined) continue;
    const file = skill.file === `${dir}/SKILL.md` ? "" : paths.encode(skill.file);
    const foundAt = skill.foundAt === dir ? "" : paths.encode(skill.foundAt);
    body.str(paths.encode(dir)).str(file).str(foundAt).num(skill.readAt);
    identity(body, skill.id);
    const record = skill.record;
    if (record === undefined) {
      body.tag("b").value(skill.broken ?? []);
      continue;
    }
    const recordKeys = Object.keys(record);
    const shapeKey = recordKeys.join("\0");
    let shape = shapeIndex.get(shapeKey);
    if (shape === undefined) {
      shape = shapes.length;
      shapeIndex.set(shapeKey, shape);
      shapes.push(
        recordKeys.map((key) => {
          let at = keyIndex.get(key);
          if (at === undefined) {
            at = keys.length;
            keyIndex.set(key, at);
            keys.push(key);
          }
          return at;
        }),
      );
    }
    body.tag("r").count(shape);
    const derived: Record<string, unknown> = {
      location: skill.file,
      dir,
      scope: root.scope,
      source: root.path,
    };
    const fields = record as unknown as Record<string, unknown>;
    for (const key of recordKeys) {
      const value = fields[key];
      if (Object.hasOwn(derived, key) && derived[key] === value) body.derived();
      else body.value(value);
    }
  }
  const head = new CellWriter()
    .str(root.path)
    .str(mode)
    .str(base)
    .tag(cache.closed ? "c" : "o")
    .str(cache.limits)
    .count(keys.length);
  for (const key of keys) head.str(key);
  head.count(shapes.length);
  for (const shape of shapes) {
    head.count(shape.length);
    for (const at of shape) head.count(at);
  }
  return Buffer.from(head.text() + body.text(), "utf8");
}

function identity(writer: CellWriter, id: FileIdentity): void {
  writer.num(id.dev).num(id.ino).num(id.size).num(id.mtimeMs).num(id.ctimeMs);
}

function readIdentity(reader: CellReader): FileIdentity {
  return {
    dev: reader.num(),
    ino: reader.num(),
    size: reader.num(),
    mtimeMs: reader.num(),
    ctimeMs: reader.num(),
  };
}

/** Paths stored relative to `base` ("." for `base` itself, "./rest" below it), others whole. */
function pathCodec(base: string): { encode(path: string): string; decode(stored: string): string } {
  const prefix = `${base}/`;
  return {
    encode: (p) => (p === base ? "." : p.startsWith(prefix) ? `./${p.slice(prefix.length)}` : p),
    decode: (s) => (s === "." ? base : s.startsWith("./") ? prefix + s.slice(2) : s),
  };
}

/** One root's cache file, or undefined when it is absent or cannot be trusted. */
export function readRootCache(file: string, root: SkillRoot, mode: ParseMode): RootCache | undefined {
  const body = readChecksummedFile(file, MAGIC, CATALOG_CACHE_VERSION);
  if (body === undefined) return undefined;
  try {
    return decodeRootCache(new CellReader(body.toString("utf8")), root, mode);
  } catch (error) {
    if (error instanceof CellFormatError) return undefined;
    throw error;
  }
}

/** The cache in `reader`, when it is for this root and mode and every entry has the shape written. */
function decodeRootCache(reader: CellReader, root: SkillRoot, mode: ParseMode): RootCache | undefined {
  if (reader.str() !== root.path || reader.str() !== mode) return undefined;
  const paths = pathCodec(reader.str());
  const closedTag = reader.tag();
  if (closedTag !== "c" && closedTag !== "o") return undefined;
  const limits = reader.str();
  const keys: string[] = [];
  for (let n = reader.count(); n > 0; n--) keys.push(reader.str());
  const shapes: string[][] = [];
  for (let n = reader.count(); n > 0; n--) {
    const shape: string[] = [];
    for (let k = reader.count(); k > 0; k--) {
      const key = keys[reader.count()];
      if (key === undefined) return undefined;
      shape.push(key);
    }
    shapes.push(shape);
  }
  const known = new Map<string, KnownListing>();
  for (let n = reader.count(); n > 0; n--) {
    const dir = paths.decode(reader.str());
    const readAt = reader.num();
    const id = readIdentity(reader);
    const joined = reader.str();
    const kindText = reader.str();
    const names = joined === "" ? [] : joined.split("/");
    if (names.length !== kindText.length) return undefined;
    const kinds = new Array<number>(kindText.length);
    for (let i = 0; i < kindText.length; i++) {
      const kind = kindText.charCodeAt(i) - 48;
      if (kind < 0 || kind > 9) return undefined;
      kinds[i] = kind;
    }
    known.set(dir, { id, readAt, names, kinds });
  }
  const scanned = new Map<string, ScannedSkill>();
  for (let n = reader.count(); n > 0; n--) {
    const dir = paths.decode(reader.str());
    const fileText = reader.str();
    const foundAtText = reader.str();
    const file = fileText === "" ? `${dir}/SKILL.md` : paths.decode(fileText);
    const foundAt = foundAtText === "" ? dir : paths.decode(foundAtText);
    const readAt = reader.num();
    const id = readIdentity(reader);
    const skill: ScannedSkill = { file, foundAt, root: root.path, readAt, id };
    const kind = reader.tag();
    if (kind === "b") {
      const diagnostics = reader.value();
      if (!isDiagnostics(diagnostics)) return undefined;
      skill.broken = diagnostics;
    } else if (kind === "r") {
      const shape = shapes[reader.count()];
      if (shape === undefined) return undefined;
      const record: Record<string, unknown> = {};
      for (const key of shape) {
        let value = reader.value();
        if (value === DERIVED) {
          if (key === "location") value = file;
          else if (key === "dir") value = dir;
          else if (key === "scope") value = root.scope;
          else if (key === "source") value = root.path;
          else return undefined;
        }
        record[key] = value;
      }
      if (!isRecord(record)) return undefined;
      skill.record = record;
    } else {
      return undefined;
    }
    scanned.set(dir, skill);
  }
  return reader.done ? { known, skills: scanned, closed: closedTag === "c", limits } : undefined;
}

/** What every record has, with its types (other keys are kept as stored). */
function isRecord(value: Record<string, unknown>): value is Record<string, unknown> & SkillRecord {
  return (
    typeof value["name"] === "string" &&
    typeof value["description"] === "string" &&
    typeof value["location"] === "string" &&
    typeof value["dir"] === "string" &&
    typeof value["scope"] === "string" &&
    typeof value["source"] === "string" &&
    typeof value["extras"] === "object" &&
    value["extras"] !== null &&
    typeof value["disableModelInvocation"] === "boolean" &&
    typeof value["userInvocable"] === "boolean" &&
    typeof value["active"] === "boolean" &&
    isDiagnostics(value["diagnostics"])
  );
}

function isDiagnostics(value: unknown): value is Diagnostic[] {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (!isDiagnostic(item)) return false;
  return true;
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
