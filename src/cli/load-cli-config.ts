/**
 * The configuration of one CLI run: `skillrt.config.json` in the run's cwd and `~/.skillrt/config.json`
 * (read once, through `loadSkillrtConfig`), combined with the command-line flags.
 */
import os from "node:os";
import path from "node:path";
import { resolveSkillEnv } from "../config/load-skill-env-config.js";
import { type ConfigSource, loadSkillrtConfig, type SkillrtConfig } from "../config/load-skillrt-config.js";
import { createFsArtifactStore } from "../exec/artifact-store.js";
import type { ExecutorChoice } from "../exec/create-executor.js";
import type { RunPolicy, RunSettings } from "../exec/run-config.js";
import { refusedBecause } from "../trust/trust-action.js";
import { cliHome } from "./cli-home.js";

/** Where a CLI run reads its configuration and how it reports warnings. */
export interface CliConfigOptions {
  /** Directory holding `skillrt.config.json`; also the default host directory and artifact location. */
  cwd: string;
  /** The run's environment: `HOME` locates `~/.skillrt/config.json`; `${env:…}` values come from here. */
  env: Record<string, string | undefined>;
  /** Receives each warning (e.g. a `${env:X}` whose variable is unset). */
  warn: (message: string) => void;
  /** `--trust`: the project's config file is trusted for this run, like its roots. */
  trustAll?: boolean;
}

/** Session settings from the `session` section and the `--active`/`--allow`/`--deny` flags. */
export interface CliSessionSettings {
  activeSkills?: string[];
  /** `--skill NAME`: skills forced for the task (see `SkillLayerOptions.forcedSkills`). */
  forcedSkills?: string[];
  allow?: string[];
  deny?: string[];
}

/** Profile settings of a CLI session, from flags or the `session` section. */
export interface CliProfileSettings {
  loadMode?: "session" | "turn" | "once";
  maxOverviewSkills?: number;
  maxLoadedSkills?: number;
  skillTools?: string[];
  /** `""`: no preamble (trpc: no guidance blocks). */
  preamble?: string;
}

/** A CLI run's configuration. */
export interface CliConfig {
  /** The merged file contents (pass as `loadModelConfig({ config })`). */
  file: SkillrtConfig;
  /** Per-skill environments (secrets), `${env:…}` resolved. */
  skillEnv: Record<string, Record<string, string>>;
}

/**
 * Reads the config files once. An unset or empty `HOME` means `os.homedir()`. Throws `SkillrtError`
 * (`config-invalid`) naming the file and key when a file is invalid.
 */
export async function loadCliConfig(options: CliConfigOptions): Promise<CliConfig> {
  const { home } = cliHome(options.env);
  const file = await loadSkillrtConfig({
    cwd: options.cwd,
    ...(home === undefined ? {} : { home }),
    trustProject:
      options.trustAll === true ||
      ((config, digest, earlier) =>
        projectConfigTrusted(config, digest, earlier, options.env, home, options.warn)),
  });
  for (const source of file.sources) warnIgnored(source, options.warn);
  const env = resolveSkillEnv(file.sources, options.env);
  for (const warning of env.warnings) options.warn(warning);
  return { file, skillEnv: env.skills };
}

/** The origin a project's config file is trusted as: the file itself, bound to the digest of its bytes. */
export function configOrigin(file: string): { kind: "config"; id: string } {
  return { kind: "config", id: path.resolve(file) };
}

/**
 * Whether the user trusted the project config `file` now digesting to `digest`: `skillrt trust` recorded it
 * with that digest, or the user's own config trusts everything (`"trust": true`) or names its folder.
 */
async function projectConfigTrusted(
  file: string,
  digest: string,
  earlier: readonly ConfigSource[],
  env: Record<string, string | undefined>,
  home: string | undefined,
  warn: (message: string) => void,
): Promise<boolean> {
  const dir = path.dirname(path.resolve(file));
  for (const source of earlier) {
    const trust = source.config.trust;
    if (trust === true) return true;
    if (Array.isArray(trust) && trust.some((entry) => path.resolve(path.dirname(source.file), entry) === dir))
      return true;
  }
  // Loaded only when the project has a config file (the trust records' schema needs zod).
  const [{ isTrusted, trustRecordOf }, { defaultStateDir, readTrustFile }] = await Promise.all([
    import("../catalog/is-trusted.js"),
    import("../catalog/trust-file.js"),
  ]);
  const stateDir = defaultStateDir(env, home ?? os.homedir());
  if (stateDir === undefined) return false;
  const trust = readTrustFile(stateDir);
  if (trust.problem !== undefined) warn(trust.problem);
  if (isTrusted(configOrigin(file), digest, trust.records)) return true;
  // Trust lapses on any edit, the user's own too: said, so it never lapses silently.
  if (trustRecordOf(configOrigin(file), trust.records) !== undefined)
    warn(`${file} changed since you trusted it (skillrt trust --list shows it as changed).`);
  return false;
}

/**
 * Says which settings of an untrusted config file were not applied, and how to trust it (a command reads its
 * config once, so once per run).
 */
