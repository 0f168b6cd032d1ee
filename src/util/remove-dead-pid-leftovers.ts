/**
 * Removing what a crashed process left behind: temporary files and folders named after the pid that made
 * them (`…<pid>…`) are removed by the next process doing the same kind of work, once that pid is no longer
 * running. A live pid (even one reused by an unrelated process) keeps its entry for a later start.
 */
import { lstat, readdir, rm, unlink } from "node:fs/promises";
import path from "node:path";
import { isProcessAlive } from "./process-alive.js";

/** Options of {@link removeDeadPidLeftovers}. */
export interface DeadPidLeftovers {
  /** The pid an entry name carries, or `undefined` when the name is not a leftover of this kind. */
  pidOf: (name: string) => number | undefined;
  /**
   * Remove folders too (recursively; links inside are removed, never followed). Default false: only
   * regular files are removed (for a folder the user owns, such as a project).
   */
  folders?: boolean;
}

/**
 * Removes the entries of `dir` that `pidOf` names after a process no longer running. Never throws (a
 * leftover that cannot be removed now is tried again at the next start); returns the names removed.
 */
export async function removeDeadPidLeftovers(dir: string, options: DeadPidLeftovers): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = options.pidOf(name);
    if (pid === undefined || pid === process.pid || isProcessAlive(pid)) continue;
    const entry = path.join(dir, name);
    try {
      const stat = await lstat(entry);
      if (stat.isFile()) await unlink(entry);
      else if (stat.isDirectory() && options.folders === true)
        await rm(entry, { recursive: true, force: true });
      else continue;
      removed.push(name);
    } catch {
      // Gone meanwhile, or not removable now: a later start tries again.
    }
  }
  return removed;
}
