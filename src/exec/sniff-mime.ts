/**
 * MIME detection by content: magic bytes for common binary formats, then a UTF-8 text check, then the
 * extension only to name the kind of text (json, csv, markdown, …). Only text is ever inlined.
 */

/** A detected type. */
export interface SniffedMime {
  mimeType: string;
  /** True for valid UTF-8 without NUL bytes. */
  text: boolean;
}

const MAGIC: Array<[number[], string]> = [
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "image/png"],
  [[0xff, 0xd8, 0xff], "image/jpeg"],
  [[0x47, 0x49, 0x46, 0x38], "image/gif"],
  [[0x25, 0x50, 0x44, 0x46, 0x2d], "application/pdf"],
  [[0x50, 0x4b, 0x03, 0x04], "application/zip"],
  [[0x50, 0x4b, 0x05, 0x06], "application/zip"],
  [[0x1f, 0x8b], "application/gzip"],
  [[0x52, 0x49, 0x46, 0x46], "application/octet-stream"],
];

const TEXT_BY_EXTENSION: Record<string, string> = {
  json: "application/json",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  md: "text/markdown",
  markdown: "text/markdown",
  html: "text/html",
  htm: "text/html",
  xml: "application/xml",
  svg: "image/svg+xml",
  yaml: "application/yaml",
  yml: "application/yaml",
  js: "text/javascript",
  mjs: "text/javascript",
  ts: "text/x-typescript",
  py: "text/x-python",
  sh: "text/x-shellscript",
  css: "text/css",
};

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** True when `bytes` is valid UTF-8 without NUL bytes (a character cut at the very end is tolerated). */
export function isUtf8Text(bytes: Uint8Array, cutAtEnd = false): boolean {
  if (bytes.includes(0)) return false;
  try {
    utf8.decode(bytes, { stream: cutAtEnd });
    return true;
  } catch {
    return false;
  }
}

/** Detects the MIME type of `bytes` (the first bytes of a file are enough); `name` gives the extension hint. */
export function sniffMime(bytes: Uint8Array, name: string, cutAtEnd = false): SniffedMime {
  for (const [magic, mimeType] of MAGIC) {
    if (magic.every((b, i) => bytes[i] === b)) return { mimeType, text: false };
  }
  if (!isUtf8Text(bytes, cutAtEnd)) return { mimeType: "application/octet-stream", text: false };
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? "";
  return { mimeType: TEXT_BY_EXTENSION[ext] ?? "text/plain", text: true };
}
