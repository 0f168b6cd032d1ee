/**
 * Keeps BPE counting linear in the text's length. gpt-tokenizer first splits a text into pre-tokenizer
 * chunks (words, punctuation runs, whitespace runs), then merges each chunk's bytes pair by pair; that merge
 * is quadratic in the chunk's length, so one unbroken 400,000-letter "word" in a skill body took minutes
 * and blocked the event loop the whole time. Chunks longer than {@link MAX_BPE_CHUNK} are counted in pieces
 * of at most that length instead, which bounds the work per chunk; prose, code and markup practically never
 * have such chunks and are counted exactly as the tokenizer counts them.
 */

/** gpt-tokenizer's `countTokens` for one encoding, with special tokens treated as text. */
export type CountChunk = (text: string) => number;

/**
 * Longest pre-tokenizer chunk handed to the BPE merge whole (UTF-16 units). Longer chunks (a run of over
 * 256 letters, punctuation or whitespace) are split into pieces this long: their count is then an
 * estimate, within about one token per piece of the exact figure.
 */
export const MAX_BPE_CHUNK = 256;

// A chunk longer than MAX_BPE_CHUNK contains a run of at least half that many non-whitespace characters,
// whitespace characters, or `\r`, `\n` and `/` (the tail of a punctuation chunk): the pre-tokenizer's
// alternatives are an optional leading character plus letters, up to three digits, punctuation plus
// newlines (and slashes), or whitespace. Text without such a run skips the pre-tokenizer pass.
const RUN = MAX_BPE_CHUNK / 2;

/** JavaScript's `\s`, which the pre-tokenizer's patterns use. */
function isSpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Whether `text` has a run long enough to hold a chunk longer than {@link MAX_BPE_CHUNK}. One linear pass. */
export function hasLongRun(text: string): boolean {
  let nonSpace = 0;
  let space = 0;
  let newlineOrSlash = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) {
      space++;
      nonSpace = 0;
    } else {
      nonSpace++;
      space = 0;
    }
    newlineOrSlash = code === 10 || code === 13 || code === 47 ? newlineOrSlash + 1 : 0;
    if (nonSpace >= RUN || space >= RUN || newlineOrSlash >= RUN) return true;
  }
  return false;
}

/** `chunk` cut into pieces of at most {@link MAX_BPE_CHUNK}, never inside a surrogate pair. */
function* pieces(chunk: string): Generator<string> {
  let start = 0;
  while (start < chunk.length) {
    let end = Math.min(start + MAX_BPE_CHUNK, chunk.length);
    const last = chunk.charCodeAt(end - 1);
    if (end < chunk.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield chunk.slice(start, end);
    start = end;
  }
}

/**
 * Text handed to the tokenizer at once is cut near every this many UTF-16 units (at the next safe cut), so
 * {@link countBoundedAsync} can yield between the parts.
 */
export const COUNT_SLICE = 8192;

// Places where the pre-tokenizer always ends one chunk and starts the next, whatever follows: before a space
// that follows a non-space and precedes a letter (" word" is one chunk; what ends before it never looks past
// it), and after a newline followed by a letter or digit (no chunk runs from a newline into either). Counting
// the two sides apart gives exactly the count of the whole.
const SAFE_CUT = /(?<=\S)(?= \p{L})|(?<=\n)(?=[\p{L}\p{N}])/gu;

/** The slices of `text`, cut at the first safe cut at least {@link COUNT_SLICE} units after the previous one. */
function* slices(text: string): Generator<string> {
  let from = 0;
  while (text.length - from > COUNT_SLICE) {
    SAFE_CUT.lastIndex = from + COUNT_SLICE;
    const cut = SAFE_CUT.exec(text);
    if (cut === null) break;
    yield text.slice(from, cut.index);
    from = cut.index;
  }
  yield from === 0 ? text : text.slice(from);
}

/**
 * The strings whose counts add up to the count of `text`: its slices, except that a slice with a
 * pre-tokenizer chunk (split by `splitRegex`, the encoding's own global pattern) longer than
 * {@link MAX_BPE_CHUNK} is given as the stretches between such chunks and each such chunk in pieces.
 */
function* countParts(text: string, splitRegex: RegExp): Generator<string> {
  for (const slice of slices(text)) {
    if (!hasLongRun(slice)) {
      yield slice;
      continue;
    }
    let from = 0;
    for (const match of slice.matchAll(splitRegex)) {
      const chunk = match[0];
      if (chunk.length <= MAX_BPE_CHUNK) continue;
      if (match.index > from) yield slice.slice(from, match.index);
      yield* pieces(chunk);
      from = match.index + chunk.length;
    }
    if (from < slice.length) yield from === 0 ? slice : slice.slice(from);
  }
}

/**
 * Counts `text` with `countChunk` in time linear in its length. Text whose pre-tokenizer chunks are all at
 * most {@link MAX_BPE_CHUNK} long (all normal text) gets the tokenizer's exact count; a longer chunk is
 * counted in pieces.
 */
export function countBounded(text: string, splitRegex: RegExp, countChunk: CountChunk): number {
  // What countParts would give for the common short text, without its generators (catalogs count thousands).
  if (text.length <= COUNT_SLICE && !hasLongRun(text)) return countChunk(text);
  let n = 0;
  for (const part of countParts(text, splitRegex)) n += countChunk(part);
  return n;
}

/** Longest stretch {@link countBoundedAsync} keeps the event loop (ms). */
const YIELD_AFTER_MS = 10;

/**
 * {@link countBounded}'s count (always the same number), computed in parts with a turn of the event loop
 * whenever {@link YIELD_AFTER_MS} have passed, so a server answering others is never held by one long text.
 */
export async function countBoundedAsync(
  text: string,
  splitRegex: RegExp,
  countChunk: CountChunk,
): Promise<number> {
  let n = 0;
  let since = performance.now();
  for (const part of countParts(text, splitRegex)) {
    n += countChunk(part);
    if (performance.now() - since >= YIELD_AFTER_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      since = performance.now();
    }
  }
  return n;
}
