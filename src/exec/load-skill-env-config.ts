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
 * Other top-level keys are left to other parts of skillrt.
 */
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { SkillrtError } from "../errors/skillrt-error.js";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const BLOCKED = /^(LD_.*|DYLD_.*|OPENSSL_CONF|BASH_ENV|ENV|PATH|IFS|BASH_FUNC_.*)$/;

/** The part of the config file this loader reads. */
export const SkillEnvConfigFile = z.looseObject({
  skills: z
    .record(
      z.string(),
      z.looseObject({
        env: z
          .record(
            z
              .string()
              .regex(ENV_NAME, "must be a valid environment variable name")
              .refine((n) => !BLOCKED.test(n), "is not allowed (it could change how programs load)"),
            z.string(),
          )
          .optional(),
      }),
    )
    .optional(),
});
export type SkillEnvConfigFile = z.infer<typeof SkillEnvConfigFile>;

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
  /** Variables for `${env:…}`. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Explicit files instead of the two defaults (lowest precedence first). */
  files?: string[];
}

async function readConfig(file: string): Promise<SkillEnvConfigFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new SkillrtError({
      code: "config-invalid",
      message: `${file}: cannot read: ${String(error)}`,
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new SkillrtError({
      code: "config-invalid",
      message: `${file}: invalid JSON: ${detail}. Fix the syntax.`,
    });
  }
  const parsed = SkillEnvConfigFile.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new SkillrtError({
      code: "config-invalid",
      message: `${file}: invalid skill configuration: ${issues}. Expected { "skills": { "<name>": { "env": { "VAR": "value or \${env:HOST_VAR}" } } } }.`,
    });
  }
  return parsed.data;
}

/** Reads and merges the config files. Throws `SkillrtError` (`config-invalid`) naming the file and field. */
export async function loadSkillEnvConfig(options: LoadSkillEnvConfigOptions = {}): Promise<SkillEnvConfig> {
  const env = options.env ?? process.env;
  const files = options.files ?? [
    path.join(options.home ?? os.homedir(), ".skillrt", "config.json"),
    path.join(options.cwd ?? process.cwd(), "skillrt.config.json"),
  ];
  const result: SkillEnvConfig = { skills: {}, files: [], warnings: [] };
  for (const file of files) {
    const config = await readConfig(file);
    if (config === undefined) continue;
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
