/**
 * The Node preset: what a Node process finds, gathered into the parts `createSkillAgent` takes — the
 * config files (`skillrt.config.json` in the cwd, `~/.skillrt/config.json`), the model from flags, env and
 * config, the skill roots (project, user, `SKILLS_DIR`) read through the user's metadata cache and stored
 * search index and token counts, the session store (`--store`, `SKILLRT_STORE_URL`, config `store.url`, else
 * `<cwd>/.skillrt/sessions.db`), the configured `mcpServers`, the executor and the run settings. `ask`,
 * `chat`, `mcp` and `inspect` start here; so can a program, from `skillrt/node`:
 * `createSkillAgent(await fromEnvironment())`. With a store, its `onEvent` records every turn for
 * `skillrt inspect` (`recordTurns`, also exported here for agents composed by hand).
 */
import path from "node:path";
import type { LanguageModel } from "ai";
import { defaultCacheDir } from "../catalog/cache-dir.js";
import { createCatalog } from "../catalog/create-catalog.js";
import { discoverAgents } from "../catalog/discover-agents.js";
import { withMcpSkills } from "../catalog/mcp-source/with-mcp-skills.js";
import type { UntrustedRoot } from "../catalog/recorded-trust.js";
import type { Catalog, SkillRecord, SkillRoot } from "../catalog/types.js";
import { type AgentDefinition, mergeAgents } from "../config/agent-definition.js";
import { loadModelConfig, type ModelFlags } from "../config/load-model-config.js";
import type { SkillrtConfig } from "../config/load-skillrt-config.js";
import type { ModelConfig } from "../config/model-config.js";
import { openTokenCountFile } from "../context/token-count-file.js";
import { createTokenCounter } from "../context/token-counter.js";
import type { DelegationOptions } from "../engine/delegate-to-agent.js";
import type { EngineEventListener } from "../engine/engine-event.js";
import { openToolSources, type ToolSourceOptions, type ToolSources } from "../engine/open-tool-sources.js";
import { resolveModel } from "../engine/resolve-model.js";
import type { RetryNotice } from "../engine/retry-fetch.js";
import { autoSelectModeFrom, maxActiveFrom } from "../engine/select-skills.js";
import type { SkillAgentOptions } from "../engine/skill-agent.js";
import type { ExecutorChoice } from "../exec/create-executor.js";
import type { RunSettings } from "../exec/run-config.js";
import { turnRecorder } from "../inspect/record-turns.js";
import { openSessionStore } from "../store/open-session-store.js";
import type { SessionStore } from "../store/session-store.js";
import { checkCacheDir, untrustedCacheWarning } from "../util/trusted-cache.js";
import { cliHome } from "./cli-home.js";
import { resolveCliRoots } from "./cli-roots.js";
import { skillsLockDiagnostics } from "./cli-skills-lock.js";
import { openCliTrust } from "./cli-trust.js";
import {
  type CliConfig,
  cliExecutorChoice,
  cliProfileSettings,
  cliRunSettings,
  cliSessionSettings,
  loadCliConfig,
  type SessionFlags,
} from "./load-cli-config.js";

/** The plugins the catalog's skills ship in (a plugin's agents are its `agents/*.md`). */
function catalogPlugins(records: readonly SkillRecord[]): { name: string; dir: string }[] {
  const byDir = new Map<string, string>();
  for (const r of records)
    if (r.plugin !== undefined && r.pluginDir !== undefined) byDir.set(r.pluginDir, r.plugin);
  return [...byDir].map(([dir, name]) => ({ name, dir }));
}

/**
 * The subagents of the environment: `agents/*.md` next to each skills root (project before user), each
 * plugin's `agents/*.md` as `plugin:agent`, then the
 * config files' `agents` sections on top (the project file's last, so it wins). Problems are warnings.
 */
async function environmentAgents(
  roots: readonly SkillRoot[],
  config: SkillrtConfig,
  warn: (message: string) => void,
  plugins: { name: string; dir: string }[],
): Promise<Record<string, AgentDefinition>> {
  const found = await discoverAgents(roots, { plugins });
  for (const d of found.diagnostics) warn(`${d.path}: ${d.message}`);
  let agents = found.agents;
  for (const source of config.sources)
    if (source.config.agents !== undefined) agents = mergeAgents(agents, source.config.agents, source.file);
  return agents;
}

