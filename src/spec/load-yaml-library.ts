/**
 * Lazy, synchronous access to the `yaml` library. Importing it costs ~15 ms of start-up, and a catalog
 * of simple skills never needs it (the fast path handles them), so it is required on first use only.
 */
import { createRequire } from "node:module";
import type * as Yaml from "yaml";

let cached: typeof Yaml | undefined;

/** The `yaml` module, loaded (synchronously, once) on the first call. */
export function loadYamlLibrary(): typeof Yaml {
  if (cached === undefined) {
    const mod: typeof Yaml = createRequire(import.meta.url)("yaml");
    cached = mod;
  }
  return cached;
}

/** True once {@link loadYamlLibrary} has loaded the library (for start-up tests and benchmarks). */
export function isYamlLibraryLoaded(): boolean {
  return cached !== undefined;
}
