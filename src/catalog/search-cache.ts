import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ParseMode } from "../spec/types.js";
import { readChecksummedFile, writeChecksummedFile } from "./checksummed-file.js";
import { ContentHasher, nameHash } from "./name-hash.js";
import type { CatalogState } from "./scan-catalog.js";
import type { SkillRoot } from "./types.js";

const MAGIC = "skillrt-search-cache";
const VERSION = 4;

/**
 * What a stored search index was built over: every served record's location with its SKILL.md's
 * identity (the same file read in the same parse mode gives the same record: name, description, extras
 * and body alike), memory skills whole, in order, and the parse mode. Two catalog states with the same
 * key have the same searched texts in the same order (their scope and root may differ: the index does
 * not hold them).
 */
export function searchCacheKey(state: CatalogState, mode: ParseMode): string {
  // The texts are hashed one by one as if joined by \u0001 (10,000 locations joined first made a string of
  // ~600,000 characters to throw away), and the identities as the bytes of their numbers (writing 50,000
  // numbers as decimal text costs more still).
  const hasher = new ContentHasher().text(mode);
  const ids = new Float64Array(state.records.length * 5);
  for (let i = 0; i < state.records.length; i++) {
    const record = state.records[i]!;
    const scanned = state.scanned.get(record.dir);
    const id = scanned?.record === record ? scanned.id : undefined;
    hasher.text("\u0001");
    if (id === undefined) {
      hasher.text(JSON.stringify(record));
      ids.fill(Number.NaN, i * 5, i * 5 + 5); // a record without identity: its whole JSON is in the text
      continue;
    }
    hasher.text(record.location);
    const at = i * 5;
    ids[at] = id.dev;
    ids[at + 1] = id.ino;
    ids[at + 2] = id.size;
    ids[at + 3] = id.mtimeMs;
    ids[at + 4] = id.ctimeMs;
  }
  return hasher.numbers(ids).digest();
}

function searchCacheFile(cacheDir: string, roots: readonly SkillRoot[], mode: ParseMode): string {
  const key = nameHash(`${mode}\0${roots.map((root) => `${root.scope}\0${root.path}`).join("\0")}`);
  return path.join(cacheDir, `search-${key}.index`);
}

/**
 * The file: JSON (`{ key, endian, data, arrays }`: the index data without its typed arrays, and each
 * array's field, type and length) on one line padded with spaces to a multiple of 8 bytes, then the
 * arrays' bytes one after another, each padded to 8 bytes — no per-number JSON, no base64. Read back
 * as views of the body's own buffer, without a copy.
 */
interface Head {
  key?: unknown;
  endian?: unknown;
  data?: unknown;
  arrays?: unknown;
}

/** The typed arrays a stored index may hold, by name. */
const ARRAY_TYPES = {
  Int32Array,
  Uint16Array,
  Float64Array,
} as const;
type ArrayType = keyof typeof ARRAY_TYPES;
type StoredArray = InstanceType<(typeof ARRAY_TYPES)[ArrayType]>;

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
  const { key: bodyKey, endian, data, arrays } = head;
  if (bodyKey !== key || endian !== os.endianness() || typeof data !== "object" || data === null)
    return undefined;
  const unpacked = unpack(arrays, body.subarray(newline + 1));
  return unpacked === undefined ? undefined : { ...data, ...unpacked };
}

/**
 * Stores `data` (an index's plain data: JSON values and typed arrays) for these roots and mode under
 * `key`; failures are ignored.
 */
export function writeSearchCache(
  cacheDir: string,
  roots: readonly SkillRoot[],
  mode: ParseMode,
  key: string,
  data: object,
): void {
  const plain: Record<string, unknown> = {};
  const arrays: [name: string, type: ArrayType, length: number][] = [];
  const chunks: Uint8Array[] = [];
  for (const [name, value] of Object.entries(data)) {
    const type = arrayType(value);
    if (type === undefined) {
      plain[name] = value;
      continue;
    }
    const array = value as StoredArray;
    arrays.push([name, type, array.length]);
    chunks.push(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    chunks.push(new Uint8Array(padding(array.byteLength)));
  }
  const head = JSON.stringify({ key, endian: os.endianness(), data: plain, arrays });
  // Spaces after the JSON make the arrays start at a multiple of 8 bytes into the body, which is read
  // into a buffer of its own: the views need no copy of it.
  const line = `${head}${" ".repeat(padding(Buffer.byteLength(head, "utf8") + 1))}\n`;
  const body = Buffer.concat([Buffer.from(line, "utf8"), ...chunks]);
  try {
    const file = searchCacheFile(cacheDir, roots, mode);
    writeChecksummedFile(cacheDir, file, MAGIC, VERSION, body);
    fs.rmSync(file.replace(/\.index$/, ".json"), { force: true }); // the version 1 file it replaces
  } catch {
    // Not stored: the next search builds the index again.
  }
}

function arrayType(value: unknown): ArrayType | undefined {
  for (const [name, type] of Object.entries(ARRAY_TYPES)) if (value instanceof type) return name as ArrayType;
  return undefined;
}

/** Bytes that pad `length` to a multiple of 8. */
function padding(length: number): number {
  return (8 - (length % 8)) % 8;
}

function unpack(arrays: unknown, bytes: Buffer): Record<string, StoredArray> | undefined {
  if (!Array.isArray(arrays)) return undefined;
  // Views need aligned offsets: the body's offset in the file's buffer need not be a multiple of 8.
  let buffer: Uint8Array = bytes;
  if (bytes.byteOffset % 8 !== 0) {
    buffer = new Uint8Array(bytes.length);
    buffer.set(bytes);
  }
  const out: Record<string, StoredArray> = {};
  let at = 0;
  for (const entry of arrays as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 3) return undefined;
    const [name, type, length] = entry as unknown[];
    if (typeof name !== "string" || typeof type !== "string" || !Object.hasOwn(ARRAY_TYPES, type))
      return undefined;
    if (typeof length !== "number" || !Number.isInteger(length) || length < 0) return undefined;
    const Type = ARRAY_TYPES[type as ArrayType];
    const byteLength = length * Type.BYTES_PER_ELEMENT;
    if (at + byteLength > buffer.length) return undefined;
    out[name] = new Type(buffer.buffer as ArrayBuffer, buffer.byteOffset + at, length);
    at += byteLength + padding(byteLength);
  }
  return at === buffer.length ? out : undefined;
}
