/**
 * The catalog cache's format read back: one root's cache body, checked entry by entry (shapes, paths
 * inside the root, names, diagnostics) before a scan may trust it. Anything else is undefined: the
 * root is scanned instead.
 */
import type { Diagnostic, ParseMode } from "../spec/types.js";
import { isWithin, plainSegments } from "../util/trusted-cache.js";
import type { FileIdentity } from "./file-identity.js";
import { ENTRY_LINK, type KnownListing } from "./list-dirs.js";
import type { ScannedSkill } from "./scan-catalog.js";
import { fsOrigin } from "./skill-origin.js";
import type { SkillRecord, SkillRoot } from "./types.js";

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

/** Paths stored relative to `base` ("." for `base` itself, "./rest" below it), others whole. */
export function pathCodec(base: string): { encode(path: string): string; decode(stored: string): string } {
  const prefix = `${base}/`;
  return {
    encode: (p) => (p === base ? "." : p.startsWith(prefix) ? `./${p.slice(prefix.length)}` : p),
    decode: (s) => (s === "." ? base : s.startsWith("./") ? prefix + s.slice(2) : s),
  };
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
export function decodeRootCache(parsed: unknown, root: SkillRoot, mode: ParseMode): RootCache | undefined {
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
export class StoredListing implements KnownListing {
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
export function hasLink(listing: KnownListing): boolean {
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
