/** How many leading bytes {@link detectContent} looks at. */
export const SNIFF_BYTES = 8192;

const byExtension: Record<string, string> = {
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  rst: "text/x-rst",
  adoc: "text/asciidoc",
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  xml: "application/xml",
  svg: "image/svg+xml",
  json: "application/json",
  jsonl: "application/jsonl",
  yaml: "application/yaml",
  yml: "application/yaml",
  toml: "application/toml",
  ini: "text/plain",
  cfg: "text/plain",
  conf: "text/plain",
  env: "text/plain",
  log: "text/plain",
  py: "text/x-python",
  sh: "text/x-shellscript",
  bash: "text/x-shellscript",
  zsh: "text/x-shellscript",
  js: "text/javascript",
  mjs: "text/javascript",
  cjs: "text/javascript",
  ts: "text/typescript",
  mts: "text/typescript",
  cts: "text/typescript",
  tsx: "text/tsx",
  jsx: "text/jsx",
  rb: "text/x-ruby",
  pl: "text/x-perl",
  php: "text/x-php",
  go: "text/x-go",
  rs: "text/x-rust",
  java: "text/x-java",
  kt: "text/x-kotlin",
  c: "text/x-c",
  h: "text/x-c",
  cpp: "text/x-c++",
  hpp: "text/x-c++",
  cs: "text/x-csharp",
  swift: "text/x-swift",
  sql: "application/sql",
  ps1: "text/x-powershell",
  r: "text/x-r",
  lua: "text/x-lua",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  ico: "image/vnd.microsoft.icon",
  tif: "image/tiff",
  tiff: "image/tiff",
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
  tgz: "application/gzip",
  tar: "application/x-tar",
  "7z": "application/x-7z-compressed",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  mp4: "video/mp4",
  webm: "video/webm",
  wasm: "application/wasm",
};

const magic: { bytes: number[]; mime: string }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], mime: "image/png" },
  { bytes: [0xff, 0xd8, 0xff], mime: "image/jpeg" },
  { bytes: [0x47, 0x49, 0x46, 0x38], mime: "image/gif" },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], mime: "application/pdf" },
  { bytes: [0x50, 0x4b, 0x03, 0x04], mime: "application/zip" },
  { bytes: [0x1f, 0x8b], mime: "application/gzip" },
  { bytes: [0x00, 0x61, 0x73, 0x6d], mime: "application/wasm" },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], mime: "application/x-executable" },
];

/** Lower-case extension of a path without the dot (`""` when there is none). */
export function extensionOf(filePath: string): string {
  const slash = filePath.lastIndexOf("/");
  const dot = filePath.lastIndexOf(".");
  return dot > slash + 1 ? filePath.slice(dot + 1).toLowerCase() : "";
}

/** What a file is, from its name and its first bytes. */
export interface ContentInfo {
  mimeType: string;
  binary: boolean;
}

/**
 * Detects a file's mime type and whether it is binary. Magic numbers win (a `.txt` holding a PNG is a
 * PNG); then the extension; then content: NUL bytes or invalid UTF-8 in the first {@link SNIFF_BYTES}
 * mean `application/octet-stream`, otherwise `text/plain`. A `.zip`-based Office file keeps its
 * extension's type. Text types are never binary unless their bytes say so.
 */
export function detectContent(filePath: string, head: Uint8Array): ContentInfo {
  const byExt = byExtension[extensionOf(filePath)];
  for (const { bytes, mime } of magic) {
    if (head.length >= bytes.length && bytes.every((b, i) => head[i] === b)) {
      const keepExt = byExt !== undefined && mime === "application/zip" && !isTextMime(byExt);
      return { mimeType: keepExt ? byExt : mime, binary: true };
    }
  }
  const binary = looksBinary(head);
  if (byExt !== undefined) return { mimeType: byExt, binary: binary || !isTextMime(byExt) };
  return { mimeType: binary ? "application/octet-stream" : "text/plain", binary };
}

/** True for types a model can read as text. */
export function isTextMime(mime: string): boolean {
  return (
    mime.startsWith("text/") ||
    mime === "image/svg+xml" ||
    mime === "application/json" ||
    mime === "application/jsonl" ||
    mime === "application/xml" ||
    mime === "application/yaml" ||
    mime === "application/toml" ||
    mime === "application/sql"
  );
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** NUL bytes or invalid UTF-8 (ignoring a sequence cut at the end of the sample). */
export function looksBinary(head: Uint8Array): boolean {
  if (head.includes(0)) return true;
  // A sample may cut a multi-byte character: drop up to 3 trailing continuation/lead bytes.
  let end = head.length;
  if (end === SNIFF_BYTES) {
    let back = 0;
    while (back < 3 && end > 0 && (head[end - 1]! & 0xc0) === 0x80) {
      end--;
      back++;
    }
    if (end > 0 && head[end - 1]! >= 0xc0) end--;
  }
  try {
    decoder.decode(head.subarray(0, end));
    return false;
  } catch {
    return true;
  }
}
