/**
 * Token counting for budgets and the context ledger: a real BPE tokenizer (gpt-tokenizer) with a small
 * cache, and a zero-cost approximation for callers who do not need exact figures.
 */
import { createRequire } from "node:module";
import type { TokenCountFile } from "./token-count-file.js";

/** Counts tokens of a text. Implementations are synchronous and never throw on any string. */
export interface TokenCounter {
  /** Identifies the counting method in ledgers and `/context` output, e.g. `o200k_base`. */
  readonly name: string;
  /** Number of tokens `text` costs. */
  count(text: string): number;
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
 * Creates a counter backed by gpt-tokenizer's encoding-specific entry (default `o200k_base`). Counts of
 * strings of at least `cacheMinLength` characters are kept in a bounded LRU keyed by the string itself,
 * because a session re-counts the same skill bodies every step.
 */
export function createTokenCounter(options: TokenCounterOptions = {}): TokenCounter {
  const encoding = options.encoding ?? "o200k_base";
  const minLength = options.cacheMinLength ?? 256;
  const cacheSize = Math.max(0, options.cacheSize ?? 128);
  const cache = new Map<string, number>();
  let countTokens: CountTokens | undefined;

  return {
    name: encoding,
    count(text: string): number {
      if (text.length === 0) return 0;
      const cacheable = text.length >= minLength && cacheSize > 0;
      if (cacheable) {
        const hit = cache.get(text);
        if (hit !== undefined) {
          cache.delete(text);
          cache.set(text, hit);
          return hit;
        }
      }
      let n = options.counts?.get(text);
      if (n === undefined) {
        countTokens ??= loadEncoding(encoding);
        n = countTokens(text, noSpecial);
        options.counts?.add(text, n);
      }
      if (cacheable) {
        cache.set(text, n);
        if (cache.size > cacheSize) {
          const oldest = cache.keys().next();
          if (oldest.done !== true) cache.delete(oldest.value);
        }
      }
      return n;
    },
  };
}

/** Zero-cost estimate: one token per four UTF-16 units, rounded up. Off by ±30% on prose, more on code and CJK. */
export const approximateTokenCounter: TokenCounter = {
  name: "approximate",
  count: (text: string): number => Math.ceil(text.length / 4),
};
