import fs from "node:fs";
import path from "node:path";
import { parseSkillMd } from "../spec/parse-skill-md.js";
import type { Diagnostic, ParseMode } from "../spec/types.js";
import { scopeRank } from "./default-roots.js";
import { discoverSkillsSync, type PrefetchedSkill, SINGLE_FILE_SUFFIX } from "./discover-skills.js";
import { type FileIdentity, fileIdentity, unchangedSince } from "./file-identity.js";
import { findPlugins, mayHavePlugins, pluginOf } from "./find-plugins.js";
import { errorCode } from "./fs-diagnostics.js";
import type { KnownListing } from "./list-dirs.js";
import { memorySkillRecord } from "./memory-source.js";
import { MAX_SKILL_FILE_BYTES, parserInput, readSkillFull, readSkillHead } from "./read-skill-head.js";
import { type RankedRecord, resolveCollisions } from "./resolve-collisions.js";
import { fsOrigin } from "./skill-origin.js";
import { toSkillRecord } from "./to-skill-record.js";
import type { DiscoveredSkill, MemorySkill, SkillRecord, SkillRoot } from "./types.js";

/** What one SKILL.md gave, and enough about the file to know whether it changed since. */
export interface ScannedSkill {
  file: string;
  /** The directory as reached from its root (through links). */
  foundAt: string;
  /** The root it was found under. */
  root: string;
  /** `Date.now()` before it was read. */
  readAt: number;
  /** The file's identity when it was read (absent when it could not be stat'ed). */
  id?: FileIdentity;
  /** The record, when the skill is usable. */
  record?: SkillRecord;
  /** Why it is not usable (error diagnostics), when it is broken. */
  broken?: Diagnostic[];
}

/** A discovered skill on its way through the scan: `onSkill` parses every one as it is found. */
interface ScanningSkill extends PrefetchedSkill {
  scanned?: ScannedSkill;
}

/** Everything a catalog serves, swapped as one value. */
export interface CatalogState {
  /** Winners of name collisions, sorted by name. */
  records: SkillRecord[];
  byName: Map<string, SkillRecord>;
  /** Plugin skills served under their short names, by qualified name (`plugin:skill` → `skill`). */
  aliases: Map<string, string>;
  /** Short names only skills of several plugins claim, with their qualified names. */
  ambiguous: Map<string, string[]>;
  diagnostics: Diagnostic[];
  /** Memory skills by name (only winners). */
  memory: Map<string, MemorySkill>;
  /** Every scanned skill directory (real path), usable or broken, for stat-only re-scans. */
  scanned: Map<string, ScannedSkill>;
  /** Real paths of every directory the scan listed (what a precise watcher watches). */
  directories: string[];
  /** Per root (same order as the roots), every directory listing used, for stat-only re-scans. */
  listings: Map<string, KnownListing>[];
  /** Discovery's own diagnostics (roots, links, limits), before the skills' own. */
  discoveryDiagnostics: Diagnostic[];
  /** Every memory skill with its record (or why it has none), in input order. */
  memorySkills: { skill: MemorySkill; record: SkillRecord | undefined; diagnostics: Diagnostic[] }[];
}

/** Sources and settings of one scan. */
export interface ScanInput {
  roots: SkillRoot[];
  memory: readonly MemorySkill[];
  mode: ParseMode;
  memoryPrecedence: "first" | "last";
  maxDepth?: number;
  maxDirs?: number;
  abortSignal?: AbortSignal;
  /** An earlier scan: skills whose SKILL.md is unchanged (its identity) are reused, not re-read. */
  previous?: ReadonlyMap<string, ScannedSkill>;
  /** An earlier scan's listings per root: directories whose identity is unchanged are not listed again. */
  known?: readonly (ReadonlyMap<string, KnownListing> | undefined)[];
}

/**
 * Scans every source once into a complete {@link CatalogState}: discovers skill directories, reads each
 * SKILL.md's frontmatter (or reuses the previous result when the file is unchanged), keeps usable skills
 * as records and broken ones as diagnostics, adds memory skills and resolves name collisions.
 * Synchronous inside (see `discoverSkills`): each SKILL.md is parsed as discovery finds it, from the
 * head read with its folder's listing. Never throws for a bad skill; throws only when aborted.
 */
