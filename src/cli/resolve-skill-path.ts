import fs from "node:fs";
import path from "node:path";
import { findSkillMd } from "../catalog/find-skill-md.js";
import type { DiagnosticCode } from "../spec/types.js";

/** What a PATH argument of `skillrt validate` or `skillrt prompt` names. */
export type SkillPathTarget =
  | {
      kind: "dir";
      /** The directory (absolute, as reached: symlinks not resolved). */
      dir: string;
      /** The skill file: the file given, else `SKILL.md` / `skill.md` in `dir`; `undefined` when there is none. */
      skillFile: string | undefined;
    }
  | { kind: "problem"; code: DiagnosticCode; message: string };

/**
 * Resolves an absolute PATH argument the way skills-ref's CLI does: a file whose name is `skill.md` in any
 * case stands for its parent directory; any other file is `not-a-directory`; a missing path is
 * `path-not-found`, a loop `symlink-loop`, anything else unreadable `file-unreadable`. Messages name the
 * path as `shown` (default `abs`). Never throws.
 */
export function resolveSkillPath(abs: string, shown: string = abs): SkillPathTarget {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      return { kind: "problem", code: "path-not-found", message: `Path does not exist: ${shown}` };
    }
    if (code === "ELOOP")
      return { kind: "problem", code: "symlink-loop", message: `Symlink loop at ${shown}` };
    const reason = error instanceof Error ? error.message : String(error);
    return { kind: "problem", code: "file-unreadable", message: `Cannot read ${shown}: ${reason}` };
  }
  if (stat.isFile()) {
    if (path.basename(abs).toLowerCase() === "skill.md") {
      return { kind: "dir", dir: path.dirname(abs), skillFile: abs };
    }
    return {
      kind: "problem",
      code: "not-a-directory",
      message: `Not a directory: ${shown} (give a skill directory or its SKILL.md)`,
    };
  }
  if (!stat.isDirectory()) {
    return { kind: "problem", code: "not-a-directory", message: `Not a directory: ${shown}` };
  }
  return { kind: "dir", dir: abs, skillFile: findSkillMd(abs) };
}
