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
  return new ContentHasher().text(text).numbers(numbers).digest();
}

const PRIME = 0x01000193;

/**
 * {@link contentHash} fed in pieces, without joining them first: texts `a` then `b` hash as the text
 * `a + b`, and `numbers` go after the texts. The three lanes are updated in one pass over each piece.
 */
export class ContentHasher {
  #a = SEEDS[0]!;
  #b = SEEDS[1]!;
  #c = SEEDS[2]!;

  /** Adds a text's UTF-16 code units. */
  text(text: string): this {
    for (let i = 0; i < text.length; i++) this.#mix(text.charCodeAt(i));
    return this;
  }

  /** Adds the bits of `numbers` (each as two 32-bit words). */
  numbers(numbers: Float64Array): this {
    const words = new Int32Array(numbers.buffer, numbers.byteOffset, numbers.length * 2);
    for (let i = 0; i < words.length; i++) this.#mix(words[i]!);
    return this;
  }

  #mix(unit: number): void {
    this.#a = Math.imul(this.#a ^ unit, PRIME);
    this.#b = Math.imul(this.#b ^ unit, PRIME);
    this.#c = Math.imul(this.#c ^ unit, PRIME);
  }

  /** The 24 hex digits of what was added. */
  digest(): string {
    return [this.#a, this.#b, this.#c].map((h) => (h >>> 0).toString(16).padStart(8, "0")).join("");
  }
}
