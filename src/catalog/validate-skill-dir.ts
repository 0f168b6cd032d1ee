/**
 * Validating one skill directory from disk, with the reference validator's early exits (path missing,
 * not a directory, no SKILL.md) before parsing. `skillrt validate` and `skillrt show` build on this.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { createDiagnostic } from "../spec/create-diagnostic.js";
import { parseSkillMd } from "../spec/parse-skill-md.js";
import type { Diagnostic, ParsedSkill, ParseMode } from "../spec/types.js";
import { SINGLE_FILE_SUFFIX } from "./discover-skills.js";
import { findSkillMd } from "./find-skill-md.js";

import { MAX_SKILL_FILE_BYTES, OPEN_FLAGS } from "./read-skill-head.js";

/** Largest SKILL.md read in full; larger files get a `file-too-large` error and only their head is parsed. */
export { MAX_SKILL_FILE_BYTES };

/** How much of an over-large SKILL.md is read to parse its frontmatter. */
const HEAD_BYTES = 64 * 1024;

/** Options of {@link validateSkillDir}. */
export interface ValidateSkillDirOptions {
  /** Default `strict` (the reference validator). */
  mode?: ParseMode;
}

/** Outcome of {@link validateSkillDir}: valid when no diagnostic is an `error`. */
export interface SkillDirValidation {
  /** The path as given. */
  path: string;
  skill?: ParsedSkill;
  diagnostics: Diagnostic[];
}

/**
 * Python `PurePath(p).name`: the last component, ignoring `.` segments and trailing slashes
 * (`"."` → `""`, `"a/."` → `"a"`); the reference compares this with the skill name.
 */
export function referenceDirName(p: string): string {
  const parts = p.split("/").filter((s) => s !== "" && s !== ".");
  return parts[parts.length - 1] ?? "";
}

/** Python `str(Path(p))`: repeated slashes, `.` segments and a trailing slash removed; `""` → `"."`. */
export function pythonPathString(p: string): string {
  const lead = p.startsWith("//") && !p.startsWith("///") ? "//" : p.startsWith("/") ? "/" : "";
  const joined =
    lead +
    p
      .split("/")
      .filter((s) => s !== "" && s !== ".")
      .join("/");
  return joined === "" ? "." : joined;
}

/**
 * Validates the skill at `path` (a directory, or a file named SKILL.md/skill.md in any case, meaning
 * its parent). The name is checked against the last component of the path as given, as the reference
 * does. Never throws.
 */
export function validateSkillDir(path: string, options: ValidateSkillDirOptions = {}): SkillDirValidation {
  const mode = options.mode ?? "strict";
  const error = (code: Diagnostic["code"], message: string, at: string): SkillDirValidation => ({
    path,
    diagnostics: [createDiagnostic(code, "error", message, resolve(at))],
  });
  let dir = path;
  const given = statSync(path, { throwIfNoEntry: false });
  if (given === undefined)
    return error("path-not-found", `Path does not exist: ${pythonPathString(path)}`, path);
  // A single-file skill (`NAME.skill.md`) is read as one in lenient mode; the spec (strict) needs a folder.
  const single = given.isFile() && mode === "lenient" && path.endsWith(SINGLE_FILE_SUFFIX);
  if (given.isFile() && basename(path).toLowerCase() === "skill.md") dir = dirname(path);
  else if (!given.isDirectory() && !single) {
    const hint = path.endsWith(SINGLE_FILE_SUFFIX)
      ? " (a single-file skill: the spec needs a folder holding SKILL.md; lenient validation reads it as a skill)"
      : "";
    return error("not-a-directory", `Not a directory: ${pythonPathString(path)}${hint}`, path);
  }
  const file = single ? path : findSkillMd(dir);
  if (file === undefined) return error("skill-file-missing", "Missing required file: SKILL.md", dir);
  const read = readSkillBytes(file);
  if ("error" in read) return { path, diagnostics: [read.error] };
  const dirName = single ? basename(path, SINGLE_FILE_SUFFIX) : referenceDirName(dir);
  const result = parseSkillMd(read.bytes, { mode, dirName, path: resolve(file), headOnly: read.truncated });
  const diagnostics = read.truncated
    ? [tooLarge(file, read.size), ...result.diagnostics]
    : result.diagnostics;
  return result.skill === undefined ? { path, diagnostics } : { path, skill: result.skill, diagnostics };
}

function tooLarge(file: string, size: number): Diagnostic {
  const message = `SKILL.md is ${size} bytes, over the ${MAX_SKILL_FILE_BYTES}-byte limit; move detail into references/.`;
  return createDiagnostic("file-too-large", "error", message, resolve(file));
}

/** Reads a skill file: in full up to {@link MAX_SKILL_FILE_BYTES}, else only its head. */
function readSkillBytes(
  file: string,
): { bytes: Uint8Array; truncated: boolean; size: number } | { error: Diagnostic } {
  let fd: number | undefined;
  try {
    fd = openSync(file, OPEN_FLAGS);
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error("not a regular file (a FIFO, socket or device?)");
    const size = stat.size;
    const truncated = size > MAX_SKILL_FILE_BYTES;
    const want = truncated ? HEAD_BYTES : size;
    const buffer = Buffer.allocUnsafe(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, buffer, got, want - got, got);
      if (n === 0) break;
      got += n;
    }
    return { bytes: buffer.subarray(0, got), truncated, size };
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return {
      error: createDiagnostic("file-unreadable", "error", `Cannot read ${file}: ${reason}`, resolve(file)),
    };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
