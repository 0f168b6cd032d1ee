import { isUtf8 } from "node:buffer";
import fs from "node:fs";

/** Bytes read first from each SKILL.md; enough for almost every frontmatter. */
export const HEAD_BYTES = 4096;

/** The bytes of a skill file the catalog needs for its L1 record. */
export interface SkillHead {
  /** The frontmatter through its closing `---` line, or the whole file. */
  bytes: Buffer;
  /** True when `bytes` stops before the end of the file (the body was not read). */
  partial: boolean;
}

const buffer = Buffer.allocUnsafe(HEAD_BYTES);
/** A line starting with `---`; searched natively. */
const CLOSING = Buffer.from("\n---");
/** The end of an HTML comment (`<!--` is matched byte by byte). */
const COMMENT_CLOSE = Buffer.from("-->");

/**
 * Reads what the L1 record needs from a skill file: one {@link HEAD_BYTES} read, cut just after the
 * closing `---` line of the frontmatter (so the parser sees no body). When the frontmatter does not
 * close within those bytes, or the file has none, the whole file is read instead. The bytes returned
 * may share a buffer reused by the next call: decode them before reading another file.
 * Throws the fs error when the file cannot be read.
 */
export function readSkillHead(file: string): SkillHead {
  const fd = fs.openSync(file, "r");
  let got: number;
  try {
    got = fs.readSync(fd, buffer, 0, HEAD_BYTES, 0);
  } finally {
    fs.closeSync(fd);
  }
  const end = frontmatterEnd(buffer, got, got < HEAD_BYTES);
  if (end >= 0) return { bytes: buffer.subarray(0, end), partial: end < got || got === HEAD_BYTES };
  if (got < HEAD_BYTES) return { bytes: buffer.subarray(0, got), partial: false };
  return readSkillFull(file);
}

/** Reads a whole skill file (for a re-parse when the frontmatter alone was not enough). */
export function readSkillFull(file: string): SkillHead {
  return { bytes: fs.readFileSync(file), partial: false };
}

/**
 * Byte offset just after the frontmatter's closing line, or -1 when there is no opening `---` line or
 * no closing one within `length` bytes. Mirrors the lenient, line-anchored split (BOM, blank lines and
 * HTML comments before the opening line allowed; delimiters are `---` plus optional spaces, tabs or CR).
 */
function frontmatterEnd(bytes: Buffer, length: number, complete: boolean): number {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (;;) {
    const end = endOfDelimiter(bytes, i, length, complete);
    if (end >= 0) {
      i = end;
      break;
    }
    let j = i;
    while (j < length && isBlank(bytes[j]!)) j++;
    if (
      j + 4 <= length &&
      bytes[j] === 60 &&
      bytes[j + 1] === 33 &&
      bytes[j + 2] === 45 &&
      bytes[j + 3] === 45
    ) {
      // An HTML comment banner above the frontmatter: skip to the end of the line closing it.
      const close = bytes.indexOf(COMMENT_CLOSE, j + 4);
      if (close < 0 || close + 3 > length) return -1;
      j = close + 3;
      while (j < length && isBlank(bytes[j]!)) j++;
    }
    if (j >= length || bytes[j] !== 10) return -1;
    i = j + 1;
  }
  for (let nl = i - 1; ; ) {
    nl = bytes.indexOf(CLOSING, nl + 1);
    if (nl < 0 || nl + 4 > length) return -1;
    const end = endOfDelimiter(bytes, nl + 1, length, complete);
    if (end >= 0) return end;
  }
}

/** If a delimiter line starts at `i`, the offset after its line break (or `length` at the end of a complete file). */
function endOfDelimiter(bytes: Uint8Array, i: number, length: number, complete: boolean): number {
  if (i + 3 > length || bytes[i] !== 45 || bytes[i + 1] !== 45 || bytes[i + 2] !== 45) return -1;
  let j = i + 3;
  while (j < length && isBlank(bytes[j]!)) j++;
  if (j < length) return bytes[j] === 10 ? j + 1 : -1;
  return complete ? length : -1;
}

/** Space, tab or CR. */
function isBlank(byte: number): boolean {
  return byte === 32 || byte === 9 || byte === 13;
}

/**
 * What to hand the SKILL.md parser: a string when the bytes are valid UTF-8 (decoding here is cheaper
 * than in the parser), else the bytes themselves so the parser reports `encoding-invalid`. In strict
 * mode text with CR stays bytes too: the parser normalises line breaks only when it decodes.
 */
export function parserInput(bytes: Buffer, strict: boolean): string | Uint8Array {
  if (!isUtf8(bytes) || (strict && bytes.includes(13))) return bytes;
  return bytes.toString("utf8");
}
