import fs from "node:fs";
import { ENTRY_DIR, ENTRY_FILE, ENTRY_LINK, ENTRY_OTHER } from "./list-dirs.js";
import type { CatalogState } from "./scan-catalog.js";
import type { WatchChange } from "./watch-paths.js";

/**
 * The skill folders whose SKILL.md must be looked at again for `changes`, when that is all they touch;
 * undefined when any change may alter what discovery finds (a folder or link added, removed or renamed
 * in a listed folder, a skill file appearing or disappearing, a change that cannot be placed), which
 * calls for a full (stat-only) re-scan. Each changed entry is compared, as it is now (`lstat`), with its
 * folder's listing; changes to other files (a script, a reference) touch no skill.
 */
export function affectedSkillDirs(
  changes: readonly WatchChange[],
  state: CatalogState,
): Set<string> | undefined {
  const dirs = new Set<string>();
  for (const { dir, name } of changes) {
    if (name === null || name.includes("/")) return undefined;
    let listing: { names: string[]; kinds: number[] } | undefined;
    for (const listings of state.listings) {
      listing = listings.get(dir);
      if (listing !== undefined) break;
    }
    if (listing === undefined) return undefined;
    // A single-file skill (`NAME.skill.md`) is scanned under its own path, a folder skill under its folder's.
    const single = name.endsWith(".skill.md");
    const skillFile = single || name === "SKILL.md" || name === "skill.md";
    const at = listing.names.indexOf(name);
    const listed = at < 0 ? undefined : listing.kinds[at];
    const stat = fs.lstatSync(`${dir}/${name}`, { throwIfNoEntry: false });
    const kind =
      stat === undefined
        ? undefined
        : stat.isFile()
          ? ENTRY_FILE
          : stat.isDirectory()
            ? ENTRY_DIR
            : stat.isSymbolicLink()
              ? ENTRY_LINK
              : ENTRY_OTHER;
    // Listings keep only what discovery looks at: folders, links and the skill files.
    const now = skillFile || kind === ENTRY_DIR || kind === ENTRY_LINK ? kind : undefined;
    if (now !== listed) return undefined;
    if (!skillFile || now === undefined) continue;
    const scannedAs = single ? `${dir}/${name}` : dir;
    if (!state.scanned.has(scannedAs) || now !== ENTRY_FILE) return undefined;
    dirs.add(scannedAs);
  }
  return dirs;
}
