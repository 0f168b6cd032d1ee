/**
 * `skills-lock.json`, the lock file the ecosystem's installer (`npx skills add`, the `skills` npm package)
 * writes at a project's root: skill name → where it came from and the `computedHash` of its folder.
 * A skill whose files no longer hash to the recorded value has drifted from what was installed.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { readJsonFile } from "../util/read-json-file.js";
import type { SkillRecord } from "./types.js";

/** The lock's file name, in the project folder. */
export const SKILLS_LOCK_FILE = "skills-lock.json";

/** One installed skill's entry (other fields the installer may add are kept out). */
export const SkillsLockEntry = z.looseObject({
  source: z.string(),
  ref: z.string().optional(),
  sourceType: z.string(),
  computedHash: z.string(),
});
/** One installed skill's entry. */
export type SkillsLockEntry = z.infer<typeof SkillsLockEntry>;

/** The whole `skills-lock.json`. */
export const SkillsLockFile = z.looseObject({
  version: z.number(),
  skills: z.record(z.string(), SkillsLockEntry),
});
/** The whole `skills-lock.json`. */
export type SkillsLockFile = z.infer<typeof SkillsLockFile>;

/**
 * The lock of `projectDir`: undefined when there is none; `{ error }` when it cannot be read or parsed
 * (a merge-conflicted lock is reported, not healed).
 */
export async function readSkillsLock(
  projectDir: string,
): Promise<{ file: string; lock: SkillsLockFile } | { file: string; error: string } | undefined> {
  const file = path.join(projectDir, SKILLS_LOCK_FILE);
  const read = await readJsonFile(file);
  if (read === undefined) return undefined;
  if ("error" in read) return { file, error: read.error };
  const parsed = SkillsLockFile.safeParse(read.json);
  if (!parsed.success) return { file, error: "not a skills lock file (version and skills expected)" };
  return { file, lock: parsed.data };
}

/**
 * The installer's `computedHash` of a skill folder, computed as `skills` does: every regular file under
 * it (symbolic links left out; `.git` and `node_modules` folders skipped), sorted by `/`-separated relative
 * path with `localeCompare`, each path then its bytes fed to one SHA-256; lower-case hex.
 */
export async function computeSkillFolderHash(skillDir: string): Promise<string> {
  const files: Array<{ relativePath: string; content: Buffer }> = [];
  const collect = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    await Promise.all(
      entries.map(async (entry) => {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name === ".git" || entry.name === "node_modules") return;
          await collect(full);
        } else if (entry.isFile()) {
          const relativePath = path.relative(skillDir, full).split(path.sep).join("/");
          files.push({ relativePath, content: await readFile(full) });
        }
      }),
    );
  };
  await collect(skillDir);
  files.sort((a, b) => a.relativePath.localeCompare(b.relativePath));
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(file.relativePath);
    hash.update(file.content);
  }
  return hash.digest("hex");
}

/** A locked skill whose folder no longer matches the lock, or that is gone. */
export interface SkillDrift {
  name: string;
  /** The skill's folder, when it was found. */
  dir?: string;
  expected: string;
  /** The folder's hash now; undefined when the skill is not installed. */
  actual?: string;
}

/**
 * The skills of `lock` that drifted: installed with other content than recorded, or missing. A skill is
 * found by name among `records` (the catalog's).
 */
export async function findSkillDrift(
  lock: SkillsLockFile,
  records: readonly Pick<SkillRecord, "name" | "dir">[],
): Promise<SkillDrift[]> {
  const byName = new Map(records.map((r) => [r.name, r]));
  const drift = await Promise.all(
    Object.entries(lock.skills).map(async ([name, entry]): Promise<SkillDrift | undefined> => {
      const record = byName.get(name);
      if (record === undefined) return { name, expected: entry.computedHash };
      const actual = await computeSkillFolderHash(record.dir).catch(() => undefined);
      if (actual === entry.computedHash) return undefined;
      return {
        name,
        dir: record.dir,
        expected: entry.computedHash,
        ...(actual === undefined ? {} : { actual }),
      };
    }),
  );
  return drift.filter((d): d is SkillDrift => d !== undefined).sort((a, b) => a.name.localeCompare(b.name));
}

/** One line for a person about a drifted skill. */
export function describeDrift(drift: SkillDrift): string {
  return drift.actual === undefined
    ? `skill '${drift.name}' is in ${SKILLS_LOCK_FILE} but not installed`
    : `skill '${drift.name}' drifted from ${SKILLS_LOCK_FILE}: its files hash to ${drift.actual.slice(0, 12)}…, the lock records ${drift.expected.slice(0, 12)}… (edited after install? reinstall it with \`npx skills add\`, or update the lock)`;
}
