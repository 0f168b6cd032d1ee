/**
 * Whether a text holds only printable ASCII and line feeds: the first check of the frontmatter fast
 * path, run on every SKILL.md. When it holds, the slower Unicode-safety checks can be skipped.
 * (A hand-written WebAssembly SIMD scan was measured ~1.6 ms faster per 10,000 skills; not worth the
 * opacity.)
 */

/** A character other than printable ASCII (U+0020–U+007E) and LF. */
const NOT_PRINTABLE_ASCII = /[\0-\t\v-\x1f\x7f-\uffff]/;

/** True when every character of `text` is printable ASCII (U+0020–U+007E) or LF. */
export function isPrintableAscii(text: string): boolean {
  return !NOT_PRINTABLE_ASCII.test(text);
}
