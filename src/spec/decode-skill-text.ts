/**
 * SKILL.md bytes (or text) to the text the parsers read: UTF-8 decoding with U+FFFD for invalid bytes,
 * and, when asked, the lenient clean-ups (BOM, CRLF). Reports what it did so callers can warn.
 */

/** What {@link decodeSkillText} produced and changed. */
export interface DecodedSkillText {
  text: string;
  /** Bytes were not valid UTF-8 (replaced by U+FFFD). */
  invalidUtf8: boolean;
  /** A leading byte-order mark was removed. */
  bomStripped: boolean;
  /** CRLF (or lone CR) line breaks were turned into LF. */
  newlinesNormalized: boolean;
}

/** Options of {@link decodeSkillText}. */
export interface DecodeOptions {
  /** Remove a leading U+FEFF. Default `false` (the reference keeps it, and then fails). */
  stripBom?: boolean;
  /** Turn CRLF and lone CR into LF. Default `false`. */
  normalizeNewlines?: boolean;
}

const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lossyDecoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** Decodes and cleans SKILL.md content. Linear in the input; never throws. */
export function decodeSkillText(input: string | Uint8Array, options: DecodeOptions = {}): DecodedSkillText {
  let text: string;
  let invalidUtf8 = false;
  if (typeof input === "string") {
    text = input;
  } else {
    try {
      text = strictDecoder.decode(input);
    } catch {
      text = lossyDecoder.decode(input);
      invalidUtf8 = true;
    }
  }
  let bomStripped = false;
  if (options.stripBom === true && text.charCodeAt(0) === 0xfeff) {
    text = text.slice(1);
    bomStripped = true;
  }
  let newlinesNormalized = false;
  if (options.normalizeNewlines === true && text.includes("\r")) {
    text = text.replace(/\r\n?/g, "\n");
    newlinesNormalized = true;
  }
  return { text, invalidUtf8, bomStripped, newlinesNormalized };
}

/**
 * True when text looks like binary data rather than Markdown: a NUL character, or more than 10% of
 * the first 4,096 characters being U+FFFD or control characters.
 */
export function looksBinary(text: string): boolean {
  const n = Math.min(text.length, 4096);
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return true;
    if (c === 0xfffd || (c < 0x20 && c !== 9 && c !== 10 && c !== 12 && c !== 13)) bad++;
  }
  return n > 0 && bad * 10 > n;
}