/** What to gather, and the command-line flags that override the environment and config. */
export interface FromEnvironmentOptions {
  /** Directory of the project (config file, project roots, default store). Default `process.cwd()`. */
  cwd?: string;
  /** Environment (`HOME`, model variables, `SKILLS_DIR`, `SKILLRT_STORE_URL`, …). Default `process.env`. */
  env?: Record<string, string | undefined>;
  /**
   * Skill roots replacing the default project, user, `SKILLS_DIR` and config roots: folders (relative to
   * `cwd`), archives, `http(s)://` and `git+…` URLs (fetched into the cache; see docs/sources.md).
   */
  roots?: readonly string[] | undefined;
  /** Fetch remote roots again instead of using their cached copies. Default false. */
  refresh?: boolean;
  /**
   * Store URL (`postgres://…`, `sqlite:PATH`) of highest precedence, or `false` for no store. Default:
   * `SKILLRT_STORE_URL`, the config's `store.url`, else `<cwd>/.skillrt/sessions.db`.
   */
  store?: string | false | undefined;
  /** Provider, model, endpoint, context window over the env and config; `false`: no model is resolved. */
  model?: ModelFlags | false;
  /** Called before a provider request is retried. */
  onRetry?: (notice: RetryNotice) => void;
  /** `--executor` (else the config's `exec.executor`, else `auto`), or `false` for no execution. */
  executor?: ExecutorChoice | false | undefined;
  /** `host://` directories when the config names none. Default `[cwd]`. */
  defaultHostDirs?: string[];
  /** `--active`, `--allow`, `--deny` (each replaces the config's list). */
  session?: SessionFlags;
  /**
   * Host tools and MCP servers over the config's `mcpServers` and `tools` (gating, approval mode and
   * allow-list); `false`: no tool sources. The servers start with the agent.
   */
  tools?: ToolSourceOptions | false;
  /** Read the catalog through the user's metadata cache (`SKILLRT_CACHE=0` switches it off). Default true. */
  cache?: boolean;
  /** Receives warnings (an unset `${env:X}`, an MCP server entry problem). */
  onWarning?: (message: string) => void;
  /**
   * Trust every skill root for this run (`--trust`). Default: project-scope and remote roots are trusted
   * as the user's trust file (`skillrt trust`) or `~/.skillrt/config.json`'s `trust` say.
   */
  trust?: boolean;
  /** Asks a person whether to trust an untrusted root the first time it matters (`chat`); a yes is recorded. */
  askTrust?: (root: UntrustedRoot) => Promise<boolean>;
}

/** What the Node process provides, beyond the agent's options. */
export interface NodeParts extends Omit<SkillAgentOptions, "model" | "store"> {
  catalog: Catalog;
  /** The store the preset opened (none with `store: false`). */
  store?: SessionStore;
  /**
   * With a store: the listener recording every turn (the agent's and its subagents') in the store's turn
   * logs for `skillrt inspect`, redacting {@link env}'s secrets. Keep it when you listen too (or use
   * `agent.subscribe`): `onEvent: (e) => { mine(e); return parts.onEvent?.(e); }`.
   */
  onEvent?: EngineEventListener;
  /** The roots the catalog scanned, normalised once (absolute, deduplicated, in precedence order). */
  roots: SkillRoot[];
  cwd: string;
  env: Record<string, string | undefined>;
  /** The config files as read, and the per-skill environments. */
  config: CliConfig;
  executor: ExecutorChoice | false;
  run: RunSettings;
  /** The trusted cache directory the catalog's metadata cache uses (none when the cache is off). */
  cacheDir?: string;
  /** Closes what was opened (the store, the tool sources) when no agent took them over. */
  close(): Promise<void>;
}

/** {@link NodeParts} with a model: spread or pass into `createSkillAgent`, which then owns the store and sources. */
export interface NodeAgentParts extends NodeParts {
  model: LanguageModel;
  modelConfig: ModelConfig;
}

/**
 * Gathers the parts. Throws `SkillrtError` (`config-invalid`) for a bad config file or model setting and
 * (`invalid-argument`) for a store URL of an unknown kind; nothing is left open then.
 */
