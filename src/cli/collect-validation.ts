import path from "node:path";
import { discoverSkills } from "../catalog/discover-skills.js";
import type { SkillRoot } from "../catalog/types.js";
import type { SkillDirValidation } from "../catalog/validate-skill-dir.js";
import type { Diagnostic, ParseMode } from "../spec/types.js";
import { resolveSkillPath } from "./resolve-skill-path.js";

/** Validates one skill directory; may be sync or async. */
export type ValidateSkillDirFn = (
  dir: string,
  options: { mode: ParseMode },
) => SkillDirValidation | Promise<SkillDirValidation>;

/** One entry of `skillrt validate --json`: a skill directory, or a PATH that held none. */
export interface ValidationEntry {
  /** The skill directory (absolute, as reached), or the PATH given. */
  path: string;
  /** The skill's name when it could be read, else `null`. */
  name: string | null;
  /** No `error` diagnostics. */
  valid: boolean;
  diagnostics: Diagnostic[];
}

/** What `skillrt validate` reports. */
export interface ValidationReport {
  skills: ValidationEntry[];
  /** Discovery problems (not tied to one skill). */
  diagnostics: Diagnostic[];
}

/** Where the skills to validate are: explicit PATHs, or roots. */
export type ValidationTarget =
  | { kind: "paths"; paths: string[]; cwd: string }
  | { kind: "roots"; roots: SkillRoot[] };

/** Options of {@link collectValidation}. */
export interface CollectValidationOptions {
  mode: ParseMode;
  validate: ValidateSkillDirFn;
  /** Called after each skill directory is validated (for a progress indicator). */
  onProgress?: (done: number, total: number) => void;
}

type Job = { kind: "dir"; dir: string } | { kind: "entry"; entry: ValidationEntry };

/**
 * Validates every skill a `validate` invocation names. Each PATH is a skill directory, a SKILL.md /
 * skill.md file (its parent), or a root searched with `discoverSkills`. Problems with a PATH itself are
 * entries, never exceptions: `path-not-found`, `not-a-directory` (another file), `skill-file-missing`
 * (nothing at or below it). A validator that throws becomes a `file-unreadable` error.
 */
export async function collectValidation(
  target: ValidationTarget,
  options: CollectValidationOptions,
): Promise<ValidationReport> {
  const diagnostics: Diagnostic[] = [];
  const jobs: Job[] = [];
  if (target.kind === "roots") {
    const found = await discoverSkills(target.roots);
    diagnostics.push(...found.diagnostics);
    for (const skill of found.skills) jobs.push({ kind: "dir", dir: skill.foundAt });
  } else {
    for (const given of target.paths) {
      const abs = path.resolve(target.cwd, given);
      // `a/SKILL.md/..` goes through a file: the reference's stat fails (does not exist), while
      // path.resolve would fold the `..` away. Check the path as given first.
      const asGiven = path.isAbsolute(given) ? given : `${target.cwd}/${given}`;
      const checked = asGiven === abs ? undefined : resolveSkillPath(asGiven, given);
      if (checked?.kind === "problem") jobs.push(problem(abs, checked.code, checked.message));
      else jobs.push(...(await jobsForPath(abs, diagnostics)));
    }
  }
  const total = jobs.filter((job) => job.kind === "dir").length;
  const skills: ValidationEntry[] = [];
  let done = 0;
  for (const job of jobs) {
    if (job.kind === "entry") {
      skills.push(job.entry);
      continue;
    }
    skills.push(await validateOne(job.dir, options));
    done++;
    options.onProgress?.(done, total);
  }
  return { skills, diagnostics };
}

async function jobsForPath(abs: string, diagnostics: Diagnostic[]): Promise<Job[]> {
  const target = resolveSkillPath(abs);
  if (target.kind === "problem") return [problem(abs, target.code, target.message)];
  if (target.skillFile !== undefined) return [{ kind: "dir", dir: target.dir }];
  const found = await discoverSkills([{ path: abs, scope: "root" }]);
  diagnostics.push(...found.diagnostics);
  if (found.skills.length === 0) {
    return [problem(abs, "skill-file-missing", `Missing required file: SKILL.md (none at or below ${abs})`)];
  }
  return found.skills.map((skill) => ({ kind: "dir", dir: skill.foundAt }));
}

async function validateOne(dir: string, options: CollectValidationOptions): Promise<ValidationEntry> {
  try {
    const result = await options.validate(dir, { mode: options.mode });
    return {
      path: dir,
      name: result.skill?.name ?? null,
      valid: !result.diagnostics.some((d) => d.severity === "error"),
      diagnostics: result.diagnostics,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return problem(dir, "file-unreadable", `Cannot read skill at ${dir}: ${message}`).entry;
  }
}

function problem(
  target: string,
  code: Diagnostic["code"],
  message: string,
): { kind: "entry"; entry: ValidationEntry } {
  return {
    kind: "entry",
    entry: {
      path: target,
      name: null,
      valid: false,
      diagnostics: [{ code, severity: "error", message, path: target }],
    },
  };
}
