import fs from "node:fs";
import path from "node:path";
import { errorCode } from "./fs-diagnostics.js";

/** One directory to watch. */
export interface WatchTarget {
  path: string;
  /** Watch the whole subtree (native on macOS and Windows; on Linux Node emulates it per file). */
  recursive: boolean;
  /** The caller just saw this directory exist (skips a stat per target on every update). Default false. */
  exists?: boolean;
}

/**
 * One change seen by a watcher: a directory watched on its own and the name of the entry that changed in
 * it; `name` is null when the change cannot be placed (a recursive watcher, a watcher that failed, too
 * many changes at once): the caller must then look at everything.
 */
export interface WatchChange {
  dir: string;
  name: string | null;
}

/** Changes gathered during one debounce beyond which they are reported as one unplaced change. */
const MAX_CHANGES = 256;

/** A set of live watchers; `close()` stops them all. */
export interface PathWatcher {
  /**
   * Watches `targets` instead of the current set (unchanged ones are kept). Returns true when a new
   * watcher was started: changes made just before it started were not seen, so re-check once.
   */
  update(targets: readonly WatchTarget[]): boolean;
  close(): void;
}

/**
 * Watches directories and calls `onChange` after `debounceMs` (default 75) without further events.
 * A target that does not exist is noticed through its nearest existing parent (non-recursively), so
 * creating a root later is seen too. Watchers that fail (e.g. the inotify limit) are dropped and
 * reported through `onError`; the rest keep working.
 */
export function watchPaths(
  targets: readonly WatchTarget[],
  onChange: (changes: WatchChange[]) => void,
  options: { debounceMs?: number; onError?: (path: string, error: unknown) => void } = {},
): PathWatcher {
  const debounceMs = options.debounceMs ?? 75;
  const watchers = new Map<string, fs.FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let armed = false;
  let changes: WatchChange[] = [];

  const fire = (change: WatchChange) => {
    if (closed) return;
    if (changes.length < MAX_CHANGES) changes.push(change);
    else changes[0] = { dir: "", name: null };
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      const seen = changes;
      changes = [];
      if (!closed) onChange(seen);
    }, debounceMs);
  };

  const arm = (target: WatchTarget): string | undefined => {
    const existing = target.exists === true ? target.path : nearestDirectory(target.path);
    if (existing === undefined) return undefined;
    const recursive = target.recursive && existing === target.path;
    const key = `${recursive ? "r" : "d"}:${existing}`;
    if (watchers.has(key)) return key;
    armed = true;
    try {
      const watcher = fs.watch(existing, { recursive }, (_event, name) => {
        // Only a directory watched on its own tells exactly which folder changed.
        fire({
          dir: existing,
          name: recursive || existing !== target.path || name === null ? null : String(name),
        });
      });
      watcher.on("error", (error) => {
        watcher.close();
        watchers.delete(key);
        options.onError?.(existing, error);
        fire({ dir: existing, name: null });
      });
      watchers.set(key, watcher);
    } catch (error) {
      // Gone since it was listed: the re-scan this triggers sees the new layout.
      if (errorCode(error) === "ENOENT") fire({ dir: existing, name: null });
      else options.onError?.(existing, error);
      return undefined;
    }
    return key;
  };

  const update = (next: readonly WatchTarget[]) => {
    armed = false;
    const wanted = new Set<string | undefined>();
    for (const target of next) wanted.add(arm(target));
    for (const [key, watcher] of watchers) {
      if (!wanted.has(key)) {
        watcher.close();
        watchers.delete(key);
      }
    }
    return armed;
  };

  update(targets);
  return {
    update,
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

/** `dir` itself when it is a directory, else its nearest existing ancestor directory. */
function nearestDirectory(dir: string): string | undefined {
  let current = dir;
  for (;;) {
    if (fs.statSync(current, { throwIfNoEntry: false })?.isDirectory() === true) return current;
    const up = path.dirname(current);
    if (up === current) return undefined;
    current = up;
  }
}
