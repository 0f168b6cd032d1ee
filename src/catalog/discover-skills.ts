import fs from "node:fs";
import type { Diagnostic } from "../spec/types.js";
import { childDirs, type DirNode, findSkillFile } from "./dir-entries.js";
import type { FileIdentity } from "./file-identity.js";
import { errorCode, fsDiagnostic, isSymlink, linkDiagnostic } from "./fs-diagnostics.js";
import {
  type DirListing,
  ENTRY_FILE,
  ENTRY_LINK,
  type KnownListing,
  knownListing,
  type ListingResult,
  listDirs,
} from "./list-dirs.js";
import type { SkillHead } from "./read-skill-head.js";
import type { DiscoveredSkill, DiscoverOptions, DiscoveryResult, SkillRoot } from "./types.js";

/** Default deepest directory level searched below a root. */
export const DEFAULT_MAX_DEPTH = 6;
/** Default number of directories without a SKILL.md descended into per root. */
export const DEFAULT_MAX_DIRS = 2000;

/**
 * Finds every skill directory (a directory holding `SKILL.md`, or `skill.md`) under the roots, and every
 * single-file skill (`NAME.skill.md`, peterbot's form) in a folder that is not itself a skill (its `dir` is
 * the file: it has no folder).
 *
 * - Searches up to `maxDepth` (default 6) levels below each root; a root holding SKILL.md is a skill
 *   (depth 0). Skills nested in other skills' folders and in hidden folders are found; only `.git` and
 *   `node_modules` are skipped, and inside a skill its `scripts/`, `references/` and `assets/`
 *   (they hold the skill's own files; skipping them keeps scans of big collections to one listing per
 *   skill, and nested skills live in other subfolders).
 * - At most `maxDirs` (default 2,000) directories WITHOUT a SKILL.md are descended into per root (skill
 *   directories do not count). Hitting either cap gives one warning per root (`scan-limit`, `depth-limit`).
 * - Symlinks to directories and to SKILL.md files are followed. The same real directory is one skill (the
 *   first reached wins, across roots too). Loops give `symlink-loop`, dangling links `symlink-broken`.
 * - A missing root is a `path-not-found` error unless the root is `optional`.
 *
 * Directories are listed breadth-first, one level at a time, by {@link listDirs} (synchronous calls:
 * listing 10,000 small folders through the thread pool costs about twice the CPU time). The calling thread is blocked meanwhile (a scan of
 * 10,000 skills: ~0.1–0.2 s). Result order: root order, then sorted path order.
 */
export async function discoverSkills(
  roots: SkillRoot[],
  options: DiscoverOptions = {},
): Promise<DiscoveryResult> {
  return discoverSkillsSync(roots, options);
}

/** A discovered skill with the head of its skill file when the listing read it (see {@link listDirs}). */
export interface PrefetchedSkill extends DiscoveredSkill {
  head?: SkillHead | undefined;
  /** Identity of the skill file when the listing opened it (with or without keeping its head). */
  headId?: FileIdentity | undefined;
}

/** Options of {@link discoverSkillsSync} beyond the public ones. */
export interface DiscoverSyncOptions extends DiscoverOptions {
  /** @internal Keep the skill file heads read while listing, for the scan (they cost memory). */
  keepHeads?: boolean;
  /**
   * @internal Called for each skill as it is found (before the result is sorted), with its head when
   * kept: the scan parses it there.
   */
  onSkill?: (skill: PrefetchedSkill) => void;
  /**
   * @internal Listings of an earlier scan per root (same order as the roots), reused for directories
   * whose identity is unchanged.
   */
  known?: readonly (ReadonlyMap<string, KnownListing> | undefined)[];
  /** @internal `Date.now()` when the scan started (stamped on the listings kept). Default now. */
  readAt?: number;
}

/** What {@link discoverSkillsSync} returns: the skills with their heads, and every listing it used. */
export interface SyncDiscovery extends DiscoveryResult {
  skills: PrefetchedSkill[];
  /** Per root (same order as the roots), every directory listed or reused, for the next scan. */
  listings: Map<string, KnownListing>[];
}

