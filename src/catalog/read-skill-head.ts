import { isUtf8 } from "node:buffer";
import fs from "node:fs";

/** Bytes read first from each SKILL.md; enough for almost every frontmatter. */
export const HEAD_BYTES = 4096;

/** Largest SKILL.md the catalog reads: a bigger one is a `file-too-large` error and is never read whole. */
export const MAX_SKILL_FILE_BYTES = 1024 * 1024;

/** Read-only, and never blocking on a FIFO that took a file's place since it was listed. */
export const OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;

/** The bytes of a skill file the catalog needs for its L1 record. */
export interface SkillHead {
  /** The frontmatter through its closing `---` line, or the whole file. */
  bytes: Buffer;
  /** True when `bytes` stops before the end of the file (the body was not read). */
  partial: boolean;
  /** `bytes` already decoded, when they are known to be valid UTF-8 (see {@link decodedHead}). */
  text?: string;
  /**
   * The body's start, decoded from the bytes after the frontmatter that the same read got (at most
   * {@link HEAD_BYTES}; it may stop mid-word); what search keeps of the body (see `bodyOpening`).
   */
  bodyStart?: string;
}

/**
 * A head for `bytes[start..end)` of a buffer that is about to be reused: decoded straight to text when
 * that text shows the bytes are valid UTF-8 (invalid sequences decode to U+FFFD; a text without it came
 * from valid bytes), else a copy of the bytes for the parser to report.
 */
export function decodedHead(
  buffer: Buffer,
  start: number,
  end: number,
  partial: boolean,
  body?: { end: number; more: boolean },
): SkillHead {
  const text = buffer.toString("utf8", start, end);
  const head: SkillHead = text.includes("\uFFFD")
    ? { bytes: Buffer.from(buffer.subarray(start, end)), partial }
    : { bytes: EMPTY, partial, text };
  if (body !== undefined && body.end > end) head.bodyStart = bodyText(buffer, end, body.end, body.more);
  return head;
}

/**
 * The decoded body bytes `buffer[start..end)` (at most {@link HEAD_BYTES}); when the file goes on past
 * them (`more`), cut after their last whitespace so no half word or character is kept.
 */
function bodyText(buffer: Buffer, start: number, end: number, more: boolean): string {
  const stop = Math.min(end, start + HEAD_BYTES);
  const text = buffer.toString("utf8", start, stop);
  if (!more && stop === end) return text;
  const last = Math.max(text.lastIndexOf(" "), text.lastIndexOf("\n"), text.lastIndexOf("\t"));
  return last < 0 ? "" : text.slice(0, last + 1);
}

const EMPTY = Buffer.alloc(0);

/**
 * The head of a skill file whose first `got` bytes sit at `buffer[start..]` (read into room for
 * {@link HEAD_BYTES}), taken off the buffer with {@link decodedHead}; undefined when the frontmatter does
 * not close within those bytes and the whole file must be read.
 */
export function headFromBuffer(buffer: Buffer, start: number, got: number): SkillHead | undefined {
  const keep = headLength(buffer, start, got, HEAD_BYTES);
  if (keep < 0) return undefined;
  return decodedHead(buffer, start, start + keep, isPartial(keep, got, HEAD_BYTES));
}

const buffer = Buffer.allocUnsafe(HEAD_BYTES);

/**
 * Reads what the L1 record needs from a skill file: one {@link HEAD_BYTES} read, cut just after the
 * closing `---` line of the frontmatter (so the parser sees no body). When the frontmatter does not
 * close within those bytes, or the file has none, the whole file is read instead. The bytes returned
 * may share a buffer reused by the next call: decode them before reading another file.
 * Throws the fs error when the file cannot be read.
 */
export function readSkillHead(file: string): SkillHead {
  const fd = fs.openSync(file, OPEN_FLAGS);
  let got: number;
  try {
    got = fs.readSync(fd, buffer, 0, HEAD_BYTES, 0);
  } finally {
    fs.closeSync(fd);
  }
  const keep = headLength(buffer, 0, got, HEAD_BYTES);
  if (keep < 0) return readSkillFull(file);
  const head: SkillHead = { bytes: buffer.subarray(0, keep), partial: isPartial(keep, got, HEAD_BYTES) };
  if (got > keep) head.bodyStart = bodyText(buffer, keep, got, got === HEAD_BYTES);
  return head;
}

/**
 * Reads a whole skill file (for a re-parse when the frontmatter alone was not enough). Throws a
 * `file-too-large` error (with `code` `EFBIG`) rather than read more than {@link MAX_SKILL_FILE_BYTES}, and
 * the fs error when the file cannot be read or is not a regular file.
 */
export function readSkillFull(file: string): SkillHead {
  const fd = fs.openSync(file, OPEN_FLAGS);
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: "EINVAL" });
    if (stat.size > MAX_SKILL_FILE_BYTES) throw tooLargeError(file, stat.size);
    // One byte more than the cap: a file that grew since the stat is caught without reading it all.
    const bytes = Buffer.allocUnsafe(Math.min(stat.size, MAX_SKILL_FILE_BYTES) + 1);
    let got = 0;
    for (let n = 1; n > 0 && got < bytes.length; got += n)
      n = fs.readSync(fd, bytes, got, bytes.length - got, got);
    if (got > MAX_SKILL_FILE_BYTES) throw tooLargeError(file, got);
    const head: SkillHead = { bytes: bytes.subarray(0, got), partial: false };
    const keep = headLength(bytes, 0, got, got + 1);
    if (keep >= 0 && keep < got) head.bodyStart = bodyText(bytes, keep, got, false);
    return head;
  } finally {
    fs.closeSync(fd);
  }
}

function tooLargeError(file: string, size: number): Error {
  return Object.assign(new Error(`${file} is over ${MAX_SKILL_FILE_BYTES} bytes (${size})`), {
    code: "EFBIG",
  });
}

/** Whether a head of `keep` bytes, cut from `got` bytes read into room for `capacity`, stops before the file's end. */
function isPartial(keep: number, got: number, capacity: number): boolean {
  return keep < got || got === capacity;
}

/**
 * How many of the `got` bytes at `bytes[start..]` (a file's start, read into room for `capacity`) the L1
 * record needs: up to just after the frontmatter's closing line; all of them when the file ended without
 * one; -1 when the frontmatter does not close within them and the whole file must be read.
 * Mirrors the lenient, line-anchored split (BOM, blank lines and HTML comments before the opening line
 * allowed; delimiters are `---` plus optional spaces, tabs or CR).
 */
export function headLength(bytes: Buffer, start: number, got: number, capacity: number): number {
  const length = start + got;
  const complete = got < capacity;
  const end = frontmatterEnd(bytes, start, length, complete);
  if (end >= 0) return end - start;
  return complete ? got : -1;
}

/** Offset just after the frontmatter's closing line in `bytes[start..length)`, or -1 (no opening line, or no closing one). */
function frontmatterEnd(bytes: Buffer, start: number, length: number, complete: boolean): number {
  let i = bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf ? start + 3 : start;
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

/** A line starting with `---`; searched natively. */
const CLOSING = Buffer.from("\n---");
/** The end of an HTML comment (`<!--` is matched byte by byte). */
const COMMENT_CLOSE = Buffer.from("-->");

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
export function parserInput(head: SkillHead, strict: boolean): string | Uint8Array {
  const text = head.text;
  if (text !== undefined && !(strict && text.includes("\r"))) return text;
  const bytes = text === undefined ? head.bytes : Buffer.from(text, "utf8");
  if (!isUtf8(bytes) || (strict && bytes.includes(13))) return bytes;
  return bytes.toString("utf8");
}
