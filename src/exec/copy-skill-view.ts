/**
 * The read-only copy of a skill that executors without mounts (`local`) run in, and that every executor
 * runs a skill trusted by its digest from (the copy is checked against the digest): the skill's real tree
 * copied into `skills/<name>/` (directories, files with their permission bits, symbolic links as links,
 * never followed), then write permission taken off every file and directory, so a script walking `.`
 * sees exactly the skill's files and its writes fail the way they do on the sandbox's read-only mount.
 * A fingerprint of the real tree and of the copy decides when the copy is made again.
 */
import { chmodSync, lstatSync, readdirSync, type Stats } from "node:fs";
import path from "node:path";
import {
  copyIn,
  type DirHandle,
  listDir,
  lstatIn,
  openDirHandle,
  openSubdir,
  removeIn,
} from "./dir-handle.js";

/** Bytes one skill copy may hold: 1 GiB (a larger skill is refused, with this figure in the message). */
export const MAX_SKILL_COPY_BYTES = 1024 ** 3;

function describe(rel: string, stat: Stats, withTimes: boolean): string {
  const kind = stat.isSymbolicLink() ? "l" : stat.isDirectory() ? "d" : stat.isFile() ? "f" : "o";
  const size = stat.isFile() ? stat.size : 0;
  return withTimes
    ? `${kind}|${rel}|${size}|${stat.mtimeMs}|${stat.mode}`
    : `${kind}|${rel}|${size}|${stat.mtimeMs}`;
}

/**
 * One line per entry below `dir` (kind, relative path, size, mtime; with `withModes`, also the mode),
 * never following a symlink; `undefined` when `dir` is missing or not a directory. The folders `skip`
 * names directly below `dir` count as entries, but what they hold does not.
 */
export function treeFingerprint(
  dir: string,
  withModes = true,
  skip?: ReadonlySet<string>,
): string | undefined {
  const lines: string[] = [];
  const walk = (abs: string, rel: string): void => {
    for (const name of readdirSync(abs).sort()) {
      const child = path.join(abs, name);
      const childRel = rel === "" ? name : `${rel}/${name}`;
      const stat = lstatSync(child);
      if (rel === "" && skip?.has(name) === true) {
        lines.push(`${stat.isDirectory() ? "d" : "o"}|${childRel}`);
        continue;
      }
      lines.push(describe(childRel, stat, withModes));
      if (stat.isDirectory()) walk(child, childRel);
    }
  };
  try {
    if (!lstatSync(dir).isDirectory()) return undefined;
    walk(dir, "");
  } catch {
    return undefined;
  }
  return lines.join("\n");
}

/** Takes write permission off `name` in `dir` and everything below it (links are left alone). */
async function lockIn(dir: DirHandle, name: string): Promise<void> {
  const stat = await lstatIn(dir, name);
  if (stat === undefined || stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    const sub = await openSubdir(dir, name);
    try {
      for (const entry of await listDir(sub)) await lockIn(sub, entry.name);
      // The descriptor's magic link names the directory opened without following a symlink.
      chmodSync(sub.at, stat.mode & 0o7555);
    } finally {
      await sub.close();
    }
  } else if (stat.isFile()) {
    // Local runs act with the host's rights anyway; the sandbox mounts `skills/` read-only over the copy.
    chmodSync(`${dir.at}/${name}`, stat.mode & 0o7555);
  }
}

/** Gives the owner write permission back on the directories below `name` in `dir`, so they can be removed. */
export async function unlockIn(dir: DirHandle, name: string): Promise<void> {
  const stat = await lstatIn(dir, name);
  if (stat === undefined || !stat.isDirectory()) return;
  const sub = await openSubdir(dir, name);
  try {
    chmodSync(sub.at, (stat.mode & 0o7777) | 0o700);
    for (const entry of await listDir(sub)) if (entry.isDirectory()) await unlockIn(sub, entry.name);
  } finally {
    await sub.close();
  }
}

/**
 * Replaces `name` in `skills` with a read-only copy of the real skill directory `realDir`. Throws when
 * the skill holds more than `MAX_SKILL_COPY_BYTES`.
 */
export async function copySkillView(skills: DirHandle, name: string, realDir: string): Promise<void> {
  await unlockIn(skills, name);
  await removeIn(skills, name);
  const parent = await openDirHandle(path.dirname(realDir));
  try {
    await copyIn(parent, path.basename(realDir), skills, name, { bytes: MAX_SKILL_COPY_BYTES });
  } catch (error) {
    await unlockIn(skills, name).catch(() => undefined);
    await removeIn(skills, name).catch(() => undefined);
    throw error;
  } finally {
    await parent.close();
  }
  await lockIn(skills, name);
}
