/** The names of the load modes (see `load-mode.ts`), in a module of their own so options can name them. */

/** How long a loaded skill stays: `session`, `turn` or `once` (see `load-mode.ts`). */
export type LoadMode = "turn" | "once" | "session";

/** `mode` as trpc normalises it: unknown values fall back to `turn`. */
export function normalizeLoadMode(mode: string): LoadMode {
  return mode === "once" || mode === "session" ? mode : "turn";
}
