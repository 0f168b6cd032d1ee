import fs from "node:fs";
import path from "node:path";
import type { Diagnostic, ParseMode } from "../spec/types.js";
import { isWithin, plainSegments } from "../util/trusted-cache.js";
import { readChecksummedFile, writeChecksummedFile } from "./checksummed-file.js";
import type { FileIdentity } from "./file-identity.js";
import { ENTRY_LINK, type KnownListing } from "./list-dirs.js";
import { nameHash } from "./name-hash.js";
import type { CatalogState, ScannedSkill } from "./scan-catalog.js";
import { fsOrigin } from "./skill-origin.js";
import type { SkillRecord, SkillRoot } from "./types.js";

/** Bumped whenever what the cache stores, or what a parse of the same bytes gives, changes. */
export const CATALOG_CACHE_VERSION = 6;
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
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
  return decodeRootCache(parsed, root, mode);
}

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isString = (value: unknown): value is string => typeof value === "string";

/** The identity in `row[at..at+5)`, when those are five numbers. */
function rowIdentity(row: unknown[], at: number): FileIdentity | undefined {
  const dev = row[at];
  const ino = row[at + 1];
  const size = row[at + 2];
  const mtimeMs = row[at + 3];
  const ctimeMs = row[at + 4];
  if (!isNumber(dev) || !isNumber(ino) || !isNumber(size) || !isNumber(mtimeMs) || !isNumber(ctimeMs))
    return undefined;
  return { dev, ino, size, mtimeMs, ctimeMs };
}

/** The cache in `parsed`, when it is for this root and mode and every entry has the shape written. */
function decodeRootCache(parsed: unknown, root: SkillRoot, mode: ParseMode): RootCache | undefined {
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const {
    root: cachedRoot,
    mode: cachedMode,
    base,
    closed,
    limits,
    known: rows,
    skills: skillRows,
  } = parsed as Record<string, unknown>;
  if (cachedRoot !== root.path || cachedMode !== mode || !isString(base) || !isString(limits))
    return undefined;
  if (typeof closed !== "boolean" || !Array.isArray(rows) || !Array.isArray(skillRows)) return undefined;
  const paths = pathCodec(base);
  let confined = true;
  const known = new Map<string, KnownListing>();
  for (const row of rows as unknown[]) {
    if (!Array.isArray(row) || row.length !== 9) return undefined;
    const [dir, readAt, , , , , , joined, kindText] = row as unknown[];
    const id = rowIdentity(row, 2);
    if (!isString(dir) || !isNumber(readAt) || id === undefined || !isString(joined) || !isString(kindText))
      return undefined;
    // Checked here, split on first use (see StoredListing).
    let count = joined === "" ? 0 : 1;
    for (let at = joined.indexOf("/"); at >= 0; at = joined.indexOf("/", at + 1)) count++;
    if (count !== kindText.length || !safeNames(joined)) return undefined;
    for (let i = 0; i < kindText.length; i++) {
      const kind = kindText.charCodeAt(i) - 48;
      if (kind < 0 || kind > 9) return undefined;
    }
    // Paths read back are confined (see `util/trusted-cache.ts`): a closed root's scan followed no link,
    // so every folder it listed and every skill it found lies inside the root's real path, `base` (listed
    // first, and checked against the real path by `reuseCachedScan`); a cache saying otherwise is not
    // closed. Checked on the stored text ("." or "./rest": below `base`, see pathCodec).
    if (known.size === 0 ? dir !== "." : !storedBelow(dir)) confined = false;
    known.set(paths.decode(dir), new StoredListing(id, readAt, joined, kindText));
  }
  const first = known.size === 0 ? undefined : base;
  const scanned = new Map<string, ScannedSkill>();
  for (const row of skillRows as unknown[]) {
    if (!Array.isArray(row) || row.length !== 11) return undefined;
    const [dirText, fileText, foundAtText, readAt, , , , , , stored, broken] = row as unknown[];
    const id = rowIdentity(row, 4);
    if (
      !isString(dirText) ||
      !isString(fileText) ||
      !isString(foundAtText) ||
      !isNumber(readAt) ||
      id === undefined
    )
      return undefined;
    const dir = paths.decode(dirText);
    const file = fileText === "" ? `${dir}/SKILL.md` : paths.decode(fileText);
    const foundAt = foundAtText === "" ? dir : paths.decode(foundAtText);
    const skill: ScannedSkill = { file, foundAt, root: root.path, readAt, id };
    if (stored === null) {
      if (!isDiagnostics(broken)) return undefined;
      skill.broken = broken;
    } else {
      if (typeof stored !== "object" || Array.isArray(stored) || broken !== null) return undefined;
      // Assigned in place: the keys keep the order they were stored in.
      const record = stored as Record<string, unknown>;
      if (record["location"] === "") record["location"] = file;
      if (record["dir"] === "") record["dir"] = dir;
      if (record["scope"] === "") record["scope"] = root.scope;
      if (record["source"] === "") record["source"] = root.path;
      if (record["origin"] === "") record["origin"] = fsOrigin(root.path, root.scope);
      if (!isRecord(record)) return undefined;
      // A record names the folder and file it was read from: one naming others is dropped (its folder is
      // read again) and the root is scanned, not reused whole.
      if (record.dir !== dir || record.location !== file || record.source !== root.path) {
        confined = false;
        continue;
      }
      skill.record = record;
    }
    // Written "" when they are `dir/SKILL.md` and `dir` (the common case: nothing more to check).
    if (first === undefined || !(dirText === "." || storedBelow(dirText))) confined = false;
    else if (fileText !== "" && (!isWithin(dir, file) || file.lastIndexOf("/") !== dir.length))
      confined = false;
    else if (foundAtText !== "" && !(isWithin(root.path, foundAt) || isWithin(first, foundAt)))
      confined = false;
    scanned.set(dir, skill);
  }
  return { known, skills: scanned, closed: closed && confined, limits };
}

