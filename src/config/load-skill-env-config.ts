/**
 * Per-skill run environment (secrets) from `skillrt.config.json` in the working directory and
 * `~/.skillrt/config.json`:
 *
 * ```json
 * { "skills": { "weather": { "env": { "API_TOKEN": "${env:MY_TOKEN}" } } } }
 * ```
 *
 * `${env:NAME}` is replaced by the host variable. The project file wins over the user file per
 * variable. Values reach that skill's runs only and are redacted from everything returned to the model.
 * The files are read by `loadSkillrtConfig` (one schema for the whole file).
 */
import {
  type ConfigSource,
  type LoadSkillrtConfigOptions,
  loadSkillrtConfig,
} from "./load-skillrt-config.js";

/** Resolved per-skill environments. */
export interface SkillEnvConfig {
  /** Skill name → variable → value (after `${env:…}` substitution). */
  skills: Record<string, Record<string, string>>;
  /** Config files that were read, in precedence order (user first, project last). */
  files: string[];
  /** E.g. a `${env:X}` whose variable is unset (the variable is then left out). */
  warnings: string[];
}

/** Options of `loadSkillEnvConfig`. */
export interface LoadSkillEnvConfigOptions {
  /** Directory holding `skillrt.config.json`. Default `process.cwd()`. */
  cwd?: string;
  /** Home directory holding `.skillrt/config.json`. Default `os.homedir()`. */
  home?: string;
  /** Config files already read (e.g. `loadSkillrtConfig().sources`); then no file is read. */
  sources?: ConfigSource[];
  /** Variables for `${env:…}`. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Explicit files instead of the two defaults (lowest precedence first). */
  files?: string[];
  /**
   * Whether the project's file may name host variables (`${env:X}`); default not: an untrusted project's
   * `${env:…}` values are left out (see `loadSkillrtConfig`).
   */
  trustProject?: LoadSkillrtConfigOptions["trustProject"];
}

/** Reads and merges the config files. Throws `SkillrtError` (`config-invalid`) naming the file and field. */
export async function loadSkillEnvConfig(options: LoadSkillEnvConfigOptions = {}): Promise<SkillEnvConfig> {
  const sources =
    options.sources ??
    (
      await loadSkillrtConfig({
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        ...(options.home === undefined ? {} : { home: options.home }),
        ...(options.files === undefined ? {} : { files: options.files }),
        ...(options.trustProject === undefined ? {} : { trustProject: options.trustProject }),
      })
    ).sources;
  return resolveSkillEnv(sources, options.env ?? process.env);
}

/**
 * The per-skill environments of already-read config files (lowest precedence first): `${env:NAME}` is
 * replaced by `env.NAME`; a variable whose host variable is unset is left out with a warning.
 */
export function resolveSkillEnv(
  sources: readonly ConfigSource[],
  env: Record<string, string | undefined>,
): SkillEnvConfig {
  const result: SkillEnvConfig = { skills: {}, files: [], warnings: [] };
  for (const { file, config } of sources) {
    result.files.push(file);
    for (const [skill, entry] of Object.entries(config.skills ?? {})) {
      const target = result.skills[skill] ?? {};
      result.skills[skill] = target;
      for (const [name, raw] of Object.entries(entry.env ?? {})) {
        let missing: string | undefined;
        const value = raw.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, host: string) => {
          const v = env[host];
          if (v === undefined) missing = host;
          return v ?? "";
        });
        if (missing !== undefined) {
          result.warnings.push(
            `${file}: skills.${skill}.env.${name} uses \${env:${missing}}, which is not set; left out`,
          );
          delete target[name];
          continue;
        }
        target[name] = value;
      }
    }
  }
  return result;
}
