/**
 * Requirements a skill declares and whether this machine meets them (AWorld/OpenClaw shape):
 *
 * ```yaml
 * metadata:
 *   openclaw:            # any key: every `metadata.<key>.requires` counts
 *     always: true       # eligible whatever is missing (the report still lists it)
 *     requires: { bins: [git], anyBins: [rg, grep], env: [FOO_TOKEN], config: [~/.foorc] }
 * required_environment_variables: [FOO_TOKEN]   # or a map name → description
 * ```
 *
 * Records keep `metadata` as strings (nested maps become their repr), so when a record hints at a
 * declaration its SKILL.md frontmatter is parsed again; a record without one costs a string scan. The
 * result carries names only, never a variable's value.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseSkillMd } from "../spec/parse-skill-md.js";
import type { FrontmatterValue } from "../spec/types.js";
import { MAX_SKILL_FILE_BYTES } from "./read-skill-head.js";
import { parseBoolean } from "./skill-flags.js";
import type { SkillRecord } from "./types.js";

/** What a skill declares it needs. */
export interface SkillRequirementDeclarations {
  bins: string[];
  anyBins: string[];
  env: string[];
  config: string[];
  always: boolean;
}

/** Names of what is missing, by kind. `anyBins` lists the candidates when none of them is on PATH. */
export interface MissingRequirements {
  bins: string[];
  anyBins: string[];
  env: string[];
  config: string[];
}

/** Outcome of {@link evaluateSkillRequirements}. */
export interface SkillRequirements {
  /** True when nothing is missing, or the skill declares `always: true`. */
  eligible: boolean;
  missing: MissingRequirements;
}

/** What requirements are checked against. */
export interface RequirementsEnvironment {
  /** Host variables. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** The skill's env from config (`skills.<name>.env`): a variable set there counts as set. */
  skillEnv?: Record<string, string>;
  /** Whether a binary is on PATH. Default {@link isOnPath} against `env.PATH`. */
  hasBin?: (name: string) => boolean;
  /** Home for `~/` in `config` paths. Default `os.homedir()`. */
  home?: string;
}

/**
 * The declarations of one record: `undefined` when it declares none (the common case, decided without
 * reading the file). Memory skills read JSON-valued `metadata` entries only.
 */
export function readSkillRequirementDeclarations(
  record: SkillRecord,
): SkillRequirementDeclarations | undefined {
  const hinted =
    record.extras["required_environment_variables"] !== undefined ||
    Object.values(record.metadata ?? {}).some((v) => v.includes("requires") || v.includes("always"));
  if (!hinted) return undefined;
  const frontmatter = readFrontmatter(record);
  if (frontmatter !== undefined) return requirementDeclarationsOf(frontmatter);
  // A memory skill (or an unreadable file): what the record kept.
  return requirementDeclarationsOf({ metadata: { ...record.metadata }, ...record.extras });
}

/** The declarations of a parsed frontmatter mapping; `undefined` when it declares none. */
export function requirementDeclarationsOf(
  frontmatter: Record<string, FrontmatterValue>,
): SkillRequirementDeclarations | undefined {
  const decl: SkillRequirementDeclarations = { bins: [], anyBins: [], env: [], config: [], always: false };
  const metadata = frontmatter["metadata"];
  if (isMap(metadata)) for (const entry of Object.values(metadata)) addMetadataEntry(decl, entry);
  const required = frontmatter["required_environment_variables"];
  if (Array.isArray(required)) decl.env.push(...names(required));
  else if (isMap(required)) decl.env.push(...Object.keys(required));
  else if (typeof required === "string") decl.env.push(...names([required]));
  for (const key of ["bins", "anyBins", "env", "config"] as const) decl[key] = [...new Set(decl[key])];
  const declared = decl.bins.length + decl.anyBins.length + decl.env.length + decl.config.length > 0;
  return declared || decl.always ? decl : undefined;
}

