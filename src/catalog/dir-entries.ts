import fs from "node:fs";
import type { Diagnostic } from "../spec/types.js";
import { linkDiagnostic } from "./fs-diagnostics.js";
import { type DirListing, ENTRY_DIR, ENTRY_FILE, ENTRY_LINK } from "./list-dirs.js";

/** A directory on discovery's way down a root. */
export interface DirNode {
  /** Path as reached from the root (through links). */
  abs: string;
  /** Real path. */
  real: string;
  depth: number;
  parent: DirNode | undefined;
}

/**
 * Whether a folder named `name` is never entered: `.git` and `node_modules` anywhere, `SKILL.md` and
 * `skill.md` (handled by `findSkillFile`), and inside a skill directory its `scripts`, `references` and
 * `assets` (they hold the skill's own files, not nested skills; skipping them keeps scans of big
 * collections to one listing per skill). Plain comparisons: this runs for every folder of a scan.
 */
function isSkippedDir(name: string, inSkill: boolean): boolean {
  return (
    name === ".git" ||
    name === "node_modules" ||
    name === "SKILL.md" ||
    name === "skill.md" ||
    (inSkill && (name === "scripts" || name === "references" || name === "assets"))
  );
}

/** What {@link childDirs} needs of a scan: the real directories already taken, and where to report. */
export interface ChildDirsContext {
  seen: Set<string>;
  diagnostics: Diagnostic[];
}

/** The skill file of a listed directory (`SKILL.md`, else `skill.md`; links followed), or undefined. */
export function findSkillFile(
  node: DirNode,
  entries: DirListing,
  diagnostics: Diagnostic[],
): string | undefined {
  const { names, from, to } = entries;
  let upper = -1;
  let lower = -1;
  for (let i = from; i < to; i++) {
    if (names[i] === "SKILL.md") upper = i;
    else if (names[i] === "skill.md") lower = i;
  }
  if (upper < 0 && lower < 0) return undefined;
  return skillFileOf(node, entries, upper, diagnostics) ?? skillFileOf(node, entries, lower, diagnostics);
}

function skillFileOf(
  node: DirNode,
  entries: DirListing,
  index: number,
  diagnostics: Diagnostic[],
): string | undefined {
  if (index < 0) return undefined;
  const name = entries.names[index]!;
  const kind = entries.kinds[index];
  const file = `${node.real}/${name}`;
  if (kind === ENTRY_FILE) return file;
  if (kind === ENTRY_DIR) return undefined;
  if (kind !== ENTRY_LINK) {
    diagnostics.push(notAFile(`${node.abs}/${name}`, fs.lstatSync(file, { throwIfNoEntry: false })));
    return undefined;
  }
  try {
    const stat = fs.statSync(file);
    if (stat.isFile()) return fs.realpathSync(file);
    if (!stat.isDirectory()) diagnostics.push(notAFile(`${node.abs}/${name}`, stat));
  } catch (error) {
    diagnostics.push(linkDiagnostic(error, `${node.abs}/${name}`));
  }
  return undefined;
}

/** A skill file that is a FIFO, socket or device: never opened (a FIFO would block the scan). */
function notAFile(abs: string, stat: fs.Stats | undefined): Diagnostic {
  const what = stat?.isFIFO()
    ? "a FIFO"
    : stat?.isSocket()
      ? "a socket"
      : stat?.isCharacterDevice() || stat?.isBlockDevice()
        ? "a device"
        : "not a regular file";
  return {
    code: "file-unreadable",
    severity: "warning",
    message: `${abs} is ${what}, not a regular file; the folder was not read as a skill. Replace it with a regular SKILL.md file.`,
    path: abs,
  };
}

/** The subdirectories of a listed directory that discovery searches next, sorted by name (links followed). */
export function childDirs(
  node: DirNode,
  entries: DirListing,
  isSkill: boolean,
  ctx: ChildDirsContext,
): DirNode[] {
  const { names, kinds, from, to } = entries;
  const candidates: number[] = [];
  for (let i = from; i < to; i++) {
    const kind = kinds[i];
    if (kind !== ENTRY_DIR && kind !== ENTRY_LINK) continue;
    const name = names[i]!;
    if (isSkippedDir(name, isSkill)) continue;
    candidates.push(i);
  }
  if (candidates.length > 1) {
    candidates.sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
  }
  const children: DirNode[] = [];
  for (const i of candidates) {
    const name = names[i]!;
    const abs = `${node.abs}/${name}`;
    let real: string;
    if (kinds[i] === ENTRY_DIR) {
      real = node.real === node.abs ? abs : `${node.real}/${name}`;
    } else {
      const target = followDirLink(abs, node, ctx.diagnostics);
      if (target === undefined) continue;
      real = target;
    }
    if (ctx.seen.has(real)) continue;
    children.push({ abs, real, depth: node.depth + 1, parent: node });
  }
  return children;
}

/** Real path of a symlink's target directory, or undefined (file target, dangling link, loop). */
function followDirLink(abs: string, parent: DirNode, diagnostics: Diagnostic[]): string | undefined {
  try {
    if (!fs.statSync(abs).isDirectory()) return undefined;
    const real = fs.realpathSync(abs);
    for (let up: DirNode | undefined = parent; up !== undefined; up = up.parent) {
      if (up.real === real) {
        diagnostics.push({
          code: "symlink-loop",
          severity: "warning",
          message: `Symlink ${abs} points back to its ancestor ${real}; not followed. Remove the link to silence this.`,
          path: abs,
        });
        return undefined;
      }
    }
    return real;
  } catch (error) {
    diagnostics.push(linkDiagnostic(error, abs));
    return undefined;
  }
}
