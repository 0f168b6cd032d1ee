import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ParseMode } from "../spec/types.js";
import { readChecksummedFile, writeChecksummedFile } from "./checksummed-file.js";
import type { CatalogState } from "./scan-catalog.js";
import type { SkillRoot } from "./types.js";

const MAGIC = "skillrt-search-cache";
const VERSION = 2;

/**
 * What a stored search index was built over: every served record's name, location, scope and root
 * with its SKILL.md's identity (a record from an unchanged file is unchanged), memory skills whole, and
 * the parse mode. Two catalog states with the same key have the same records.
 */
export function searchCacheKey(state: CatalogState, mode: ParseMode): string {
  // One string hashed once: 10,000 separate update() calls cost more than building it.
  const parts: string[] = [mode];
  for (const record of state.records) {
    const scanned = state.scanned.get(record.dir);
    const id = scanned?.record === record ? scanned.id : undefined;
    parts.push(
      id !== undefined
        ? `${record.name}\0${record.location}\0${record.scope}\0${record.source}\0${id.dev}:${id.ino}:${id.size}:${id.mtimeMs}:${id.ctimeMs}`
        : JSON.stringify(record),
    );
  }
  return createHash("sha256").update(parts.join("\u0001")).digest("hex");
}

function searchCacheFile(cacheDir: string, roots: readonly SkillRoot[], mode: ParseMode): string {
  const key = createHash("sha256")
    .update(`${mode}\0${roots.map((root) => `${root.scope}\0${root.path}`).join("\0")}`)
    .digest("hex")
    .slice(0, 24);
  return path.join(cacheDir, `search-${key}.index`);
}

/**
 * The file: JSON (`{ key, endian, data, lengths }`: the index data without its postings, and each
 * posting list's length) on one line, then the postings as one run of native 32-bit integers — no
 * per-number JSON, no base64. Read back with one copy into an Int32Array.
 */
interface Head {
  key?: unknown;
  endian?: unknown;
  data?: unknown;
  lengths?: unknown;
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
  const body = readChecksummedFile(searchCacheFile(cacheDir, roots, mode), MAGIC, VERSION);
  if (body === undefined) return undefined;
  const newline = body.indexOf(10);
  if (newline < 0) return undefined;
  let head: Head;
  try {
    head = JSON.parse(body.toString("utf8", 0, newline)) as Head;
  } catch {
    return undefined;
  }
  if (typeof head !== "object" || head === null) return undefined;
  const { key: bodyKey, endian, data, lengths } = head;
  if (bodyKey !== key || endian !== os.endianness() || typeof data !== "object" || data === null)
    return undefined;
  const postings = unpack(lengths, body.subarray(newline + 1));
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
  if (packed === undefined) return; // not an index of integer posting lists: nothing to store
  const head = JSON.stringify({
    key,
    endian: os.endianness(),
    data: { ...data, postings: undefined },
    lengths: packed.lengths,
  });
  const body = Buffer.concat([
    Buffer.from(`${head}\n`, "utf8"),
    new Uint8Array(packed.values.buffer, packed.values.byteOffset, packed.values.byteLength),
  ]);
  try {
    const file = searchCacheFile(cacheDir, roots, mode);
    writeChecksummedFile(cacheDir, file, MAGIC, VERSION, body);
    fs.rmSync(file.replace(/\.index$/, ".json"), { force: true }); // the version 1 file it replaces
  } catch {
    // Not stored: the next search builds the index again.
  }
}

function pack(postings: unknown): { lengths: number[]; values: Int32Array } | undefined {
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
  return { lengths, values };
}

function unpack(lengths: unknown, bytes: Buffer): number[][] | undefined {
  if (!Array.isArray(lengths) || bytes.length % 4 !== 0) return undefined;
  // One copy into an aligned buffer (the body's offset in the file need not be a multiple of 4).
  const ints = new Int32Array(bytes.length / 4);
  new Uint8Array(ints.buffer).set(bytes);
  const out: number[][] = [];
  let at = 0;
  for (const length of lengths as unknown[]) {
    if (typeof length !== "number" || !Number.isInteger(length) || length < 0 || at + length > ints.length) {
      return undefined;
    }
    // A plain loop: Array.from(typedArray) goes through the iterator protocol, ~10× slower here.
    const list = new Array<number>(length);
    for (let i = 0; i < length; i++) list[i] = ints[at + i]!;
    out.push(list);
    at += length;
  }
  return at === ints.length ? out : undefined;
}
