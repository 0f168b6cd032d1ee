/**
 * Who owns a workspace, so that one left behind by a crash (kill -9, power loss) is removed by the next
 * workspace creation instead of piling up. Each workspace a process makes gets an owner mark beside it in
 * the base directory, `.<workspace name>.owner`, holding the owner's pid and host tag; the owner removes both when it
 * disposes of the workspace. A mark whose pid is no longer running means the workspace is orphaned.
 *
 * The mark lives in the base (never mounted into a sandbox), not in the workspace a script can write.
 * Workspaces without a mark (kept on purpose, e.g. `skillrt run --keep`, or made by an older skillrt) are
 * never touched; every removal goes through held descriptors (`removeIn`), so no link is followed.
 */
import { hostTag } from "../util/host-tag.js";
import { isProcessAlive } from "../util/process-alive.js";
import { unlockIn } from "./copy-skill-view.js";
import { type DirHandle, listDir, lstatIn, readFileIn, removeIn, writeFileIn } from "./dir-handle.js";

const MARK_SUFFIX = ".owner";
const WORKSPACE_PREFIX = "skillrt-ws-";

/** The name of the owner mark of the workspace directory `name` (in the same base directory). */
export function ownerMarkName(name: string): string {
  return `.${name}${MARK_SUFFIX}`;
}

/** Marks the workspace `name` in `base` as owned by this process. */
export async function markWorkspaceOwner(base: DirHandle, name: string): Promise<void> {
  await writeFileIn(base, ownerMarkName(name), Buffer.from(`${process.pid} ${hostTag()}\n`), 0o600);
}

/** True when `name` in `base` carries an owner mark (of any process). */
export async function hasOwnerMark(base: DirHandle, name: string): Promise<boolean> {
  return (await lstatIn(base, ownerMarkName(name)))?.isFile() === true;
}

/**
 * Removes the workspaces in `base` whose owner mark names a process that is no longer running, with
 * their marks (and marks whose workspace is gone). Only this user's own directories are removed; errors
 * leave the entry for a later start. Returns the names removed.
 */
export async function removeOrphanedWorkspaces(base: DirHandle): Promise<string[]> {
  const removed: string[] = [];
  const uid = process.getuid?.();
  for (const entry of await listDir(base)) {
    const mark = entry.name;
    if (!entry.isFile()) continue;
    if (!mark.startsWith(`.${WORKSPACE_PREFIX}`) || !mark.endsWith(MARK_SUFFIX)) continue;
    const name = mark.slice(1, -MARK_SUFFIX.length);
    try {
      const read = await readFileIn(base, mark, 64);
      if (read === undefined) continue; // not a regular file: not ours to interpret
      // `<pid> <host tag>`: a mark made on another host (or container) sharing this base is not judged here.
      const [pidText, host] = read.bytes.toString("utf8").trim().split(" ");
      const pid = Number(pidText);
      if (host !== hostTag() || !Number.isSafeInteger(pid) || pid <= 0 || isProcessAlive(pid)) continue;
      const stat = await lstatIn(base, name);
      if (stat !== undefined) {
        if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue;
        // Read-only skill copies (and folders a script made read-only) must be writable to be removed.
        await unlockIn(base, name);
        await removeIn(base, name);
        removed.push(name);
      }
      await removeIn(base, mark);
    } catch {
      // Another process may be removing the same leftover, or it is not ours: a later start looks again.
    }
  }
  return removed;
}
