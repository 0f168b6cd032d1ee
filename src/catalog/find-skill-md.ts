/** Locating the skill file of a directory, as the reference does (SKILL.md first, then skill.md). */
import { statSync } from "node:fs";
import { join } from "node:path";

/** File names tried, in order. */
export const SKILL_FILE_NAMES = ["SKILL.md", "skill.md"] as const;

/**
 * Path of the skill file in `dir`: `SKILL.md` when it is a file (symlinks followed), else `skill.md`,
 * else `undefined`. A directory named `SKILL.md` is not a skill file. Never throws.
 */
export function findSkillMd(dir: string): string | undefined {
  for (const name of SKILL_FILE_NAMES) {
    const candidate = join(dir, name);
    try {
      if (statSync(candidate, { throwIfNoEntry: false })?.isFile() === true) return candidate;
    } catch {
      // unreadable entry (permissions, loop): not a usable skill file
    }
  }
  return undefined;
}
