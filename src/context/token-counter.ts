/**
 * Token counting for budgets and the context ledger: a real BPE tokenizer (gpt-tokenizer) with a small
 * cache, linear in the text's length and with an asynchronous variant that yields the event loop, and a
 * zero-cost approximation for callers who do not need exact figures.
 */
import { createRequire } from "node:module";
import { COUNT_SLICE, type CountChunk, countBounded, countBoundedAsync } from "./count-bounded.js";
import type { TokenCountFile } from "./token-count-file.js";

/** Counts tokens of a text. Implementations are synchronous and never throw on any string. */
export interface TokenCounter {
  /** Identifies the counting method in ledgers and `/context` output, e.g. `o200k_base`. */
  readonly name: string;
  /** Number of tokens `text` costs. */
  count(text: string): number;
  /**
   * The same number as {@link TokenCounter.count}, computed without holding the event loop for long (a long
   * text is counted in parts with turns of the event loop between). Optional: callers fall back to `count`
   * through {@link countTokensAsync}.
   */
  countAsync?(text: string): Promise<number>;
}

/** BPE encodings offered by {@link createTokenCounter}. `o200k_base` is GPT-4o/GPT-5's; `cl100k_base` is GPT-4's. */
export type TokenEncoding = "o200k_base" | "cl100k_base";

/** Options of {@link createTokenCounter}. */
export interface TokenCounterOptions {
  /** Default `o200k_base`. */
  encoding?: TokenEncoding;
  /** Strings at least this long (in UTF-16 units) are cached by content. Default 256. */
  cacheMinLength?: number;
  /** Most cached strings (least recently used evicted first). Default 128. */
  cacheSize?: number;
  /**
   * Counts kept between processes (`openTokenCountFile` in the cache directory): consulted before the
   * tokenizer, which is loaded only on a miss, and given every new count. Default: none.
   */
  counts?: TokenCountFile;
}

type CountTokens = (text: string, options: { disallowedSpecial: Set<string> }) => number;

const requireCjs = createRequire(import.meta.url);
const loaded = new Map<TokenEncoding, CountTokens>();
let splitPatterns: { o200k_base: RegExp; cl100k_base: RegExp } | undefined;

/** The encoding's pre-tokenizer pattern, taken from gpt-tokenizer so the two never disagree. */
function splitRegex(encoding: TokenEncoding): RegExp {
  if (splitPatterns === undefined) {
    const mod: unknown = requireCjs("gpt-tokenizer/encodingParams/constants");
    const o200k =
      typeof mod === "object" && mod !== null && "O200K_TOKEN_SPLIT_REGEX" in mod
        ? mod.O200K_TOKEN_SPLIT_REGEX
        : undefined;
    const cl100k =
      typeof mod === "object" && mod !== null && "CL100K_TOKEN_SPLIT_REGEX" in mod
        ? mod.CL100K_TOKEN_SPLIT_REGEX
        : undefined;
    if (!(o200k instanceof RegExp) || !(cl100k instanceof RegExp) || !o200k.global || !cl100k.global) {
      throw new Error("gpt-tokenizer: no pre-tokenizer patterns in encodingParams/constants");
    }
    splitPatterns = { o200k_base: o200k, cl100k_base: cl100k };
  }
  return splitPatterns[encoding];
}

/**
 * Loads an encoding on first use: each vocabulary costs ~75–150 ms to load, so a process that never counts
 * (or uses only one encoding) never pays for the other.
 */
function loadEncoding(encoding: TokenEncoding): CountTokens {
  const existing = loaded.get(encoding);
  if (existing !== undefined) return existing;
  const mod: unknown =
    encoding === "o200k_base"
      ? requireCjs("gpt-tokenizer/encoding/o200k_base")
      : requireCjs("gpt-tokenizer/encoding/cl100k_base");
  const fn = typeof mod === "object" && mod !== null && "countTokens" in mod ? mod.countTokens : undefined;
  if (typeof fn !== "function") throw new Error(`gpt-tokenizer: encoding ${encoding} has no countTokens`);
  const countTokens = fn as CountTokens;
  loaded.set(encoding, countTokens);
  return countTokens;
}

// Special-token text such as `<|endoftext|>` inside a skill body is counted as ordinary text instead of
// making the tokenizer throw.
const noSpecial = { disallowedSpecial: new Set<string>() };

/**
 * Creates a counter backed by gpt-tokenizer's encoding-specific entry (default `o200k_base`), linear in the
 * text's length (see {@link countBounded}: a pre-tokenizer chunk over 256 characters is counted in pieces,
 * so such text gets a close estimate; other text gets the tokenizer's exact count). Counts of
 * strings of at least `cacheMinLength` characters are kept in a bounded LRU keyed by the string itself,
 * because a session re-counts the same skill bodies every step.
 */
export function createTokenCounter(options: TokenCounterOptions = {}): TokenCounter {
  const encoding = options.encoding ?? "o200k_base";
  const minLength = options.cacheMinLength ?? 256;
  const cacheSize = Math.max(0, options.cacheSize ?? 128);
  const cache = new Map<string, number>();
  let tokenizer: { split: RegExp; countChunk: CountChunk } | undefined;
  const load = (): { split: RegExp; countChunk: CountChunk } => {
    if (tokenizer === undefined) {
      const countTokens = loadEncoding(encoding);
      tokenizer = { split: splitRegex(encoding), countChunk: (t) => countTokens(t, noSpecial) };
    }
    return tokenizer;
  };

  /** A count already known (cache, then counts file), or `undefined`. */
  const known = (text: string): number | undefined => {
    if (text.length >= minLength && cacheSize > 0) {
      const hit = cache.get(text);
      if (hit !== undefined) {
        cache.delete(text);
        cache.set(text, hit);
        return hit;
      }
    }
    const stored = options.counts?.get(text);
    if (stored !== undefined) remember(text, stored, false);
    return stored;
  };
  const remember = (text: string, n: number, counted: boolean): void => {
    if (counted) options.counts?.add(text, n);
    if (text.length < minLength || cacheSize === 0) return;
    cache.set(text, n);
    if (cache.size > cacheSize) {
      const oldest = cache.keys().next();
      if (oldest.done !== true) cache.delete(oldest.value);
    }
  };

  return {
    name: encoding,
    count(text: string): number {
      if (text.length === 0) return 0;
      const hit = known(text);
      if (hit !== undefined) return hit;
      const { split, countChunk } = load();
      const n = countBounded(text, split, countChunk);
      remember(text, n, true);
      return n;
    },
    async countAsync(text: string): Promise<number> {
      if (text.length === 0) return 0;
      const hit = known(text);
      if (hit !== undefined) return hit;
      const { split, countChunk } = load();
      const n =
        text.length <= COUNT_SLICE
          ? countBounded(text, split, countChunk)
          : await countBoundedAsync(text, split, countChunk);
      remember(text, n, true);
      return n;
    },
  };
}

/**
 * Counts `text` with `counter`, letting other work run meanwhile when the counter can
 * ({@link TokenCounter.countAsync}); the same number as `counter.count(text)`.
 */
export function countTokensAsync(counter: TokenCounter, text: string): Promise<number> {
  return counter.countAsync === undefined ? Promise.resolve(counter.count(text)) : counter.countAsync(text);
}

/** Zero-cost estimate: one token per four UTF-16 units, rounded up. Off by ±30% on prose, more on code and CJK. */
export const approximateTokenCounter: TokenCounter = {
  name: "approximate",
  count: (text: string): number => Math.ceil(text.length / 4),
};
