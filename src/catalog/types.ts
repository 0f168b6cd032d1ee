/**
 * Shapes of the `catalog/` module: skill records (L1), loaded skills (L2), file index and reads (L3).
 * Other modules depend on these; keep them stable.
 */
import type { Diagnostic, FrontmatterValue, ParseMode } from "../spec/types.js";

/** Where a skill came from. Precedence on a name collision: project > user > extra; memory and explicit roots rank as configured. */
export type SkillScope = "project" | "user" | "extra" | "root" | "memory" | "mcp";

/**
 * The source a skill came from: a filesystem root (`fs`, id: the root's absolute path), skills defined in
 * code (`memory`) or an MCP server serving skills (`mcp`, id: the host's label of the server). A skill's identity is its origin plus
 * its path there ({@link skillKey}), never its name alone: two origins may serve the same name.
 */
export interface SkillOrigin {
  kind: "fs" | "memory" | "mcp";
  /** Unique among the catalog's sources of this kind (the root's absolute path; `memory`). */
  id: string;
  /** How to show it to a person (`project root /repo/skills`, `memory`). */
  label: string;
}

/** L1 data of one skill: what the catalog holds in memory for every skill. */
export interface SkillRecord {
  name: string;
  description: string;
  /** Absolute real path of the SKILL.md file; `memory:<name>/SKILL.md` for skills built in code. */
  location: string;
  /** Absolute real path of the skill directory; `memory:<name>` for skills built in code. */
  dir: string;
  scope: SkillScope;
  /** The root (absolute) the skill was found under, or `memory`. */
  source: string;
  /** The source it came from; one object per source, shared by its records. */
  origin: SkillOrigin;
  license?: string;
  compatibility?: string;
  allowedTools?: string[];
  metadata?: Record<string, string>;
  /** `metadata` as written when a value is a nested map or list (see `ParsedSkill.metadataTree`). */
  metadataTree?: Record<string, FrontmatterValue>;
  /**
   * The body's first prose as plain text (at most 600 characters); for search. Memory skills carry it;
   * records of skill files leave it out (listing never reads a body) and search reads it from the file.
   */
  opening?: string;
  /** The headings near the body's start, one per line (at most 300 characters); as {@link opening}. */
  headings?: string;
  /** Top-level frontmatter keys outside the six spec fields (`when_to_use`, `tags`, `version`, …). */
  extras: Record<string, FrontmatterValue>;
  /** `disable-model-invocation: true`: hidden from the model's catalog and tools. */
  disableModelInvocation: boolean;
  /** `user-invocable: false` hides it from slash commands. Default true. */
  userInvocable: boolean;
  /** `active: true`: loaded when a session starts. */
  active: boolean;
  /** Warnings (lenient repairs) found while reading this skill. */
  diagnostics: Diagnostic[];
  /**
   * A single-file skill (`NAME.skill.md`, peterbot's form): `location` and `dir` are that file. It has no
   * folder, so nothing beside it belongs to it: its one file is `SKILL.md` (read from `location`), it has
   * no scripts, and no command runs in it.
   */
  singleFile?: true;
  /**
   * The plugin the skill ships in (a Claude Code or Codex plugin folder above it, see `find-plugins.ts`).
   * Its name is then `plugin:skill` when another skill claims the same short name.
   */
  plugin?: string;
  /** The plugin's folder (absolute real path), with {@link plugin}: its `agents/` are the plugin's agents. */
  pluginDir?: string;
}

/** L2: a skill with its body. */
export interface LoadedSkill {
  record: SkillRecord;
  body: string;
  /** 1-based line of SKILL.md where the body starts. */
  bodyLine: number;
}

export type SkillFileKind = "script" | "reference" | "asset" | "doc" | "other";

/** One file of a skill's directory (the file index). Paths are relative, `/`-separated. */
export interface SkillFile {
  path: string;
  size: number;
  kind: SkillFileKind;
  mimeType: string;
  binary: boolean;
}

/** 1-based, inclusive line range. */
export interface LineRange {
  startLine?: number;
  endLine?: number;
}

/** Result of reading a skill file. Expected failures are values, not exceptions. */
export type ReadFileResult =
  | {
      kind: "text";
      path: string;
      content: string;
      totalLines: number;
      startLine: number;
      endLine: number;
      size: number;
      mimeType: string;
    }
  | { kind: "binary"; path: string; size: number; mimeType: string }
  | { kind: "not-found"; path: string; available: string[] }
  | { kind: "refused"; path: string; reason: string }
  | { kind: "unknown-skill"; name: string; closest: string[] };

export interface SearchHit {
  record: SkillRecord;
  score: number;
}

/** Emitted by a watching catalog after each change has been applied (atomic swap). */
export interface CatalogChangeEvent {
  added: string[];
  changed: string[];
  removed: string[];
  diagnostics: Diagnostic[];
}