export async function scanCatalog(input: ScanInput): Promise<CatalogState> {
  const readAt = Date.now();
  // Each skill is parsed as discovery finds it (its head is at hand then), then taken in discovery's
  // final order.
  const discovery = discoverSkillsSync(input.roots, {
    ...(input.maxDepth === undefined ? {} : { maxDepth: input.maxDepth }),
    ...(input.maxDirs === undefined ? {} : { maxDirs: input.maxDirs }),
    ...(input.abortSignal === undefined ? {} : { abortSignal: input.abortSignal }),
    ...(input.known === undefined ? {} : { known: input.known }),
    readAt,
    // A folder listed afresh most likely holds a new or changed skill file: take the head read with
    // the listing. Folders found unchanged were not listed, and their skill files are only stat'ed.
    keepHeads: true,
    onSkill: (found: ScanningSkill) => {
      found.scanned = scanSkill(found, input, readAt);
      found.head = undefined; // parsed: let it go
    },
  });
  const scanned = new Map<string, ScannedSkill>();
  for (let i = 0; i < discovery.skills.length; i++) {
    const found: ScanningSkill = discovery.skills[i]!;
    scanned.set(found.dir, found.scanned!); // discovery called onSkill for every skill it returns
  }
  const memory = input.memory.map((skill) => ({ skill, ...memorySkillRecord(skill) }));
  return assembleState(input, {
    scanned,
    discoveryDiagnostics: discovery.diagnostics,
    directories: discovery.directories ?? [],
    listings: discovery.listings,
    memorySkills: memory,
  });
}

/** What a state is assembled from: each source's results before name collisions are resolved. */
export type StateParts = Pick<
  CatalogState,
  "scanned" | "discoveryDiagnostics" | "directories" | "listings" | "memorySkills"
>;

/** The state served from the scanned skills and memory skills: collisions resolved, diagnostics gathered. */
export function assembleState(input: ScanInput, parts: StateParts): CatalogState {
  const rootIndex = new Map(input.roots.map((root, i) => [root.path, i]));
  const rootScope = new Map(input.roots.map((root) => [root.path, root.scope]));
  const candidates: RankedRecord[] = [];
  const diagnostics: Diagnostic[] = [...parts.discoveryDiagnostics];
  // Plugins are found from the listings already made; a catalog without any pays one scan of the names.
  const plugins = mayHavePlugins(parts.listings) ? findPlugins(parts.listings) : undefined;
  if (plugins !== undefined) diagnostics.push(...plugins.diagnostics);
  // A folder whose SKILL.md is a link to a skill the catalog also has in its own folder (a collection's
  // mirror for another agent, `.gemini/skills/x/SKILL.md -> ../../../skills/x/SKILL.md`) is that skill
  // reached twice, not a second one: the skill in its own folder is kept, and no duplicate is reported.
  const ownFolder = new Set<string>();
  for (const entry of parts.scanned.values()) {
    const r = entry.record;
    if (r !== undefined && r.singleFile !== true && path.dirname(r.location) === r.dir)
      ownFolder.add(r.location);
  }
  let i = 0;
  for (const entry of parts.scanned.values()) {
    if ((++i & 1023) === 0) input.abortSignal?.throwIfAborted();
    if (entry.record === undefined) {
      diagnostics.push(...(entry.broken ?? []));
      continue;
    }
    if (ownFolder.has(entry.record.location) && path.dirname(entry.record.location) !== entry.record.dir)
      continue;
    const scope = rootScope.get(entry.root) ?? entry.record.scope;
    // Records from the metadata cache are stored without their origin (the root's, shared).
    entry.record.origin ??= fsOrigin(entry.root, entry.record.scope);
    const plugin = plugins === undefined ? undefined : pluginOf(entry.record.dir, entry.root, plugins.byDir);
    if (plugin !== undefined) {
      entry.record.plugin = plugin.name;
      entry.record.pluginDir = plugin.dir;
    } else if (entry.record.plugin !== undefined) {
      delete entry.record.plugin;
      delete entry.record.pluginDir;
    }
    candidates.push({
      record: entry.record,
      rank: scopeRank(scope) * 100_000 + (rootIndex.get(entry.root) ?? 0),
    });
  }
  const memoryRank = input.memoryPrecedence === "first" ? -1 : Number.MAX_SAFE_INTEGER;
  for (const { record, diagnostics: memoryDiagnostics } of parts.memorySkills) {
    diagnostics.push(...memoryDiagnostics);
    if (record !== undefined) candidates.push({ record, rank: memoryRank });
  }
  const resolved = resolveCollisions(candidates);
  diagnostics.push(...resolved.diagnostics);
  const memory = new Map<string, MemorySkill>();
  for (const { skill, record } of parts.memorySkills) {
    if (record !== undefined && resolved.byName.get(record.name) === record) memory.set(record.name, skill);
  }
  const { scanned, discoveryDiagnostics, directories, listings, memorySkills } = parts;
  return {
    records: resolved.records,
    byName: resolved.byName,
    aliases: resolved.aliases,
    ambiguous: resolved.ambiguous,
    diagnostics,
    memory,
    scanned,
    discoveryDiagnostics,
    directories,
    listings,
    memorySkills,
  };
}

/**
 * A state with only the given skill directories' SKILL.md files looked at again (each re-read when its
 * identity changed); everything else is taken from `state`. For change events that touched nothing but
 * skill files in folders whose listings are unchanged (the caller checks that).
 */
