/**
 * A file-name-safe digest of `text` (24 hex digits: three 32-bit FNV-1a lanes with different seeds) for
 * naming cache files after what they hold. Not cryptographic: every cache file also stores what it was
 * made for, and a reader that finds another root or mode there ignores it. Computed here so that naming
 * a cache file does not load node:crypto.
 */
export function nameHash(text: string): string {
  return contentHash(text, NO_NUMBERS);
}

const NO_NUMBERS = new Float64Array(0);

const SEEDS = [0x811c9dc5, 0x050c5d1f, 0x6b43a9b5];

/**
 * A digest (24 hex digits, the lanes of {@link nameHash}) of `text` followed by the bits of `numbers`,
 * for telling whether a stored cache was made from the same data. Not cryptographic (someone who can
 * write the cache directory can write anything there); cheap: no node:crypto, and numbers are hashed as
 * their bits, not written out as decimal text first.
 */
export function contentHash(text: string, numbers: Float64Array): string {
  const words = new Int32Array(numbers.buffer, numbers.byteOffset, numbers.length * 2);
  let out = "";
  for (const seed of SEEDS) {
    let h = seed;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i]!, 0x01000193);
    out += (h >>> 0).toString(16).padStart(8, "0");
  }
  return out;
}
