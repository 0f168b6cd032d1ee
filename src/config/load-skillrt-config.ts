/**
 * Reads `~/.skillrt/config.json` and `<cwd>/skillrt.config.json`, validates each against
 * {@link SkillrtConfigFile} and merges them (the project file wins). The one reader of the config file:
 * the model settings, the per-skill environments, the session filters and the execution settings all
 * come from here.
 */
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { SkillrtError } from "../errors/skillrt-error.js";
import { readJsonFile } from "../util/read-json-file.js";
import type { McpServersConfig } from "./mcp-servers-config.js";
import { type IgnoredSetting, restrictConfig } from "./restrict-config.js";
import type {
  DelegationConfigFile,
  ExecConfigFile,
  ModelConfigFile,
  RootConfigEntry,
  SessionConfigFile,
  SkillrtConfigFile,
} from "./skillrt-config.js";
import type { ToolsConfig } from "./tools-config.js";

/** Options of {@link loadSkillrtConfig}. */
export interface LoadSkillrtConfigOptions {
  /** Directory holding `skillrt.config.json`. Default `process.cwd()`. */
  cwd?: string;
  /**
   * Home directory holding `.skillrt/config.json`. Default `os.homedir()`; `null` reads no user file.
   */
  home?: string | null;
  /** Explicit files instead of the two defaults (lowest precedence first); all of them are trusted. */
  files?: string[];
  /**
   * Whether the project's `skillrt.config.json` may act with the user's authority: `true`, or a function
   * of the file, the SHA-256 of its bytes (`sha256:<hex>`) and the files read before it (the user's).
   * Default: it may not — only its describing and narrowing settings apply (see `restrictConfig`), and
   * what was left out is in its source's `ignored`. The user's own file is always trusted.
   */
  trustProject?:
    | boolean
    | ((file: string, digest: string, earlier: readonly ConfigSource[]) => boolean | Promise<boolean>);
}

/** One config file as read. */
export interface ConfigSource {
  file: string;
  /** The settings that apply: the file's, less what its origin may not set when untrusted. */
  config: SkillrtConfigFile;
  /** Whether the file acts with the user's authority (the user's own file, or a trusted project's). */
  trusted: boolean;
  /** `sha256:<hex>` of the file's bytes: what trust of it is bound to. */
  digest: string;
  /** Settings of an untrusted file that were not applied. */
  ignored: IgnoredSetting[];
}

/** The merged configuration. */
export interface SkillrtConfig {
  /** Merged per key (the project file wins). */
  model: ModelConfigFile;
  /** Merged per key; a list in the project file replaces the user file's list. */
  session: SessionConfigFile;
  /** Merged per key; `hostDirs` and `artifactsDir` are absolute (resolved from their file's directory). */
  exec: ExecConfigFile;
  /** Server name → entry; the project file's entry replaces the user file's; a stdio `cwd` is absolute. */
  mcpServers?: McpServersConfig;
  /** Merged per key (the project file wins). */
  tools?: ToolsConfig;
  /** Merged per key, the lowest value of any file (a project file can only tighten the user's). */
  delegation?: DelegationConfigFile;
  /**
   * The `roots` lists as root specs, the project file's first: local paths absolute (from their file's
   * directory), a `{ source, sha256 }` entry as `source#sha256=…`. Unset when no file has `roots`.
   */
  roots?: string[];
  /** The files that exist, lowest precedence first, with their validated content (unmerged). */
  sources: ConfigSource[];
}

async function readSource(
  file: string,
): Promise<{ file: string; config: SkillrtConfigFile; digest: string } | undefined> {
  const read = await readJsonFile(file);
  if (read === undefined) return undefined;
  if ("error" in read) {
    const detail = read.cause instanceof Error ? read.cause.message : String(read.cause);
    throw new SkillrtError({
      code: "config-invalid",
      message:
        read.kind === "read"
          ? `${file}: cannot read: ${detail}`
          : `${file}: invalid JSON: ${detail}. Fix the syntax.`,
      ...(read.kind === "read" ? { cause: read.cause } : {}),
    });
  }
  const { json } = read;
  // The schema (and zod) is loaded only when a config file exists: a command run without one, such as
  // `skillrt run NAME -- true`, does not pay for building it.
  const { SkillrtConfigFile } = await import("./skillrt-config.js");
  const parsed = SkillrtConfigFile.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new SkillrtError({
      code: "config-invalid",
      message: `${file}: invalid configuration (${issues}). Fix the file or remove the offending keys; see the README's Configuration table.`,
    });
  }
  return { file, config: parsed.data, digest: configDigest(read.text) };
}