/** Synchronous {@link discoverSkills}: same rules and result. */
export function discoverSkillsSync(roots: SkillRoot[], options: DiscoverSyncOptions = {}): SyncDiscovery {
  const ctx = newContext(options);
  const skills: PrefetchedSkill[] = [];
  const listings: Map<string, KnownListing>[] = [];
  const readAt = options.readAt ?? Date.now();
  for (const [rootIndex, root] of roots.entries()) {
    options.abortSignal?.throwIfAborted();
    const known = options.known?.[rootIndex];
    const listOptions = {
      heads: options.keepHeads === true,
      ...(known === undefined ? {} : { known }),
      ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
    };
    const rootListings = new Map<string, KnownListing>();
    listings.push(rootListings);
    const walker = new RootWalker(root, ctx, options.keepHeads === true, options.onSkill);
    // Breadth-first, one level at a time: each level is listed in one batch and visited in order as
    // the listings arrive, which queues the next level.
    for (let level = walker.start(); level.length > 0; ) {
      const next: DirNode[] = [];
      const nodes = level;
      listDirs(
        nodes.map((node) => node.real),
        listOptions,
        (i, listing) => {
          const node = nodes[i]!;
          if (!("error" in listing)) {
            const known = knownListing(listing, readAt);
            if (known !== undefined) rootListings.set(node.real, known);
          }
          walker.visit(node, listing, next);
        },
      );
      level = next;
    }
    skills.push(...walker.finish());
  }
  return { skills, diagnostics: ctx.diagnostics, directories: ctx.directories, listings };
}

interface ScanContext {
  maxDepth: number;
  maxDirs: number;
  seen: Set<string>;
  diagnostics: Diagnostic[];
  directories: string[];
}

function newContext(options: DiscoverOptions): ScanContext {
  return {
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    maxDirs: options.maxDirs ?? DEFAULT_MAX_DIRS,
    seen: new Set(),
    diagnostics: [],
    directories: [],
  };
}

/** Breadth-first walk of one root: classifies each listed directory and queues what to search next. */
class RootWalker {
  readonly #root: SkillRoot;
  readonly #ctx: ScanContext;
  readonly #skills: PrefetchedSkill[] = [];
  readonly #keepHeads: boolean;
  readonly #onSkill: ((skill: PrefetchedSkill) => void) | undefined;
  #plainDirs = 0;
  #skippedByLimit = 0;
  #skippedByDepth = 0;

  constructor(
    root: SkillRoot,
    ctx: ScanContext,
    keepHeads: boolean,
    onSkill: ((skill: PrefetchedSkill) => void) | undefined,
  ) {
    this.#root = root;
    this.#ctx = ctx;
    this.#keepHeads = keepHeads;
    this.#onSkill = onSkill;
  }

