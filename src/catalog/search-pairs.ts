import { fieldTexts } from "./search-field-texts.js";
import { tokenize } from "./tokenize.js";
import type { SkillRecord } from "./types.js";

/** The query's adjacent term pairs ("cross validation", "threat model"), as hashes ({@link pairHash}). */
export function adjacentPairs(sequence: readonly string[]): Set<number> {
  return new Set(adjacentWords(sequence).map(([a, b]) => pairHash(a, b)));
}

/** The query's adjacent pairs of different terms. */
export function adjacentWords(sequence: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 1; i < sequence.length; i++)
    if (sequence[i - 1] !== sequence[i]) pairs.push([sequence[i - 1]!, sequence[i]!]);
  return pairs;
}

/** The adjacent term pairs of a record's searched texts, as sorted hashes ({@link pairHash}). */
export function recordPairs(record: SkillRecord, fields: number): Int32Array {
  const hashes: number[] = [];
  const add = (text: string) => {
    const terms = tokenize(text);
    for (let i = 1; i < terms.length; i++) hashes.push(pairHash(terms[i - 1]!, terms[i]!));
  };
  for (const [, text] of fieldTexts(record, fields)) add(text);
  return Int32Array.from(new Set(hashes)).sort();
}

/** A 32-bit FNV-1a hash of the pair `a b`. */
export function pairHash(a: string, b: string): number {
  let h = 0x811c9dc5;
  const text = `${a} ${b}`;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** Whether sorted `hashes` holds `hash`. */
export function hasHash(hashes: Int32Array, hash: number): boolean {
  let lo = 0;
  let hi = hashes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (hashes[mid]! < hash) lo = mid + 1;
    else hi = mid;
  }
  return lo < hashes.length && hashes[lo] === hash;
}