/** `sha256:<hex>` of a config file's text: what trust of a project's config file is bound to. */
export function configDigest(text: string): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

function absoluteExec(exec: ExecConfigFile | undefined, dir: string): ExecConfigFile {
  if (exec === undefined) return {};
  return {
    ...exec,
    ...(exec.hostDirs === undefined ? {} : { hostDirs: exec.hostDirs.map((d) => path.resolve(dir, d)) }),
    ...(exec.artifactsDir === undefined ? {} : { artifactsDir: path.resolve(dir, exec.artifactsDir) }),
  };
}

/** Each limit of `a` and `b` at the lower of the two (a limit only one of them sets, as set). */
function lowest(a: DelegationConfigFile | undefined, b: DelegationConfigFile): DelegationConfigFile {
  const merged: DelegationConfigFile = { ...a };
  for (const key of ["maxDepth", "maxPerTurn", "concurrency"] as const) {
    const value = b[key];
    if (value === undefined) continue;
    const earlier = merged[key];
    merged[key] = earlier === undefined ? value : Math.min(earlier, value);
  }
  return merged;
}

/** A `roots` entry as one spec string; a local path made absolute from `dir`. */
function rootSpec(entry: RootConfigEntry, dir: string): string {
  const spec =
    typeof entry === "string"
      ? entry
      : `${entry.source}${entry.sha256 === undefined ? "" : `#sha256=${entry.sha256}`}`;
  return /^[a-z][a-z0-9+.-]*:/i.test(spec) ? spec : path.resolve(dir, spec);
}

/**
 * Reads and merges the config files. A missing file is skipped; an unreadable, malformed or invalid one
 * throws `SkillrtError` (`config-invalid`) naming the file and the offending key.
 */
export async function loadSkillrtConfig(options: LoadSkillrtConfigOptions = {}): Promise<SkillrtConfig> {
  const home = options.home === undefined ? os.homedir() : options.home;
  const projectFile = path.resolve(options.cwd ?? process.cwd(), "skillrt.config.json");
  const files = options.files ?? [
    ...(home === null ? [] : [path.join(home, ".skillrt", "config.json")]),
    projectFile,
  ];
  const result: SkillrtConfig = { model: {}, session: {}, exec: {}, sources: [] };
  for (const file of files) {
    const read = await readSource(file);
    if (read === undefined) continue;
    const given = options.trustProject;
    const trusted =
      options.files !== undefined ||
      path.resolve(file) !== projectFile ||
      given === true ||
      (typeof given === "function" && (await given(file, read.digest, result.sources)));
    const restricted = restrictConfig(read.config, trusted, path.dirname(file), result);
    const source: ConfigSource = { ...read, config: restricted.config, trusted, ignored: restricted.ignored };
    result.sources.push(source);
    const { config } = source;
    result.model = { ...result.model, ...config.model };
    result.session = { ...result.session, ...config.session };
    result.exec = { ...result.exec, ...absoluteExec(config.exec, path.dirname(file)) };
    for (const [name, entry] of Object.entries(config.mcpServers ?? {})) {
      result.mcpServers ??= {};
      result.mcpServers[name] =
        "command" in entry && entry.cwd !== undefined
          ? { ...entry, cwd: path.resolve(path.dirname(file), entry.cwd) }
          : entry;
    }
    if (config.tools !== undefined) result.tools = { ...result.tools, ...config.tools };
    if (config.delegation !== undefined) result.delegation = lowest(result.delegation, config.delegation);
    if (config.roots !== undefined)
      result.roots = [
        ...config.roots.map((entry) => rootSpec(entry, path.dirname(file))),
        ...(result.roots ?? []),
      ];
  }
  return result;
}