export function rescanSkillFiles(
  input: ScanInput,
  state: CatalogState,
  dirs: Iterable<string>,
): CatalogState {
  const readAt = Date.now();
  const scanned = new Map(state.scanned);
  for (const dir of dirs) {
    const before = state.scanned.get(dir);
    if (before !== undefined) scanned.set(dir, scanSkillAgain(input, dir, before, readAt));
  }
  return assembleState(input, { ...state, scanned });
}

/**
 * The skill file of `dir` (scanned before as `before`) looked at again: `before` itself when the file is
 * unchanged (its identity), else a fresh read and parse. `readAt` is `Date.now()` before the read.
 */
export function scanSkillAgain(
  input: ScanInput,
  dir: string,
  before: ScannedSkill,
  readAt: number,
): ScannedSkill {
  const scope = input.roots.find((root) => root.path === before.root)?.scope ?? "root";
  const found: PrefetchedSkill = {
    dir,
    foundAt: before.foundAt,
    skillFile: before.file,
    root: before.root,
    scope,
    depth: 0,
  };
  return scanSkill(found, { ...input, previous: new Map([[dir, before]]) }, readAt);
}

/** One skill: the previous result when its file is unchanged, else a fresh read and parse. */
function scanSkill(found: PrefetchedSkill, input: ScanInput, readAt: number): ScannedSkill {
  const file = found.skillFile;
  // A single-file skill's name is checked against its file name without `.skill.md`.
  const baseName = found.foundAt.slice(found.foundAt.lastIndexOf("/") + 1);
  const dirName = found.dir === file ? baseName.slice(0, -SINGLE_FILE_SUFFIX.length) : baseName;
  const previous = input.previous?.get(found.dir);
  let id = found.headId;
  if (id === undefined) {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat !== undefined) id = fileIdentity(stat);
  }
  if (previous !== undefined && id !== undefined && reusable(previous, found, id)) return previous;
  const entry: ScannedSkill = { file, foundAt: found.foundAt, root: found.root, readAt };
  if (id !== undefined) entry.id = id;
  if (id !== undefined && id.size > MAX_SKILL_FILE_BYTES) {
    entry.broken = [tooLarge(file, id.size)];
    return entry;
  }
  const options = { mode: input.mode, dirName, path: file, headOnly: true };
  let result: ReturnType<typeof parseSkillMd>;
  try {
    const strict = input.mode === "strict";
    let head = found.head ?? readSkillHead(file);
    result = parseSkillMd(parserInput(head, strict), options);
    const fallback =
      result.skill === undefined || result.diagnostics.some((d) => d.code === "description-from-body");
    if (head.partial && fallback) {
      head = readSkillFull(file);
      result = parseSkillMd(parserInput(head, strict), options);
    }
  } catch (error) {
    const code = errorCode(error);
    entry.broken = [
      code === "EFBIG"
        ? tooLarge(file, undefined)
        : {
            code: "file-unreadable",
            severity: "error",
            message: `Could not read ${file} (${code ?? String(error)}); the skill was skipped. Check the file's permissions.`,
            path: file,
          },
    ];
    return entry;
  }
  const usable =
    result.skill !== undefined &&
    (input.mode === "lenient" || !result.diagnostics.some((d) => d.severity === "error"));
  if (usable && result.skill !== undefined) {
    const record = toSkillRecord(found, result.skill, result.diagnostics);
    // A file touched but not changed keeps its record object, so watchers see no change. The size tells
    // a body edit (same L1 record, different file) from a touch.
    const before = previous?.record;
    const sameFile = previous?.id === undefined || previous.id.size === entry.id?.size;
    entry.record =
      before !== undefined && sameFile && JSON.stringify(before) === JSON.stringify(record) ? before : record;
  } else {
    entry.broken = result.diagnostics;
  }
  return entry;
}

function tooLarge(file: string, size: number | undefined): Diagnostic {
  const bytes = size === undefined ? "over" : `${size} bytes, over`;
  return {
    code: "file-too-large",
    severity: "error",
    message: `${file} is ${bytes} the ${MAX_SKILL_FILE_BYTES}-byte limit for a SKILL.md; the skill was skipped (its file was not read). Move detail into references/.`,
    path: file,
  };
}

/** True when a previous result still describes this skill file as found now. */
function reusable(previous: ScannedSkill, found: DiscoveredSkill, id: FileIdentity): boolean {
  if (
    previous.file !== found.skillFile ||
    previous.foundAt !== found.foundAt ||
    previous.root !== found.root
  ) {
    return false;
  }
  const record = previous.record;
  if (record !== undefined && record.scope !== found.scope) return false;
  return previous.id !== undefined && unchangedSince(previous.id, previous.readAt, id);
}