export async function fromEnvironment(
  options?: FromEnvironmentOptions & { model?: ModelFlags },
): Promise<NodeAgentParts>;
export async function fromEnvironment(options: FromEnvironmentOptions & { model: false }): Promise<NodeParts>;
export async function fromEnvironment(options: FromEnvironmentOptions = {}): Promise<NodeParts> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  const warn = options.onWarning ?? (() => undefined);
  const config = await loadCliConfig({ cwd, env, warn, trustAll: options.trust === true });
  let modelParts: { model: LanguageModel; modelConfig: ModelConfig } | undefined;
  if (options.model !== false) {
    const modelConfig = await loadModelConfig({
      env,
      cwd,
      config: config.file,
      ...(options.model === undefined ? {} : { flags: options.model }),
    });
    const model = resolveModel(modelConfig, {
      ...(options.onRetry === undefined ? {} : { onRetry: options.onRetry }),
      // A fallback provider taking a call is said as a warning (which provider failed, how).
      onFallback: ({ from, to, status }) =>
        warn(
          `${from} failed (${status === undefined ? "no answer" : `HTTP ${status}`}); ${to} takes the call`,
        ),
    });
    modelParts = { model, modelConfig };
  }
  // The config files were read above: their `roots` are not read again.
  const resolved = await resolveCliRoots(
    options.roots,
    { cwd, env },
    options.refresh === true,
    config.file.roots ?? [],
  );
  for (const d of resolved.diagnostics) warn(d.message);
  const { roots } = resolved;
  const { home } = cliHome(env);
  let cacheDir =
    options.cache === false ? undefined : defaultCacheDir(env, ...(home === undefined ? [] : [home]));
  const trust = cacheDir === undefined ? undefined : checkCacheDir(cacheDir);
  if (trust?.ok === false) {
    // Another user could write there: the cache is off (its readers refuse it too), said once.
    warn(untrustedCacheWarning(trust));
    cacheDir = undefined;
  }
  const localCatalog = await createCatalog({
    roots,
    cwd,
    env,
    ...(cacheDir === undefined ? {} : { cacheDir }),
  });
  // Skills that drifted from the project's skills-lock.json (edited after `npx skills add`) are warned about.
  for (const d of await skillsLockDiagnostics(cwd, localCatalog.list(), "warning")) warn(d.message);
  const agents = await environmentAgents(roots, config.file, warn, catalogPlugins(localCatalog.list()));
  const store =
    options.store === false ? undefined : openEnvironmentStore(options.store, env, config.file, cwd);
  const toolSources: ToolSources | undefined =
    options.tools === false
      ? undefined
      : openToolSources(
          { onWarning: warn, ...options.tools },
          { env, cwd, config: config.file, ...(cacheDir === undefined ? {} : { cacheDir }) },
        );
  // Skills the MCP servers serve (SEP-2640) join the catalog once `toolSources.start()` has run.
  const catalog = toolSources === undefined ? localCatalog : withMcpSkills(localCatalog, toolSources.skills);
  const executor = options.executor === false ? false : cliExecutorChoice(config, options.executor);
  const skillTrust = await openCliTrust({
    roots,
    origins: resolved.origins,
    env,
    config: config.file,
    warn,
    ...(options.trust === undefined ? {} : { trustAll: options.trust }),
    ...(options.askTrust === undefined ? {} : { ask: options.askTrust }),
  });
  const profileSettings = cliProfileSettings(config, options.session);
  return {
    ...modelParts,
    catalog,
    roots,
    cwd,
    env,
    config,
    ...(store === undefined ? {} : { store, closeStore: true, onEvent: turnRecorder({ store, env }) }),
    ...workspaceFilesFrom(store === undefined ? undefined : config.file),
    ...(toolSources === undefined ? {} : { toolSources, closeToolSources: true }),
    executor,
    trust: skillTrust,
    ...(config.file.exec.shellPreRender === undefined
      ? {}
      : { shellPreRender: config.file.exec.shellPreRender }),
    ...(Object.keys(agents).length === 0 ? {} : { agents }),
    ...delegationFrom(config.file.delegation),
    run: cliRunSettings(config, { cwd, defaultHostDirs: options.defaultHostDirs ?? [cwd] }),
    ...cliSessionSettings(config, options.session),
    ...(profileSettings === undefined && cacheDir === undefined
      ? {}
      : {
          session: {
            ...profileSettings,
            // Counts of the catalog and prompts the last run rendered are kept in the cache: a warm start
            // counts without loading the tokenizer.
            ...(cacheDir === undefined
              ? {}
              : { tokenCounter: createTokenCounter({ counts: openTokenCountFile(cacheDir, "o200k_base") }) }),
          },
        }),
    ...selectFromEnv(env),
    ...(cacheDir === undefined ? {} : { cacheDir }),
    async close() {
      await toolSources?.close();
      await store?.close();
    },
  };
}

