/**
 * SHA-256 digests of files (`sha256:<64 hex>`, SEP-2640's form) with the byte length they cover, computed
 * on first use and kept by file
 * identity: a file whose device, inode, size and times are unchanged — and had settled when it was
 * hashed (see `SETTLE_MS`) — is not read again; any change to it is hashed anew. One cache per catalog
 * serves every MCP session of a process.
 */
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import fs from "node:fs/promises";
import { type FileIdentity, fileIdentity, unchangedSince } from "../catalog/file-identity.js";
import { readCacheFile, writeCacheFile } from "../util/trusted-cache.js";

/** The digest cache's file in the metadata cache directory. */
const CACHE_FILE = "mcp-digests-v2.json";
/** Largest digest cache file read (a million files is ~200 MB; past it the cache starts empty). */
const MAX_CACHE_BYTES = 256 * 1024 * 1024;
/** Quiet time after the last new digest before the cache file is written. */
const SAVE_AFTER_MS = 1000;

/** The digest of `bytes` in SEP-2640's form. */
export function sha256Digest(bytes: Uint8Array | string): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** A file's digest and the length of the bytes it covers (SEP-2640's `size`: the same bytes). */
export interface Digested {
  digest: string;
  size: number;
}

/** A digest cache (see the module comment). */
export interface FileDigests {
  /** The digest and size of the file at `abs` (an absolute real path). Rejects when it cannot be read. */
  digest(abs: string): Promise<Digested>;
  /** Records the digest of bytes just read from `abs` with identity `stat`, read at `readAt`. */
  remember(abs: string, stat: FileIdentity, readAt: number, bytes: Uint8Array): Digested;
  /**
   * The parsed frontmatter kept for a SKILL.md with `digest` (`null`: it has none a parser reads), or
   * undefined when none is kept. Kept with the digests, so a new process parses no unchanged SKILL.md.
   */
  frontmatter(digest: string): Record<string, unknown> | null | undefined;
  /** Keeps the parsed frontmatter of the SKILL.md with `digest`. */
  rememberFrontmatter(digest: string, frontmatter: Record<string, unknown> | null): void;
  /** Writes the cache file now when digests are new since the last write (no-op without a cache dir). */
  flush(): void;
}

/** Options of {@link createFileDigests}. */
export interface FileDigestsOptions {
  /**
   * The metadata cache directory (trusted-cache rules): digests are kept there across processes, so a
   * server's first listing reads only files changed since the last one hashed them. Default: memory only.
   */
  cacheDir?: string;
}

interface Known {
  identity: FileIdentity;
  readAt: number;
  digested: Digested;
}

/** A digest cache, primed from `cacheDir`'s file when there is one. */
export function createFileDigests(options: FileDigestsOptions = {}): FileDigests {
  const { cacheDir } = options;
  const { known, frontmatters } =
    cacheDir === undefined
      ? { known: new Map<string, Known>(), frontmatters: new Map() }
      : loadKnown(cacheDir);
  let saveTimer: NodeJS.Timeout | undefined;
  let dirty = false;
  const flush = (): void => {
    if (saveTimer !== undefined) clearTimeout(saveTimer);
    saveTimer = undefined;
    if (cacheDir === undefined || !dirty) return;
    dirty = false;
    const rows = [...known].map(([abs, k]) => [
      abs,
      k.identity.dev,
      k.identity.ino,
      k.identity.size,
      k.identity.mtimeMs,
      k.identity.ctimeMs,
      k.readAt,
      k.digested.digest,
    ]);
    // Frontmatters of SKILL.md files still known (an edited one's old parse is dropped).
    const live = new Set([...known.values()].map((k) => k.digested.digest));
    const parsed = [...frontmatters].filter(([digest]) => live.has(digest));
    try {
      writeCacheFile(cacheDir, CACHE_FILE, [JSON.stringify({ files: rows, frontmatters: parsed })]);
    } catch {
      // Not kept: the next process hashes again.
    }
  };
  // Sessions listing at once hash a file once.
  const hashing = new Map<string, Promise<Digested>>();
  const changed = (): void => {
    if (cacheDir === undefined) return;
    dirty = true;
    if (saveTimer !== undefined) clearTimeout(saveTimer);
    saveTimer = setTimeout(flush, SAVE_AFTER_MS);
    saveTimer.unref();
  };
  const remember = (abs: string, identity: FileIdentity, readAt: number, bytes: Uint8Array): Digested => {
    const digested = { digest: sha256Digest(bytes), size: bytes.length };
    known.set(abs, { identity, readAt, digested });
    changed();
    return digested;
  };
  return {
    remember,
    flush,
    frontmatter: (digest) => frontmatters.get(digest),
    rememberFrontmatter(digest, frontmatter) {
      if (frontmatters.get(digest) === frontmatter) return;
      frontmatters.set(digest, frontmatter);
      changed();
    },
    async digest(abs) {
      // A stat is microseconds: synchronous, it skips the thread pool that a page of hundreds would queue on.
      const stat = fileIdentity(statSync(abs));
      const cached = known.get(abs);
      if (cached !== undefined && unchangedSince(cached.identity, cached.readAt, stat))
        return cached.digested;
      const running = hashing.get(abs);
      if (running !== undefined) return running;
      const hashed = (async () => {
        const readAt = Date.now();
        const handle = await fs.open(abs, "r");
        try {
          const opened = fileIdentity(await handle.stat());
          return remember(abs, opened, readAt, await handle.readFile());
        } finally {
          await handle.close();
        }
      })();
      hashing.set(abs, hashed);
      try {
        return await hashed;
      } finally {
        hashing.delete(abs);
      }
    },
  };
}

/**
 * The digests kept in `cacheDir`'s file; a missing, unreadable or malformed file (or row) is no digest.
 * A row is used only while the file's identity is the one recorded (see `unchangedSince`), so a file
 * edited since, or one the cache lies about, is hashed again.
 */
function loadKnown(cacheDir: string): {
  known: Map<string, Known>;
  frontmatters: Map<string, Record<string, unknown> | null>;
} {
  const known = new Map<string, Known>();
  const frontmatters = new Map<string, Record<string, unknown> | null>();
  const result = { known, frontmatters };
  const bytes = readCacheFile(cacheDir, CACHE_FILE, MAX_CACHE_BYTES);
  if (bytes === undefined) return result;
  let saved: { files?: unknown; frontmatters?: unknown };
  try {
    saved = JSON.parse(bytes.toString("utf8"));
  } catch {
    return result;
  }
  if (typeof saved !== "object" || saved === null) return result;
  const rows = saved.files;
  if (!Array.isArray(rows)) return result;
  for (const row of rows) {
    if (!Array.isArray(row) || row.length !== 8) continue;
    const [abs, dev, ino, size, mtimeMs, ctimeMs, readAt, digest] = row as unknown[];
    if (typeof abs !== "string" || typeof digest !== "string" || !/^sha256:[0-9a-f]{64}$/.test(digest))
      continue;
    if (![dev, ino, size, mtimeMs, ctimeMs, readAt].every((n) => typeof n === "number" && Number.isFinite(n)))
      continue;
    known.set(abs, {
      identity: { dev, ino, size, mtimeMs, ctimeMs } as FileIdentity,
      readAt: readAt as number,
      digested: { digest, size: size as number },
    });
  }
  for (const pair of Array.isArray(saved.frontmatters) ? saved.frontmatters : []) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string") continue;
    const [digest, fm] = pair as [string, unknown];
    if (fm === null || (typeof fm === "object" && !Array.isArray(fm)))
      frontmatters.set(digest, fm as Record<string, unknown> | null);
  }
  return result;
}
