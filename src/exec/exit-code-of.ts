import { constants } from "node:os";

/**
 * The shell-style exit code of a finished child: its own code, `128 + N` when signal N ended it
 * (`SIGKILL` → 137), `-1` when neither is known.
 */
export function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  if (signal === null) return -1;
  return 128 + (constants.signals[signal] ?? 0);
}