export { type RecordTurnsOptions, recordTurns } from "../inspect/record-turns.js";

/** Where a run's sessions are saved: the URL (and Postgres schema) ask, chat and inspect all use. */
export interface StoreLocation {
  /** Undefined: the project's default `<cwd>/.skillrt/sessions.db`. */
  url: string | undefined;
  /** Postgres schema from the config file. */
  schema: string | undefined;
  /** Directory a relative `sqlite:` path is resolved from (the config file's for a URL it gave). */
  cwd: string;
}

/**
 * `flag` (`--store`), else `SKILLRT_STORE_URL`, else the config's `store.url` (a relative `sqlite:` path from
 * its file's directory), else the project default. The highest-precedence file that sets a store section
 * decides the schema.
 */
export function storeLocation(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  config: SkillrtConfig,
  cwd: string,
): StoreLocation {
  const source = [...config.sources].reverse().find((s) => s.config.store !== undefined);
  const fromFile = source?.config.store;
  const schema = fromFile?.schema;
  const chosen = [flag, env["SKILLRT_STORE_URL"]].find((u) => u !== undefined && u.trim() !== "");
  if (chosen !== undefined) return { url: chosen, schema, cwd };
  const url = fromFile?.url;
  const base = source === undefined ? cwd : path.dirname(source.file);
  return { url, schema, cwd: url?.startsWith("sqlite:") === true ? base : cwd };
}

/** Opens the store {@link storeLocation} names (throws `invalid-argument` for an unknown kind). */
export function openEnvironmentStore(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  config: SkillrtConfig,
  cwd: string,
): SessionStore {
  return openSessionStore(storeLocation(flag, env, config, cwd));
}

/** The `store.files` caps of the highest-precedence file that sets them, as `createSkillAgent`'s option. */
function workspaceFilesFrom(config: SkillrtConfig | undefined): Pick<SkillAgentOptions, "workspaceFiles"> {
  const files = [...(config?.sources ?? [])].reverse().find((s) => s.config.store?.files !== undefined)
    ?.config.store?.files;
  if (files === undefined) return {};
  if (files === false) return { workspaceFiles: false };
  const caps: NonNullable<Exclude<SkillAgentOptions["workspaceFiles"], false>> = {};
  for (const key of ["maxFileBytes", "maxTotalBytes", "maxFiles"] as const) {
    const value = files[key];
    if (value !== undefined) caps[key] = value;
  }
  return { workspaceFiles: caps };
}

/** The config's `delegation` limits as `createSkillAgent`'s option (only the limits a file sets). */
function delegationFrom(section: SkillrtConfig["delegation"]): Pick<SkillAgentOptions, "delegation"> {
  if (section === undefined) return {};
  const delegation: DelegationOptions = {};
  for (const key of ["maxDepth", "maxPerTurn", "concurrency"] as const) {
    const value = section[key];
    if (value !== undefined) delegation[key] = value;
  }
  return { delegation };
}

/** The selection pre-pass the environment asks for (`SKILLS_AUTO_SELECT`, `SKILLS_MAX_ACTIVE`). */
function selectFromEnv(env: Record<string, string | undefined>): Pick<SkillAgentOptions, "select"> {
  const mode = autoSelectModeFrom(env["SKILLS_AUTO_SELECT"]);
  const maxActive = maxActiveFrom(env["SKILLS_MAX_ACTIVE"]);
  // The cap holds with the pre-pass off too (it caps the model's loads).
  if (mode === "off" && maxActive === undefined) return {};
  return { select: { mode, ...(maxActive === undefined ? {} : { maxActive }) } };
}
