/**
 * `readFileCaseFallback`: a skill file read that, when the exact path is missing, retries the one path
 * that differs only in letter case (`REFERENCE.md` → `reference.md`, as SKILL.md often spells a file its
 * folder names otherwise). Several such paths are left to the caller as candidates, never guessed.
 */
import type { Catalog, LineRange, ReadFileResult } from "../catalog/types.js";

/** What the read found, plus the paths that matched `path` but for case when none or several did. */
export type CaseFallbackResult = ReadFileResult & { candidates?: string[] };

/** Paths of `available` equal to `wanted` ignoring letter case (never `wanted` itself). */
export function caseInsensitiveMatches(wanted: string, available: readonly string[]): string[] {
  const exact = wanted.replace(/^\.\//, "");
  const lower = exact.toLowerCase();
  return available.filter((p) => p !== exact && p.toLowerCase() === lower);
}

/**
 * `catalog.readFile(name, path, range)`; on `not-found`, the unique case-insensitive match is read
 * instead (its result carries the real path). With two or more matches the `not-found` result comes
 * back with them in `candidates`.
 */
export async function readFileCaseFallback(
  catalog: Pick<Catalog, "readFile">,
  name: string,
  path: string,
  range?: LineRange,
): Promise<CaseFallbackResult> {
  const result = await catalog.readFile(name, path, range);
  if (result.kind !== "not-found") return result;
  const matches = caseInsensitiveMatches(path, result.available);
  if (matches.length === 1 && matches[0] !== undefined) {
    const retried = await catalog.readFile(name, matches[0], range);
    if (retried.kind !== "not-found") return retried;
  }
  return matches.length > 1 ? { ...result, candidates: matches } : result;
}