  /** The first directory to visit: the root itself, or nothing when it is missing or already scanned. */
  start(): DirNode[] {
    const rootReal = resolveRoot(this.#root, this.#ctx.diagnostics);
    if (rootReal === undefined || this.#ctx.seen.has(rootReal)) return [];
    this.#ctx.seen.add(rootReal);
    return [{ abs: this.#root.path, real: rootReal, depth: 0, parent: undefined }];
  }

  /** Classifies one listed directory and appends the subdirectories to search to `queue`. */
  visit(node: DirNode, entries: ListingResult, queue: DirNode[]): void {
    const ctx = this.#ctx;
    if ("error" in entries) {
      ctx.diagnostics.push(fsDiagnostic(entries.error, node.abs));
      return;
    }
    ctx.directories.push(node.real);
    const skillFile = findSkillFile(node, entries, ctx.diagnostics);
    if (skillFile !== undefined) {
      const skill: PrefetchedSkill = {
        dir: node.real,
        foundAt: node.abs,
        skillFile,
        root: this.#root.path,
        scope: this.#root.scope,
        depth: node.depth,
      };
      if (entries.headId !== undefined && skillFile === `${node.real}/${entries.headOf}`) {
        skill.headId = entries.headId;
        if (this.#keepHeads && entries.head !== undefined) skill.head = entries.head;
      }
      this.#skills.push(skill);
      this.#onSkill?.(skill);
    } else {
      this.#plainDirs++;
      // Single-file skills (`NAME.skill.md`) in a folder that is not itself a skill.
      for (const file of singleFileSkills(node, entries, ctx.diagnostics)) {
        if (ctx.seen.has(file.real)) continue;
        ctx.seen.add(file.real);
        const skill: PrefetchedSkill = {
          dir: file.real,
          foundAt: file.abs,
          skillFile: file.real,
          root: this.#root.path,
          scope: this.#root.scope,
          depth: node.depth,
        };
        this.#skills.push(skill);
        this.#onSkill?.(skill);
      }
    }
    const children = childDirs(node, entries, skillFile !== undefined, ctx);
    if (children.length === 0) return;
    if (node.depth >= ctx.maxDepth) {
      this.#skippedByDepth += children.length;
      return;
    }
    if (skillFile === undefined && this.#plainDirs > ctx.maxDirs) {
      this.#skippedByLimit += children.length;
      return;
    }
    for (const child of children) {
      // Checked again here: two links in one folder may lead to the same directory.
      if (ctx.seen.has(child.real)) continue;
      ctx.seen.add(child.real);
      queue.push(child);
    }
  }

  /** The root's skills in sorted path order, plus its limit warnings. */
  finish(): PrefetchedSkill[] {
    const root = this.#root.path;
    if (this.#skippedByLimit > 0) {
      this.#ctx.diagnostics.push({
        code: "scan-limit",
        severity: "warning",
        message: `Skill search under ${root} stopped descending after ${this.#ctx.maxDirs} directories without a SKILL.md; ${this.#skippedByLimit} subdirectories were not searched. Raise maxDirs (CatalogOptions.maxDirs) or point a root closer to the skills.`,
        path: root,
      });
    }
    if (this.#skippedByDepth > 0) {
      this.#ctx.diagnostics.push({
        code: "depth-limit",
        severity: "warning",
        message: `Skill search under ${root} stops at depth ${this.#ctx.maxDepth}; ${this.#skippedByDepth} deeper directories were not searched. Raise maxDepth (CatalogOptions.maxDepth) or point a root closer to the skills.`,
        path: root,
      });
    }
    return this.#skills.sort((a, b) => (a.foundAt < b.foundAt ? -1 : a.foundAt > b.foundAt ? 1 : 0));
  }
}

/** Suffix of a single-file skill's name (peterbot's `skills/*.skill.md`). */
export const SINGLE_FILE_SUFFIX = ".skill.md";

/** The `NAME.skill.md` regular files of a listed folder (links to files followed), in listing order. */
function singleFileSkills(
  node: DirNode,
  entries: DirListing,
  diagnostics: Diagnostic[],
): { abs: string; real: string }[] {
  const found: { abs: string; real: string }[] = [];
  for (let i = entries.from; i < entries.to; i++) {
    const name = entries.names[i]!;
    if (!name.endsWith(SINGLE_FILE_SUFFIX) || name.length === SINGLE_FILE_SUFFIX.length) continue;
    const kind = entries.kinds[i];
    const abs = `${node.abs}/${name}`;
    const file = `${node.real}/${name}`;
    if (kind === ENTRY_FILE) found.push({ abs, real: file });
    else if (kind === ENTRY_LINK) {
      try {
        if (fs.statSync(file).isFile()) found.push({ abs, real: fs.realpathSync(file) });
      } catch (error) {
        diagnostics.push(linkDiagnostic(error, abs));
      }
    }
  }
  return found;
}

function resolveRoot(root: SkillRoot, diagnostics: Diagnostic[]): string | undefined {
  let real: string;
  try {
    real = fs.realpathSync(root.path);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" && root.optional === true) return undefined;
    if (code === "ENOENT") {
      const dangling = isSymlink(root.path);
      diagnostics.push({
        code: dangling ? "symlink-broken" : "path-not-found",
        severity: "error",
        message: dangling
          ? `Skill root ${root.path} is a symlink to a path that does not exist. Fix or remove the link.`
          : `Skill root ${root.path} does not exist. Create it or fix the path.`,
        path: root.path,
      });
      return undefined;
    }
    diagnostics.push(fsDiagnostic(error, root.path));
    return undefined;
  }
  if (!fs.statSync(real).isDirectory()) {
    diagnostics.push({
      code: "not-a-directory",
      severity: "error",
      message: `Skill root ${root.path} is not a directory. Point the root at a folder of skills or at one skill's folder.`,
      path: root.path,
    });
    return undefined;
  }
  return real;
}