function warnIgnored(source: ConfigSource, warn: (message: string) => void): void {
  if (source.ignored.length === 0) return;
  const list = source.ignored.map((s) => `${s.key} (${refusedBecause(s.action)})`).join(", ");
  warn(
    `${source.file} is not trusted, so these settings were ignored: ${list}. Review the file, then trust ` +
      `it with \`skillrt trust ${path.dirname(source.file)}\` (or run with --trust).`,
  );
}

/** Command-line lists that replace the config's list of the same name when given. */
export interface SessionFlags {
  active?: string[] | undefined;
  /** `--skill NAME`: forced skills (no config counterpart). */
  skill?: string[] | undefined;
  allow?: string[] | undefined;
  deny?: string[] | undefined;
  /** `--load-mode`, `--max-overview-skills`, `--max-loaded-skills`, `--skill-tools`, `--no-preamble` (checked). */
  loadMode?: "session" | "turn" | "once" | undefined;
  maxOverviewSkills?: number | undefined;
  maxLoadedSkills?: number | undefined;
  skillTools?: string[] | undefined;
  noPreamble?: boolean | undefined;
}

/**
 * `activeSkills`, `allow`, `deny` for `createSkillSession`: each from its flag when given (the flag's list
 * replaces the config's), else from the `session` section; absent or empty lists are left out.
 */
export function cliSessionSettings(config: CliConfig, flags: SessionFlags = {}): CliSessionSettings {
  const { session } = config.file;
  const pick = (flag: string[] | undefined, file: string[] | undefined): string[] | undefined => {
    const list = flag !== undefined && flag.length > 0 ? flag : file;
    return list !== undefined && list.length > 0 ? list : undefined;
  };
  const activeSkills = pick(flags.active, session.activeSkills);
  const allow = pick(flags.allow, session.allow);
  const deny = pick(flags.deny, session.deny);
  const forcedSkills = pick(flags.skill, undefined);
  return {
    ...(activeSkills === undefined ? {} : { activeSkills }),
    ...(forcedSkills === undefined ? {} : { forcedSkills }),
    ...(allow === undefined ? {} : { allow }),
    ...(deny === undefined ? {} : { deny }),
  };
}

/**
 * The session's profile settings (`loadMode`, `maxOverviewSkills`, `maxLoadedSkills`, `skillTools`, the
 * preamble switch) for `createSkillAgent({ session })`: each from its flag when given, else from the
 * `session` section; undefined when none is set.
 */
export function cliProfileSettings(
  config: CliConfig,
  flags: SessionFlags = {},
): CliProfileSettings | undefined {
  const { session } = config.file;
  const loadMode = flags.loadMode ?? session.loadMode;
  const maxOverviewSkills = flags.maxOverviewSkills ?? session.maxOverviewSkills;
  const maxLoadedSkills = flags.maxLoadedSkills ?? session.maxLoadedSkills;
  const skillTools = flags.skillTools ?? session.skillTools;
  const noPreamble = flags.noPreamble === true || session.preamble === false;
  const profileSettings: CliProfileSettings = {
    ...(loadMode === undefined ? {} : { loadMode }),
    ...(maxOverviewSkills === undefined ? {} : { maxOverviewSkills }),
    ...(maxLoadedSkills === undefined ? {} : { maxLoadedSkills }),
    ...(skillTools === undefined ? {} : { skillTools }),
    ...(noPreamble ? { preamble: "" } : {}),
  };
  return Object.keys(profileSettings).length === 0 ? undefined : profileSettings;
}

/** The executor: the `--executor` flag (already validated), else `exec.executor`, else `auto`. */
export function cliExecutorChoice(config: CliConfig, flag: ExecutorChoice | undefined): ExecutorChoice {
  return flag ?? config.file.exec.executor ?? "auto";
}

/** Default directory of the artifact store of a CLI run: `.skillrt/artifacts` under the cwd. */
export function defaultArtifactsDir(cwd: string): string {
  return path.join(cwd, ".skillrt", "artifacts");
}

/**
 * The run settings of a CLI command from the `exec` section: in the environment, the per-skill
 * environments, the `host://` directories (`exec.hostDirs`, else `defaultHostDirs`) and a versioned
 * filesystem artifact store (`exec.artifactsDir`, default `<cwd>/.skillrt/artifacts`; created on the first
 * save); in the policy (left out when the section sets none), the command lists
 * (`allowCommands`/`denyCommands`), `requireLoaded` and `timeoutSeconds`.
 */
export function cliRunSettings(
  config: CliConfig,
  options: { cwd: string; defaultHostDirs: string[] },
): RunSettings {
  const { exec } = config.file;
  const policy: RunPolicy = {
    ...(exec.allowCommands === undefined ? {} : { allow: exec.allowCommands }),
    ...(exec.denyCommands === undefined ? {} : { deny: exec.denyCommands }),
    ...(exec.requireLoaded === undefined ? {} : { requireLoaded: exec.requireLoaded }),
    ...(exec.timeoutSeconds === undefined ? {} : { defaultTimeoutSeconds: exec.timeoutSeconds }),
  };
  return {
    environment: {
      skillEnv: config.skillEnv,
      hostDirs: exec.hostDirs ?? options.defaultHostDirs,
      artifactStore: createFsArtifactStore(exec.artifactsDir ?? defaultArtifactsDir(options.cwd)),
    },
    ...(Object.keys(policy).length === 0 ? {} : { policy }),
  };
}
