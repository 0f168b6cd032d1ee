/**
 * Installing skills into a project the way the ecosystem's installer (`npx skills add`, the `skills` npm
 * package) does, so both tools share one project: each skill's folder is copied to
 * `<project>/.agents/skills/<name>/` and recorded in `skills-lock.json` with the same fields, in the same
 * order, as `skills` writes them (`source`, `sourceUrl`, `ref`, `sourceType`, `skillPath`,
 * `computedHash`; entries sorted by name, two-space JSON and a newline).
 *
 * Sources: a local folder, a git repository (`https://…/x.git`, `git+…`, `ssh://`, `file://…`), a GitHub
 * `owner/repo[#ref]` shorthand, and a site's agent skills index (`https://example.com/`). Remote sources
 * are fetched through the remote roots' checked fetch and cache (`materializeRoot`): the same archive and
 * git rules, deadlines and digest checks, and offline use of the cached copy.
 */
import { copyFile, lstat, mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { SkillrtError } from "../errors/skillrt-error.js";
import { createCatalog } from "./create-catalog.js";
import { materializeRoot } from "./remote/materialize-root.js";
import { redactUrl } from "./remote/redact-url.js";
import { parseRootSpec } from "./remote/root-spec.js";
import {
  computeSkillFolderHash,
  readSkillsLock,
  SKILLS_LOCK_FILE,
  type SkillsLockEntry,
} from "./skills-lock.js";

/** Where installed skills go, below the project: the folder every agent the installer knows reads. */
export const INSTALL_DIR = path.join(".agents", "skills");

/** Skill folder names written (a name that is not one is refused: it would leave the install folder). */
const INSTALL_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

/** Where skills come from, as parsed from what the user typed or a lock entry. */
export type InstallSource =
  | { kind: "local"; dir: string }
  | { kind: "git"; url: string; ref?: string }
  | { kind: "github"; repo: string; ref?: string }
  | { kind: "well-known"; url: string };

/** One skill of a source. */
export interface SourceSkill {
  name: string;
  /** The skill's folder in the fetched source. */
  dir: string;
  /** Its SKILL.md relative to the source's top, `/`-separated (the lock's `skillPath` for git sources). */
  skillPath: string;
  description: string;
}

/** What {@link openSource} gives: the source's skills, and a warning when a cached copy stood in. */
export interface OpenedSource {
  skills: SourceSkill[];
  warning?: string;
}

/** Options of the functions here that fetch. */
export interface SourceFetchOptions {
  /** The folder relative paths are read against (the project's). */
  cwd: string;
  /** skillrt's cache directory (remote sources are fetched into its `remote/` folder). */
  cacheDir?: string;
  /** The environment the transfer limits are read from. */
  env?: Record<string, string | undefined>;
  /** Fetch again even when a cached copy exists. */
  refresh?: boolean;
  fetch?: typeof globalThis.fetch;
}

/** Parses `spec` (relative paths against `cwd`): what `skillrt add` takes. Throws a usage-worthy error. */
export function parseInstallSource(
  spec: string,
  cwd: string,
  isDir: (dir: string) => boolean,
): InstallSource {
  const local = path.resolve(cwd, spec);
  if (!/^[a-z][a-z0-9+.-]*:/i.test(spec) && isDir(local)) return { kind: "local", dir: local };
  const hash = spec.indexOf("#");
  const bare = hash < 0 ? spec : spec.slice(0, hash);
  const ref = hash < 0 ? undefined : spec.slice(hash + 1);
  const withRef = <T extends object>(source: T): T & { ref?: string } =>
    ref === undefined || ref === "" ? source : { ...source, ref };
  if (/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(bare) && !bare.startsWith("."))
    return withRef({ kind: "github" as const, repo: bare.replace(/\.git$/, "") });
  const github = /^https:\/\/github\.com\/([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+?)(?:\.git)?\/?$/.exec(bare);
  if (github !== null) return withRef({ kind: "github" as const, repo: github[1] as string });
  if (/^git\+/i.test(bare)) return withRef({ kind: "git" as const, url: bare.slice(4) });
  if (
    /^(ssh|git):\/\//i.test(bare) ||
    /^git@/.test(bare) ||
    /\.git\/?$/.test(bare) ||
    /^file:\/\//i.test(bare)
  )
    return withRef({ kind: "git" as const, url: bare });
  if (/^https?:\/\//i.test(bare)) return { kind: "well-known", url: spec };
  throw new SkillrtError({
    code: "invalid-argument",
    message: `Cannot add '${redactUrl(spec)}': it is not a folder, a git URL (…​.git, git+…, ssh://, file://), a GitHub owner/repo, or a site URL with an agent skills index.`,
  });
}

/** The source a lock entry names (a `local` source relative to the lock's folder), or why not. */
export function lockEntrySource(entry: SkillsLockEntry, projectDir: string): InstallSource | string {
  const ref = entry.ref === undefined ? {} : { ref: entry.ref };
  switch (entry.sourceType) {
    case "local":
      return { kind: "local", dir: path.resolve(projectDir, entry.source) };
    case "git":
    case "gitlab":
      return {
        kind: "git",
        url: typeof entry.sourceUrl === "string" ? entry.sourceUrl : entry.source,
        ...ref,
      };
    case "github":
      return { kind: "github", repo: entry.source, ...ref };
    case "well-known":
      return typeof entry.sourceUrl === "string"
        ? { kind: "well-known", url: entry.sourceUrl }
        : "its well-known entry has no sourceUrl";
    default:
      return `skillrt cannot fetch sources of type '${entry.sourceType}'`;
  }
}

/** Fetches `source` (remote ones through the cache) and lists its skills. */
export async function openSource(source: InstallSource, options: SourceFetchOptions): Promise<OpenedSource> {
  let top: string;
  let warning: string | undefined;
  if (source.kind === "local") top = source.dir;
  else {
    const spec =
      source.kind === "well-known"
        ? source.url
        : `git+${source.kind === "github" ? `https://github.com/${source.repo}.git` : source.url}${source.ref === undefined ? "" : `#${source.ref}`}`;
    const root = parseRootSpec(spec, options.cwd);
    if (root === undefined || (source.kind === "well-known" && root.kind !== "well-known"))
      throw new SkillrtError({
        code: "invalid-argument",
        message: `Cannot add '${redactUrl(spec)}': not a site with an agent skills index (a site URL ends in '/').`,
      });
    if (options.cacheDir === undefined)
      throw new SkillrtError({
        code: "invalid-argument",
        message: "Cannot fetch remote skills: no cache directory (set SKILLRT_CACHE_DIR or HOME).",
      });
    const fetched = await materializeRoot(root, {
      cacheDir: options.cacheDir,
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.refresh === undefined ? {} : { refresh: options.refresh }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
    top = fetched.path;
    warning = fetched.warning;
  }
  const catalog = await createCatalog({ roots: [top] });
  const skills = catalog.list().map((record) => ({
    name: record.name,
    dir: record.dir,
    skillPath: path.relative(top, record.location).split(path.sep).join("/"),
    description: record.description,
  }));
  return warning === undefined ? { skills } : { skills, warning };
}

/** The lock entry of `skill` from `source`, with its installed folder's hash, as `skills` writes one. */
export function lockEntryFor(
  source: InstallSource,
  skill: SourceSkill,
  computedHash: string,
  projectDir: string,
): SkillsLockEntry {
  switch (source.kind) {
    case "local":
      return { source: portableLocalSource(source.dir, projectDir), sourceType: "local", computedHash };
    case "git":
      return {
        source: source.url,
        sourceUrl: source.url,
        ...(source.ref === undefined ? {} : { ref: source.ref }),
        sourceType: "git",
        skillPath: skill.skillPath,
        computedHash,
      };
    case "github":
      return {
        source: source.repo,
        ...(source.ref === undefined ? {} : { ref: source.ref }),
        sourceType: "github",
        skillPath: skill.skillPath,
        computedHash,
      };
    case "well-known":
      return {
        source: new URL(source.url).hostname.replace(/^www\./, ""),
        sourceUrl: source.url,
        sourceType: "well-known",
        computedHash,
      };
  }
}

/**
 * Copies the skill's regular files and folders (no links, no `.git`) to `<project>/.agents/skills/<name>/`,
 * replacing what was there in one rename, and returns the installed folder's `computedHash`.
 */
export async function installSkillFolder(skill: SourceSkill, projectDir: string): Promise<string> {
  if (!INSTALL_NAME.test(skill.name))
    throw new SkillrtError({
      code: "invalid-argument",
      message: `Cannot install the skill named '${skill.name}': a skill folder name is letters, digits, '.', '_' and '-'.`,
    });
  const base = path.join(projectDir, INSTALL_DIR);
  await mkdir(base, { recursive: true });
  const dest = path.join(base, skill.name);
  const work = path.join(base, `.${skill.name}.installing-${process.pid}`);
  await rm(work, { recursive: true, force: true });
  try {
    await copyTree(skill.dir, work);
    const old = `${dest}.old-${process.pid}`;
    const had = await lstat(dest).then(
      () => true,
      () => false,
    );
    if (had) await rename(dest, old);
    await rename(work, dest);
    if (had) await rm(old, { recursive: true, force: true });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return computeSkillFolderHash(dest);
}

/** Removes an installed skill's folder; true when there was one. */
export async function removeSkillFolder(name: string, projectDir: string): Promise<boolean> {
  if (!INSTALL_NAME.test(name)) return false;
  const dest = path.join(projectDir, INSTALL_DIR, name);
  const had = await lstat(dest).then(
    () => true,
    () => false,
  );
  await rm(dest, { recursive: true, force: true });
  return had;
}

/**
 * Writes `skills-lock.json` with `entries` set (an `undefined` entry removes that skill), keeping every
 * other entry as read, byte for byte as `skills` writes the file.
 */
export async function updateSkillsLock(
  projectDir: string,
  entries: ReadonlyMap<string, SkillsLockEntry | undefined>,
): Promise<void> {
  const read = await readSkillsLock(projectDir);
  if (read !== undefined && "error" in read)
    throw new SkillrtError({
      code: "config-invalid",
      message: `${read.file}: ${read.error}; fix or remove it first (nothing was written).`,
    });
  const skills: Record<string, SkillsLockEntry> = { ...(read?.lock.skills ?? {}) };
  for (const [name, entry] of entries) {
    if (entry === undefined) delete skills[name];
    else skills[name] = entry;
  }
  const sorted = Object.fromEntries(
    Object.keys(skills)
      .sort()
      .map((name) => [name, skills[name]]),
  );
  const file = path.join(projectDir, SKILLS_LOCK_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify({ version: read?.lock.version ?? 1, skills: sorted }, null, 2)}\n`);
  await rename(temp, file);
}

/** `skills`'s portable form of a local source: relative to the project (`./x`, `../x`, `.`), else absolute. */
function portableLocalSource(dir: string, projectDir: string): string {
  const relative = path.relative(projectDir, dir);
  if (path.isAbsolute(relative)) return dir.split(path.sep).join("/");
  const portable = relative.split(path.sep).join("/");
  if (portable === "") return ".";
  if (portable === ".." || portable.startsWith("../")) return portable;
  return `./${portable}`;
}

async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== ".git") await copyTree(source, target);
    } else if (entry.isFile()) {
      await copyFile(source, target);
    }
    // Links and special files are not copied: an installed skill is its own files.
  }
}
