import fs from "node:fs";
import type { LoadedCatalogCache } from "./catalog-cache.js";
import { unchangedSince } from "./file-identity.js";
import { errorCode } from "./fs-diagnostics.js";
import type { KnownListing } from "./list-dirs.js";
import { memorySkillRecord } from "./memory-source.js";
import { assembleState, type CatalogState, type ScanInput, type ScannedSkill } from "./scan-catalog.js";

/**
 * The state a scan would give, taken whole from the metadata cache without walking the roots, when the
 * cache shows it cannot differ: every root's cache is closed (no symlink followed, no discovery
 * diagnostic, see `RootCache.closed`) and made with the same limits (`maxDepth/maxDirs`), each root
 * still resolves to the same folder, and every listed folder and every skill file still has its cached,
 * settled identity (one stat each). A root with no cache must be optional and absent. (A cache whose
 * paths leave the root's real path, or whose records name other folders, was loaded as not closed: see
 * `readRootCache`.) Otherwise
 * undefined, and the caller scans (reusing what is unchanged). Throws only when aborted.
 */
export function reuseCachedScan(
  input: ScanInput,
  cache: LoadedCatalogCache,
  limits: string,
): CatalogState | undefined {
  input.abortSignal?.throwIfAborted();
  const listings: Map<string, KnownListing>[] = [];
  const directories: string[] = [];
  for (const [i, root] of input.roots.entries()) {
    const cached = cache.roots[i];
    const real = realPath(root.path);
    if (cached === undefined) {
      // Only a missing optional root adds nothing (and says nothing) to a scan.
      if (real !== "ENOENT" || root.optional !== true) return undefined;
      listings.push(new Map());
      continue;
    }
    if (!cached.closed || cached.limits !== limits) return undefined;
    if (cached.known.keys().next().value !== real) return undefined;
    for (const [dir, listing] of cached.known) {
      const stat = fs.statSync(dir, { throwIfNoEntry: false });
      if (stat === undefined || !unchangedSince(listing.id, listing.readAt, stat)) return undefined;
      directories.push(dir);
    }
    listings.push(cached.known);
  }
  input.abortSignal?.throwIfAborted();
  const scanned = new Map<string, ScannedSkill>();
  for (const cached of cache.roots) {
    if (cached === undefined) continue;
    for (const [dir, skill] of cached.skills) {
      const stat = fs.statSync(skill.file, { throwIfNoEntry: false });
      if (skill.id === undefined || stat === undefined || !unchangedSince(skill.id, skill.readAt, stat))
        return undefined;
      scanned.set(dir, skill);
    }
  }
  const memorySkills = input.memory.map((skill) => ({ skill, ...memorySkillRecord(skill) }));
  return assembleState(input, { scanned, discoveryDiagnostics: [], directories, listings, memorySkills });
}

/** The real path of `file`, or "ENOENT" when it does not exist, or undefined on any other error. */
function realPath(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch (error) {
    return errorCode(error) === "ENOENT" ? "ENOENT" : undefined;
  }
}
