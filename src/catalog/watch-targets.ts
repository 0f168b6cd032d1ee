/** What a catalog watches for changes, and the warnings when it cannot. */
import { realpathSync } from "node:fs";
import path from "node:path";
import type { Diagnostic } from "../spec/types.js";
import type { CatalogState } from "./scan-catalog.js";
import type { SkillRoot } from "./types.js";
import type { WatchTarget } from "./watch-paths.js";

/** Most skill directories outside every root (reached through symlinks) watched on their own. */
const MAX_LINKED_TARGETS = 256;

/**
 * What to watch. On Linux, where Node emulates recursive watching with one watcher per file and
 * directory (slow to start on big trees), every directory the scan listed is watched on its own: that
 * is exactly where a new skill folder or a SKILL.md edit shows up. Elsewhere the roots are watched
 * recursively (native), plus skill directories reached through symlinks from outside the roots.
 */
export function watchTargets(roots: readonly SkillRoot[], state: CatalogState): WatchTarget[] {
  const targets: WatchTarget[] = roots.map((root) => ({
    path: root.path,
    recursive: process.platform !== "linux",
  }));
  if (process.platform === "linux") {
    for (const dir of state.directories) targets.push({ path: dir, recursive: false, exists: true });
    for (const record of state.records) {
      const fileDir = path.dirname(record.location);
      if (record.scope !== "memory" && fileDir !== record.dir)
        targets.push({ path: fileDir, recursive: false });
    }
    return targets;
  }
  const reals = roots.map((root) => {
    try {
      return realpathSync(root.path);
    } catch {
      return root.path;
    }
  });
  for (const record of state.records) {
    if (targets.length >= roots.length + MAX_LINKED_TARGETS) break;
    if (record.scope === "memory") continue;
    if (!reals.some((root) => record.dir === root || record.dir.startsWith(`${root}/`))) {
      targets.push({ path: record.dir, recursive: true });
    }
  }
  return targets;
}

/** Default most watches one catalog takes (roots and listed folders) before it polls instead. */
export const DEFAULT_MAX_WATCHES = 4096;
/** Default interval of the polling fallback: a stat-only re-scan. */
export const DEFAULT_POLL_MS = 2000;

/** The warning that the catalog polls instead of watching. */
export function watchPolling(roots: readonly SkillRoot[], why: string, every: number): Diagnostic {
  return {
    code: "watch-polling",
    severity: "warning",
    message: `Not watching the skill roots for changes (${why}); they are re-scanned every ${every} ms instead (stat-only). Raise maxWatches, or on Linux fs.inotify.max_user_watches, to watch.`,
    path: roots[0]?.path ?? "",
  };
}

/** The warning that one folder could not be watched. */
export function watchFailed(dir: string, error: unknown): Diagnostic {
  return {
    code: "file-unreadable",
    severity: "warning",
    message: `Could not watch ${dir} for changes (${error instanceof Error ? error.message : String(error)}); call refresh() to pick up changes there. On Linux, raise fs.inotify.max_user_watches.`,
    path: dir,
  };
}
