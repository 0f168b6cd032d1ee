/**
 * What `skillrt add`, `remove`, `install` and `update` share: the cache remote sources are fetched into,
 * how a lock entry's skill is found again in its source, and how a failure is said.
 */
import { statSync } from "node:fs";
import { defaultCacheDir } from "../catalog/cache-dir.js";
import {
  type InstallSource,
  lockEntrySource,
  type OpenedSource,
  openSource,
  type SourceFetchOptions,
  type SourceSkill,
} from "../catalog/install-skills.js";
import {
  computeSkillFolderHash,
  readSkillsLock,
  SKILLS_LOCK_FILE,
  type SkillsLockEntry,
} from "../catalog/skills-lock.js";
import { SkillrtError } from "../errors/skillrt-error.js";
import { checkCacheDir } from "../util/trusted-cache.js";
import { cliHome } from "./cli-home.js";
import type { CliIo } from "./command.js";

/** Fetch options for `io`: the user's cache (remote sources need it even with SKILLRT_CACHE=0). */
export function cliFetchOptions(io: CliIo, refresh = false): SourceFetchOptions {
  const { home } = cliHome(io.env);
  const cacheDir = defaultCacheDir(
    { ...io.env, SKILLRT_CACHE: undefined },
    ...(home === undefined ? [] : [home]),
  );
  const usable = cacheDir !== undefined && checkCacheDir(cacheDir).ok;
  return { cwd: io.cwd, env: io.env, refresh, ...(usable ? { cacheDir } : {}) };
}

/** True when `dir` is a folder (what `add` takes a plain path for). */
export function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The skill a lock entry records, found in its opened source: by `skillPath` when it has one, else by name. */
export function findLockedSkill(
  name: string,
  entry: SkillsLockEntry,
  source: OpenedSource,
): SourceSkill | undefined {
  const skillPath = typeof entry.skillPath === "string" ? entry.skillPath : undefined;
  return source.skills.find((s) => (skillPath === undefined ? s.name === name : s.skillPath === skillPath));
}

/** The message of an expected failure (a SkillrtError, a fetch that failed), else rethrown. */
export function failureMessage(error: unknown): string {
  if (SkillrtError.isInstance(error)) return error.message;
  throw error;
}

/** One locked skill with its source opened (or why that failed), for `install` and `update`. */
export interface LockedSkill {
  name: string;
  entry: SkillsLockEntry;
  /** The skill in its source, or why it could not be had. */
  found: SourceSkill | string;
  source?: InstallSource;
  /** The source skill's `computedHash` (of its folder as fetched). */
  hash?: string;
}

/**
 * Every entry of the project's skills-lock.json (or those of `names`, less those `skip` takes) with its
 * source opened, each distinct source once; a warning per source that stood in from the cache. Throws a SkillrtError when
 * the lock cannot be read.
 */
export async function openLockedSkills(
  io: CliIo,
  names: readonly string[],
  refresh: boolean,
  warn: (message: string) => void,
  /** True for an entry that needs no source (`install`: the skill is in place as recorded). */
  skip: (name: string, entry: SkillsLockEntry) => Promise<boolean> = async () => false,
): Promise<LockedSkill[]> {
  const read = await readSkillsLock(io.cwd);
  if (read === undefined)
    throw new SkillrtError({
      code: "invalid-argument",
      message: `no ${SKILLS_LOCK_FILE} in ${io.cwd}; add skills with 'skillrt add SOURCE' first.`,
    });
  if ("error" in read)
    throw new SkillrtError({ code: "config-invalid", message: `${read.file}: ${read.error}` });
  const all = Object.entries(read.lock.skills);
  const unknown = names.filter((name) => !all.some(([n]) => n === name));
  if (unknown.length > 0)
    throw new SkillrtError({
      code: "invalid-argument",
      message: `${unknown.map((n) => `'${n}'`).join(", ")} not in ${SKILLS_LOCK_FILE}.`,
    });
  const chosen = names.length === 0 ? all : all.filter(([n]) => names.includes(n));
  const options = cliFetchOptions(io, refresh);
  const opened = new Map<string, Promise<OpenedSource>>();
  const out: LockedSkill[] = [];
  for (const [name, entry] of chosen) {
    if (await skip(name, entry)) continue;
    const source = lockEntrySource(entry, io.cwd);
    if (typeof source === "string") {
      out.push({ name, entry, found: `${name}: ${source}` });
      continue;
    }
    const key = JSON.stringify(source);
    let pending = opened.get(key);
    if (pending === undefined) {
      pending = openSource(source, options);
      opened.set(key, pending);
      pending.then((s) => s.warning !== undefined && warn(s.warning)).catch(() => undefined);
    }
    try {
      const skill = findLockedSkill(name, entry, await pending);
      if (skill === undefined)
        out.push({ name, entry, source, found: `${name}: no longer in its source (${entry.source})` });
      else out.push({ name, entry, source, found: skill, hash: await computeSkillFolderHash(skill.dir) });
    } catch (error) {
      out.push({ name, entry, source, found: `${name}: ${failureMessage(error)}` });
    }
  }
  return out;
}