/** Checks declarations against the environment. A variable counts as set when non-empty. */
export function checkSkillRequirements(
  decl: SkillRequirementDeclarations,
  environment: RequirementsEnvironment = {},
): SkillRequirements {
  const env = environment.env ?? process.env;
  const hasBin = environment.hasBin ?? ((name: string) => isOnPath(name, env["PATH"]));
  const home = environment.home ?? os.homedir();
  const isSet = (name: string) => (environment.skillEnv?.[name] ?? env[name] ?? "") !== "";
  const missing: MissingRequirements = {
    bins: decl.bins.filter((b) => !hasBin(b)),
    anyBins: decl.anyBins.length > 0 && !decl.anyBins.some(hasBin) ? [...decl.anyBins] : [],
    env: decl.env.filter((n) => !isSet(n)),
    config: decl.config.filter((p) => !fs.existsSync(p.startsWith("~/") ? path.join(home, p.slice(2)) : p)),
  };
  const nothingMissing =
    missing.bins.length + missing.anyBins.length + missing.env.length + missing.config.length === 0;
  return { eligible: decl.always || nothingMissing, missing };
}

/** {@link readSkillRequirementDeclarations} then {@link checkSkillRequirements}; `undefined` when none. */
export function evaluateSkillRequirements(
  record: SkillRecord,
  environment: RequirementsEnvironment = {},
): SkillRequirements | undefined {
  const decl = readSkillRequirementDeclarations(record);
  return decl === undefined ? undefined : checkSkillRequirements(decl, environment);
}

/** `env FOO_TOKEN, bin foo, one of bins a|b, config ~/.x`; empty when nothing is missing. */
export function describeMissingRequirements(missing: MissingRequirements): string {
  return [
    ...missing.env.map((n) => `env ${n}`),
    ...missing.bins.map((n) => `bin ${n}`),
    ...(missing.anyBins.length > 0 ? [`one of bins ${missing.anyBins.join("|")}`] : []),
    ...missing.config.map((p) => `config ${p}`),
  ].join(", ");
}

const pathCache = new Map<string, boolean>();

/** Whether an executable `name` is in a directory of `pathVar`; cached per process by (PATH, name). */
export function isOnPath(name: string, pathVar: string | undefined): boolean {
  const key = `${pathVar ?? ""}\0${name}`;
  const cached = pathCache.get(key);
  if (cached !== undefined) return cached;
  let found = false;
  if (!name.includes("/") && name !== "") {
    for (const dir of (pathVar ?? "").split(path.delimiter)) {
      if (dir === "") continue;
      try {
        fs.accessSync(path.join(dir, name), fs.constants.X_OK);
        found = fs.statSync(path.join(dir, name)).isFile();
      } catch {
        found = false;
      }
      if (found) break;
    }
  }
  pathCache.set(key, found);
  return found;
}

function readFrontmatter(record: SkillRecord): Record<string, FrontmatterValue> | undefined {
  if (record.location.startsWith("memory:")) return undefined;
  try {
    if (fs.statSync(record.location).size > MAX_SKILL_FILE_BYTES) return undefined;
    const parsed = parseSkillMd(fs.readFileSync(record.location), { headOnly: true });
    return parsed.skill?.frontmatter;
  } catch {
    return undefined;
  }
}

/** One `metadata.<key>` value: a map, or a JSON string of one (AWorld allows both). */
function addMetadataEntry(decl: SkillRequirementDeclarations, entry: unknown): void {
  let value: unknown = entry;
  if (typeof entry === "string") {
    try {
      value = JSON.parse(entry);
    } catch {
      return;
    }
  }
  if (!isMap(value)) return;
  if (parseBoolean(toFrontmatter(value["always"])) === true) decl.always = true;
  const requires = value["requires"];
  if (!isMap(requires)) return;
  for (const key of ["bins", "anyBins", "env", "config"] as const) {
    const list = requires[key];
    if (Array.isArray(list)) decl[key].push(...names(list));
    else if (typeof list === "string") decl[key].push(...names([list]));
  }
}

function toFrontmatter(value: unknown): FrontmatterValue | undefined {
  if (typeof value === "boolean" || typeof value === "number") return String(value);
  return typeof value === "string" ? value : undefined;
}

function names(list: readonly unknown[]): string[] {
  return list.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim());
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
