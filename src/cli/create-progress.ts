/** A one-line progress indicator. */
export interface Progress {
  /** Reports that `done` of `total` items are finished. */
  update(done: number): void;
  /** Erases the indicator line. Safe to call more than once. */
  clear(): void;
}

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  /** Word shown before the counter, e.g. `validating`. */
  label: string;
  total: number;
  /** Redraw at most this often, in milliseconds. Default 80. */
  intervalMs?: number;
  /** Clock (injectable for tests). Default `Date.now`. */
  now?: () => number;
}

const noop: Progress = { update() {}, clear() {} };

/**
 * Draws `label done/total` on `stream` with carriage returns, throttled. Does nothing unless the
 * stream is a TTY (progress never reaches pipes, files, or JSON consumers).
 */
export function createProgress(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  options: ProgressOptions,
): Progress {
  if (stream.isTTY !== true) return noop;
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? 80;
  let last = Number.NEGATIVE_INFINITY;
  let shown = false;
  return {
    update(done) {
      const t = now();
      if (t - last < interval && done < options.total) return;
      last = t;
      shown = true;
      stream.write(`\r\u001b[K${options.label} ${done}/${options.total}`);
    },
    clear() {
      if (!shown) return;
      shown = false;
      stream.write("\r\u001b[K");
    },
  };
}
