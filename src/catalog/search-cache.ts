import { createHash } from "node:crypto";
import path from "node:path";
import type { ParseMode } from "../spec/types.js";
import { readChecksummedJson, writeChecksummedJson } from "./checksummed-json.js";
import type { CatalogState } from "./scan-catalog.js";
import type { SkillRoot } from "./types.js";

const MAGIC = "skillrt-search-cache";
const VERSION = 1;

/**
 * What a stored search index was built over: every served record's name, location, scope and root
 * with its SKILL.md's identity (a record from an unchanged file is unchanged), memory skills whole, and
 * the parse mode. Two catalog states with the same key have the same records.
 */
export function searchCacheKey(state: CatalogState, mode: ParseMode): string {
  const hash = createHash("sha256").update(mode);
  for (const record of state.records) {
    const scanned = state.scanned.get(record.dir);
    const id = scanned?.record === record ? scanned.id : undefined;
    const part =
      id !== undefined
        ? `${record.name}\0${record.location}\0${record.scope}\0${record.source}\0${id.dev}:${id.ino}:${id.size}:${id.mtimeMs}:${id.ctimeMs}`
        : JSON.stringify(record);
    hash.update(`\u0001${part}`);
  }
  return hash.digest("hex");
}

function searchCacheFile(cacheDir: string, roots: readonly SkillRoot[], mode: ParseMode): string {
  const key = createHash("sha256")
    .update(`${mode}\0${roots.map((root) => `${root.scope}\0${root.path}`).join("\0")}`)
    .digest("hex")
    .slice(0, 24);
  return path.join(cacheDir, `search-${key}.json`);
}

/** Postings as one base64 run of 32-bit integers plus each list's length (no per-number JSON). */
interface Packed {
  lengths: number[];
  values: string;
}

/**
 * The index data stored for these roots and mode under `key` (see {@link searchCacheKey}), or
 * undefined (none, another state, untrusted file). What comes back is as it was stored: the index's
 * own loader checks it.
 */
export function readSearchCache(
  cacheDir: string,
  roots: readonly SkillRoot[],
  mode: ParseMode,
  key: string,
): unknown {
  const body = readChecksummedJson(searchCacheFile(cacheDir, roots, mode), MAGIC, VERSION);
  if (typeof body !== "object" || body === null) return undefined;
  const { key: bodyKey, data, packed } = body as { key?: unknown; data?: unknown; packed?: unknown };
  if (bodyKey !== key || typeof data !== "object" || data === null) return undefined;
  if (packed === undefined) return data;
  const postings = unpack(packed);
  return postings === undefined ? undefined : { ...data, postings };
}

/** Stores `data` (an index's plain data) for these roots and mode under `key`; failures are ignored. */
export function writeSearchCache(
  cacheDir: string,
  roots: readonly SkillRoot[],
  mode: ParseMode,
  key: string,
  data: { postings?: unknown },
): void {
  const packed = pack(data.postings);
  const body = packed === undefined ? { key, data } : { key, data: { ...data, postings: undefined }, packed };
  try {
    writeChecksummedJson(cacheDir, searchCacheFile(cacheDir, roots, mode), MAGIC, VERSION, body);
  } catch {
    // Not stored: the next search builds the index again.
  }
}

function pack(postings: unknown): Packed | undefined {
  if (!Array.isArray(postings)) return undefined;
  let total = 0;
  for (const list of postings) {
    if (!Array.isArray(list)) return undefined;
    total += list.length;
  }
  const values = new Int32Array(total);
  const lengths: number[] = [];
  let at = 0;
  for (const list of postings as unknown[][]) {
    for (const value of list) {
      if (typeof value !== "number" || !Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31) {
        return undefined;
      }
      values[at++] = value;
    }
    lengths.push(list.length);
  }
  return {
    lengths,
    values: Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString("base64"),
  };
}

function unpack(packed: unknown): number[][] | undefined {
  if (typeof packed !== "object" || packed === null) return undefined;
  const { lengths, values } = packed as Partial<Packed>;
  if (!Array.isArray(lengths) || typeof values !== "string") return undefined;
  const bytes = Buffer.from(values, "base64");
  if (bytes.length % 4 !== 0) return undefined;
  const ints = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4).slice();
  const out: number[][] = [];
  let at = 0;
  for (const length of lengths) {
    if (typeof length !== "number" || !Number.isInteger(length) || length < 0 || at + length > ints.length) {
      return undefined;
    }
    out.push(Array.from(ints.subarray(at, at + length)));
    at += length;
  }
  return at === ints.length ? out : undefined;
}
