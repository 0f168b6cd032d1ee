import { createRequire } from "node:module";

/** One chunk of directories from the native scanner, packed in flat values. */
export interface NativeChunk {
  /** Entries per directory; -1 when it could not be listed (see `errnos`). */
  sizes: Int32Array;
  errnos: Int32Array;
  /** Every entry name of the chunk, each followed by `\0`. */
  names: string;
  /** Kind per entry (0 other, 1 file, 2 directory, 3 symlink). */
  kinds: Uint8Array;
  /**
   * Bytes of the skill file read per directory (its first `headBytes`, copied into the `heads` buffer
   * given to `take`, one directory after the other); -1 when none was read.
   */
  headLengths: Int32Array;
  /** 1 when that file is `SKILL.md`, 2 when `skill.md`. */
  headOf: Uint8Array;
}

/** The addon built from `native/scan.c` (see there). */
export interface NativeScanner {
  start(dirs: string[], headBytes: number, threads: number, ahead: number): object;
  take(handle: object, start: number, end: number, heads: Buffer): NativeChunk;
  stop(handle: object): void;
}

/** Where `npm install` / `npm run build:native` leaves the addon, from `src/catalog` or `dist/catalog`. */
const ADDON = "../../build/Release/skillrt_scan.node";

let loaded: NativeScanner | null | undefined;

/**
 * The native scanner, or undefined when it is not built (no compiler at install time, Windows) or
 * `SKILLRT_NATIVE=0` is set. Loaded once.
 */
export function loadNativeScanner(): NativeScanner | undefined {
  if (loaded === undefined) {
    loaded = null;
    if (process.env.SKILLRT_NATIVE !== "0") {
      try {
        loaded = createRequire(import.meta.url)(ADDON) as NativeScanner;
      } catch {
        // Not built: the JavaScript listing gives the same results.
      }
    }
  }
  return loaded ?? undefined;
}