/**
 * A listing as the cache stores it: its names (joined by "/") and kinds (digits) are split on first use.
 * A warm start that finds every folder unchanged only compares identities, so it never splits them.
 */
class StoredListing implements KnownListing {
  readonly id: FileIdentity;
  readonly readAt: number;
  /** The names joined by "/" (a name never holds "/"), as stored. */
  readonly joined: string;
  /** The kinds as digits, as stored. */
  readonly kindText: string;
  #names: string[] | undefined;
  #kinds: number[] | undefined;

  constructor(id: FileIdentity, readAt: number, joined: string, kindText: string) {
    this.id = id;
    this.readAt = readAt;
    this.joined = joined;
    this.kindText = kindText;
  }

  get names(): string[] {
    this.#names ??= this.joined === "" ? [] : this.joined.split("/");
    return this.#names;
  }

  get kinds(): number[] {
    if (this.#kinds === undefined) {
      const kinds = new Array<number>(this.kindText.length);
      for (let i = 0; i < kinds.length; i++) kinds[i] = this.kindText.charCodeAt(i) - 48;
      this.#kinds = kinds;
    }
    return this.#kinds;
  }
}

/** Whether a path as stored (see pathCodec) names a folder below the base, lexically. */
function storedBelow(stored: string): boolean {
  return stored.length > 2 && stored.startsWith("./") && plainSegments(stored, 1);
}

/**
 * Whether a stored listing's names (joined by "/") are names a directory can hold: none empty, `.` or
 * `..`, none with a NUL. A listing naming `..` would lead the walk out of its folder.
 */
function safeNames(joined: string): boolean {
  return joined === "" || plainSegments(`/${joined}`, 0);
}

/** Whether a listing holds a symlink (a stored one is asked without splitting it). */
function hasLink(listing: KnownListing): boolean {
  return listing instanceof StoredListing
    ? listing.kindText.includes(String(ENTRY_LINK))
    : listing.kinds.includes(ENTRY_LINK);
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
