import { extensionOf } from "./mime-type.js";
import type { SkillFileKind } from "./types.js";

const docExtensions = new Set(["md", "markdown", "txt", "rst", "adoc"]);
const scriptExtensions = new Set([
  "py",
  "sh",
  "bash",
  "zsh",
  "js",
  "mjs",
  "cjs",
  "ts",
  "mts",
  "cts",
  "rb",
  "pl",
  "php",
  "ps1",
  "lua",
  "r",
]);
const assetExtensions = new Set([
  "png",
  "jpg",
  "jpeg",
  "gif",
  "webp",
  "svg",
  "ico",
  "bmp",
  "pdf",
  "ttf",
  "otf",
  "woff",
  "woff2",
  "mp3",
  "wav",
  "mp4",
  "zip",
  "docx",
  "xlsx",
  "pptx",
]);

/**
 * Kind of a skill file from its relative path: the top folder decides first (`scripts/` → script,
 * `references/` → reference, `assets/` → asset), then the extension (Markdown/text → doc, source
 * files → script, images/fonts/documents → asset), else `other`.
 */
export function fileKind(relPath: string): SkillFileKind {
  const top = relPath.includes("/") ? relPath.slice(0, relPath.indexOf("/")) : "";
  if (top === "scripts") return "script";
  if (top === "references") return "reference";
  if (top === "assets") return "asset";
  const ext = extensionOf(relPath);
  if (docExtensions.has(ext)) return "doc";
  if (scriptExtensions.has(ext)) return "script";
  if (assetExtensions.has(ext)) return "asset";
  return "other";
}
