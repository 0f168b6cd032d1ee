import { createHash, hash } from "node:crypto";

/**
 * A file-name-safe digest of `text` (the first 24 hex digits of its SHA-256) for naming cache files after
 * what they hold. Every cache file also stores what it was made for, and a reader that finds another root
 * or mode there ignores it.
 */
export function nameHash(text: string): string {
  return hash("sha256", text, "hex").slice(0, 24);
}

/**
 * A digest (24 hex digits, as {@link nameHash}) of `text` followed by the bits of `numbers`, for telling
 * whether a stored cache was made from the same data. Not a defence against someone who can write the
 * cache directory (the cache rule keeps them out); numbers are hashed as their bits, not written out as
 * decimal text first.
 */
export function contentHash(text: string, numbers: Float64Array): string {
  return new ContentHasher().text(text).numbers(numbers).digest();
}

/**
 * {@link contentHash} fed in pieces, without joining them first: texts `a` then `b` hash as the text
 * `a + b` (each text as UTF-16 code units), and `numbers` go after the texts.
 */
export class ContentHasher {
  readonly #hash = createHash("sha256");

  /** Adds a text's UTF-16 code units. */
  text(text: string): this {
    this.#hash.update(text, "utf16le");
    return this;
  }

  /** Adds the bits of `numbers` (each as eight bytes). */
  numbers(numbers: Float64Array): this {
    this.#hash.update(new Uint8Array(numbers.buffer, numbers.byteOffset, numbers.byteLength));
    return this;
  }

  /** The 24 hex digits of what was added. */
  digest(): string {
    return this.#hash.digest("hex").slice(0, 24);
  }
}
