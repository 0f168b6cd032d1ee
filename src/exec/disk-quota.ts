/**
 * A per-run disk quota: how many bytes a run may add to its workspace (outputs and work files). The
 * workspace is measured by descriptor (no symlink is followed) before the run, every `intervalMs` while
 * it runs, and once after; when the growth passes the quota the run is stopped (`onExceeded`).
 *
 * This is sampling, not a file-system quota: between two samples a fast writer can go past the quota
 * by what it writes in one interval. `runSkillCommand` therefore also lowers `RLIMIT_FSIZE` to the
 * quota (no single file can exceed it) and sizes the sandbox's private `/tmp` to it.
 */
import { closeSync, constants, lstatSync, openSync, readdirSync } from "node:fs";

/** Default bytes a run may add to its workspace: 1 GiB. */
export const DEFAULT_DISK_QUOTA_BYTES = 1024 ** 3;

/** Default sampling interval of the quota watcher: 250 ms. */
export const DISK_QUOTA_INTERVAL_MS = 250;

/** Entries counted per measurement before giving up (the quota then sees a lower bound). */
const MAX_ENTRIES = 50_000;

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * Bytes below the directory held by `fd`. Synchronous on purpose: a measurement is a few hundred cheap
 * system calls for a usual workspace, and going through the thread pool for each made a run several
 * times slower on a loaded machine; `MAX_ENTRIES` bounds the time the event loop is held.
 */
function usageOf(fd: number, budget: { left: number }): number {
  const at = `/proc/self/fd/${fd}`;
  let total = 0;
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(at, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (--budget.left < 0) break;
    try {
      if (entry.isDirectory()) {
        // Entered by descriptor without following: a folder swapped for a symlink is not walked.
        const sub = openSync(`${at}/${entry.name}`, DIR_FLAGS);
        try {
          total += usageOf(sub, budget);
        } finally {
          closeSync(sub);
        }
      } else {
        const stat = lstatSync(`${at}/${entry.name}`);
        // Allocated blocks, so sparse files count what they take, and apparent size as a floor.
        total += Math.max(stat.blocks * 512, stat.isFile() ? stat.size : 0);
      }
    } catch {
      // removed or swapped while measuring: not counted
    }
  }
  return total;
}

/** Bytes used below `root` (everything, walked by descriptor without following symlinks). */
export function workspaceUsage(root: string): number {
  const fd = openSync(root, DIR_FLAGS);
  try {
    return usageOf(fd, { left: MAX_ENTRIES });
  } finally {
    closeSync(fd);
  }
}

/** A running quota watcher. */
export interface DiskQuotaWatch {
  /** Stops sampling, measures once more and says whether the quota was passed and by how much. */
  stop(): Promise<{ exceeded: boolean; addedBytes: number }>;
}

/**
 * Measures `root` now, then every `intervalMs`, and calls `onExceeded` once when it has grown by more
 * than `quotaBytes` since the start.
 */
export async function watchDiskQuota(options: {
  root: string;
  quotaBytes: number;
  onExceeded: () => void;
  intervalMs?: number;
}): Promise<DiskQuotaWatch> {
  const usage = (fallback: number): number => {
    try {
      return workspaceUsage(options.root);
    } catch {
      return fallback;
    }
  };
  const baseline = usage(0);
  let exceeded = false;
  let peak = 0;
  const measure = (): void => {
    const added = usage(baseline) - baseline;
    peak = Math.max(peak, added);
    if (added > options.quotaBytes && !exceeded) {
      exceeded = true;
      options.onExceeded();
    }
  };
  const timer = setInterval(measure, options.intervalMs ?? DISK_QUOTA_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      measure();
      return { exceeded, addedBytes: peak };
    },
  };
}
