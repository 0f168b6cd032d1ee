import fs from "node:fs/promises";
import { errorCode } from "./fs-diagnostics.js";
import { readHead } from "./list-skill-files.js";
import { detectContent } from "./mime-type.js";
import { normalizeSkillPath } from "./normalize-skill-path.js";
import type { LineRange, ReadFileResult } from "./types.js";

/** Largest text file read (whole, then cut to a line range): bigger files are refused, never read. */
export const MAX_TEXT_READ_BYTES = 16 * 1024 * 1024;

/**
 * Reads one file of a skill on disk, confined to the skill's real directory `dir`.
 *
 * - Refused (`refused`, with a reason for the model): NUL bytes, absolute paths, `..` segments,
 *   directories, and paths whose real path (after symlinks) leaves `dir`.
 * - Missing (`not-found`): carries `available()` (SKILL.md first) so the caller can pick a real path.
 * - Binary files (by magic number, extension, NUL bytes or invalid UTF-8) return metadata only.
 * - Text honours a 1-based inclusive line `range` (clamped to the file); a UTF-8 BOM is dropped. Text over
 *   {@link MAX_TEXT_READ_BYTES} is refused.
 */
export async function readSkillFile(
  dir: string,
  requested: string,
  range: LineRange | undefined,
  available: () => Promise<string[]>,
): Promise<ReadFileResult> {
  const normalized = normalizeSkillPath(requested);
  if (!normalized.ok) return { kind: "refused", path: requested, reason: normalized.reason };
  const rel = normalized.path;
  let real: string;
  try {
    real = await fs.realpath(`${dir}/${rel}`);
  } catch (error) {
    if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") {
      return { kind: "not-found", path: rel, available: await available() };
    }
    return {
      kind: "refused",
      path: rel,
      reason: `The file cannot be read (${errorCode(error) ?? "error"}).`,
    };
  }
  if (real !== dir && !real.startsWith(`${dir}/`)) {
    return {
      kind: "refused",
      path: rel,
      reason: `'${rel}' is a symlink that leads outside the skill directory; only files inside the skill can be read.`,
    };
  }
  const stat = await fs.stat(real);
  if (stat.isDirectory()) {
    const inside = (await available()).filter((p) => p.startsWith(`${rel}/`));
    return {
      kind: "refused",
      path: rel,
      reason: `'${rel}' is a directory, not a file. Read one of its files instead: ${inside.join(", ") || "(none listed)"}.`,
    };
  }
  if (!stat.isFile()) return { kind: "refused", path: rel, reason: `'${rel}' is not a regular file.` };
  const { mimeType, binary } = detectContent(rel, await readHead(real, stat.size));
  if (binary) return { kind: "binary", path: rel, size: stat.size, mimeType };
  if (stat.size > MAX_TEXT_READ_BYTES) {
    return {
      kind: "refused",
      path: rel,
      reason: `'${rel}' is ${stat.size} bytes, over the ${MAX_TEXT_READ_BYTES}-byte limit for reading a text file whole; it was not read.`,
    };
  }
  const text = await fs.readFile(real, "utf8");
  return sliceLines(rel, text, stat.size, mimeType, range);
}

/**
 * Cuts a text to a 1-based inclusive line range (start defaults to 1, end to the last line; both are
 * clamped). A trailing newline does not count as an extra line. Lines of a range are joined with LF;
 * without a range (or with one covering every line) the text comes back as is.
 */
export function sliceLines(
  rel: string,
  text: string,
  size: number,
  mimeType: string,
  range: LineRange | undefined,
): Extract<ReadFileResult, { kind: "text" }> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const totalLines = lines.length;
  const startLine = Math.max(1, Math.floor(range?.startLine ?? 1));
  const endLine = Math.min(totalLines, Math.floor(range?.endLine ?? totalLines));
  const whole = range === undefined || (startLine === 1 && endLine === totalLines);
  const content = whole ? body : startLine > endLine ? "" : lines.slice(startLine - 1, endLine).join("\n");
  return {
    kind: "text",
    path: rel,
    content,
    totalLines,
    startLine,
    endLine: Math.max(endLine, startLine - 1),
    size,
    mimeType,
  };
}