/** A skill built in code (AgentScope's builder): same record shape as disk skills once in a catalog. */
export interface MemorySkill {
  name: string;
  description: string;
  body: string;
  /** Relative path → content. */
  resources?: Record<string, string | Uint8Array>;
  license?: string;
  compatibility?: string;
  allowedTools?: string[];
  metadata?: Record<string, string>;
  extras?: Record<string, FrontmatterValue>;
}

/** A filesystem root to scan. */
export interface SkillRoot {
  path: string;
  scope: SkillScope;
  /** When true a missing root is silently empty (the default roots); otherwise it is a `path-not-found` diagnostic. Default false. */
  optional?: boolean;
}

export interface CatalogOptions {
  /** Explicit roots. When given they replace the default project/user/SKILLS_DIR roots. */
  roots?: SkillRoot[] | string[];
  /** Base for the default project roots. Default `process.cwd()`. */
  cwd?: string;
  /** Base for the default user roots. Default `os.homedir()`. */
  home?: string;
  /** Environment for `SKILLS_DIR`. Default `process.env`. */
  env?: Record<string, string | undefined>;
  memory?: MemorySkill[];
  /** Default `lenient`. */
  mode?: ParseMode;
  /** Deepest directory level searched below a root. Default 6. */
  maxDepth?: number;
  /** Most directories without a SKILL.md scanned per root. Default 2,000. */
  maxDirs?: number;
  /** Where memory skills rank on a name collision: `last` (default) after every disk skill, `first` before them. */
  memoryPrecedence?: "first" | "last";
  /**
   * Directory of the persistent metadata cache (one file per root and parse mode; see
   * `defaultCacheDir` for the user's). With it, a scan stats each skill folder and SKILL.md instead of
   * listing and reading them when their identity (dev, inode, size, mtime, ctime) is unchanged, and the
   * search index is stored there too. Default: no persistent cache.
   */
  cacheDir?: string;
  /**
   * Most watches `watch()` takes (the roots and, on Linux, every listed folder). Past it, or when the
   * system's watch limit is hit, the catalog polls instead (a stat-only re-scan every `watchPollMs`),
   * reported once as a `watch-polling` warning. Default 4,096.
   */
  maxWatches?: number;
  /** Interval of the polling fallback, in ms. Default 2,000. */
  watchPollMs?: number;
  /** Quiet time before a watched change triggers a re-scan, in ms. Default 75. */
  watchDebounceMs?: number;
  abortSignal?: AbortSignal;
}

/** The catalog: every skill's L1 record, lazy L2/L3, search and watch. */
export interface Catalog {
  /** Visible winners of name collisions, sorted by name. */
  list(): SkillRecord[];
  get(name: string): SkillRecord | undefined;
  /**
   * A number that changes whenever the record set may have (each re-scan): a caller that memoises per
   * catalog state (the session's visible skills, its rendered catalog) checks it instead of comparing
   * every record. Optional for other implementations: without it, callers compare the records.
   */
  revision?(): number;
  /** Discovery diagnostics plus every broken skill's diagnostics. */
  diagnostics(): Diagnostic[];
  /** Reads the body (L2). Throws `SkillNotFoundError` for an unknown name. */
  load(name: string): Promise<LoadedSkill>;
  /** The file index of one skill, SKILL.md first. */
  files(name: string): Promise<SkillFile[]>;
  /** Reads one file, confined to the skill's real directory. */
  readFile(name: string, path: string, range?: LineRange): Promise<ReadFileResult>;
  /**
   * Lexical (BM25) search over name, description and extras such as `when_to_use` and `tags`. The first
   * call builds the index (or loads the stored one) without blocking the event loop for long.
   */
  search(query: string, limit?: number): Promise<SearchHit[]>;
  /** Names closest to `name` (for "not found" messages). */
  closest(name: string, limit?: number): string[];
  /** Re-scans every source. */
  refresh(): Promise<void>;
  /** Starts watching the roots; returns a function that stops it. */
  watch(listener: (event: CatalogChangeEvent) => void): () => void;
}

/** A directory found holding SKILL.md (or skill.md), before parsing. */
export interface DiscoveredSkill {
  /**
   * Absolute real path of the skill directory (symlinks resolved). For a single-file skill
   * (`NAME.skill.md`), the file itself: it has no folder.
   */
  dir: string;
  /**
   * Absolute path of the directory as reached from the root (through links); its basename is the name
   * checked against `name` (for a single-file skill, the file's name without `.skill.md`).
   */
  foundAt: string;
  /** Absolute real path of the skill file (SKILL.md preferred over skill.md). */
  skillFile: string;
  root: string;
  scope: SkillScope;
  /** Depth below the root (0 = the root itself is a skill). */
  depth: number;
}

export interface DiscoverOptions {
  /** Default 6. */
  maxDepth?: number;
  /** Default 2,000 directories without SKILL.md per root. */
  maxDirs?: number;
  abortSignal?: AbortSignal;
}

/** What discovery returns for a set of roots: skill directories in root order, then sorted path order. */
export interface DiscoveryResult {
  skills: DiscoveredSkill[];
  diagnostics: Diagnostic[];
  /** Real paths of every directory listed, roots and skill directories included (what a watcher needs). */
  directories?: string[];
}
