/**
 * A per-session, disposable workspace:
 *
 * ```
 * <base>/skillrt-ws-<id>/
 *   skills/<name>/   staged skill view: one symlink per top-level entry of the real skill directory,
 *                    plus out → ../../out, work → ../../work, inputs → ../../work/inputs
 *   work/ work/inputs/   scratch space and staged inputs
 *   out/             outputs to collect
 *   runs/run_<ts>/   one directory per run (RUN_DIR)
 *   home/            HOME of every run;  tmp/  TMPDIR of local runs
 * ```
 *
 * Skills are never copied. In the sandbox the real skill directory is mounted read-only at its own path
 * (so the view's links resolve) and `skills/` itself is read-only; the rest of the workspace is writable.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readdir, realpath, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SkillRecord } from "../catalog/types.js";
import { confinedRealpath, normalizeWorkspacePath } from "./confine.js";
import type { ExecMount } from "./executor.js";

/** Options of `createWorkspace`. */
export interface WorkspaceOptions {
  /** Parent directory. Default `os.tmpdir()`. */
  baseDir?: string;
  /** Identifier in the directory name (sanitised). Default: 12 random hex characters. */
  id?: string;
}

/** A skill staged into a workspace. */
export interface StagedSkill {
  name: string;
  /** The skill's real directory (mounted read-only in the sandbox). */
  realDir: string;
  /** `skills/<name>` inside the workspace: the default cwd. */
  viewDir: string;
  /** Top-level entries of the real skill hidden by the convenience links (`out`, `work`, `inputs`). */
  shadowed: string[];
}

/** The per-session workspace. */
export interface Workspace {
  readonly id: string;
  /** Absolute real path of the workspace root. */
  readonly root: string;
  readonly skillsDir: string;
  readonly workDir: string;
  readonly inputsDir: string;
  readonly outDir: string;
  readonly runsDir: string;
  readonly homeDir: string;
  readonly tmpDir: string;
  /** Stages (or re-uses) the view of a skill; re-links when the skill's top-level entries changed. */
  stageSkill(record: Pick<SkillRecord, "name" | "dir">): Promise<StagedSkill>;
  /** Creates `runs/run_<YYYYMMDDTHHMMSS.mmm>[_n]` and returns its absolute path. */
  createRunDir(): Promise<string>;
  /** `WORKSPACE_DIR`, `SKILLS_DIR`, `WORK_DIR`, `OUTPUT_DIR`, `RUN_DIR`, `SKILL_NAME`, `HOME`. */
  runEnv(staged: StagedSkill, runDir: string): Record<string, string>;
  /**
   * Resolves a cwd for a run: default the skill view; relative paths are joined under it; `$WORK_DIR/…`
   * style and absolute paths are accepted inside `work/`, `out/`, `runs/` and `home/`. Returns an error
   * message when the resolved real path leaves the skill and those directories, or does not exist.
   */
  resolveCwd(staged: StagedSkill, cwd?: string): Promise<{ cwd: string } | { error: string }>;
  /** Mounts a sandbox needs for a run of `staged`: the workspace read-write, `skills/` and the skill read-only. */
  mounts(staged: StagedSkill): ExecMount[];
  /** Deletes the workspace. */
  dispose(): Promise<void>;
}

const LINKS: Record<string, string> = { out: "../../out", work: "../../work", inputs: "../../work/inputs" };

function sanitize(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9._-]/g, "_");
  return clean === "." || clean === ".." || clean === "" ? `_${clean}` : clean;
}

function timestamp(date: Date): string {
  const p = (n: number, w = 2): string => String(n).padStart(w, "0");
  return (
    `${date.getUTCFullYear()}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}T` +
    `${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}.${p(date.getUTCMilliseconds(), 3)}`
  );
}

/** Creates a workspace directory with its layout. */
export async function createWorkspace(options: WorkspaceOptions = {}): Promise<Workspace> {
  const id = sanitize(options.id ?? randomBytes(6).toString("hex"));
  const base = await realpath(options.baseDir ?? os.tmpdir());
  const root = path.join(base, `skillrt-ws-${id}`);
  await mkdir(root, { recursive: true, mode: 0o700 });
  const dirs = {
    skillsDir: path.join(root, "skills"),
    workDir: path.join(root, "work"),
    inputsDir: path.join(root, "work", "inputs"),
    outDir: path.join(root, "out"),
    runsDir: path.join(root, "runs"),
    homeDir: path.join(root, "home"),
    tmpDir: path.join(root, "tmp"),
  };
  for (const dir of Object.values(dirs)) await mkdir(dir, { recursive: true });
  const staged = new Map<string, StagedSkill & { entries: string }>();
  let lastStamp = "";
  let sameStampCount = 0;

  async function stageSkill(record: Pick<SkillRecord, "name" | "dir">): Promise<StagedSkill> {
    if (record.dir.startsWith("memory:")) {
      throw new Error(`skill '${record.name}' is built in code and has no directory on disk to run in`);
    }
    const realDir = await realpath(record.dir);
    const entries = (await readdir(realDir)).sort();
    const key = entries.join("\0");
    const cached = staged.get(record.name);
    if (cached !== undefined && cached.realDir === realDir && cached.entries === key) return cached;
    const viewDir = path.join(dirs.skillsDir, sanitize(record.name));
    await rm(viewDir, { recursive: true, force: true }); // removes links only, never their targets
    await mkdir(viewDir, { recursive: true });
    const shadowed: string[] = [];
    for (const entry of entries) {
      if (entry in LINKS) shadowed.push(entry);
      else await symlink(path.join(realDir, entry), path.join(viewDir, entry));
    }
    for (const [link, target] of Object.entries(LINKS)) await symlink(target, path.join(viewDir, link));
    const result = { name: record.name, realDir, viewDir, shadowed, entries: key };
    staged.set(record.name, result);
    return result;
  }

  return {
    id,
    root,
    ...dirs,
    stageSkill,
    async createRunDir() {
      const stamp = timestamp(new Date());
      sameStampCount = stamp === lastStamp ? sameStampCount + 1 : 0;
      lastStamp = stamp;
      const dir = path.join(dirs.runsDir, `run_${stamp}${sameStampCount > 0 ? `_${sameStampCount}` : ""}`);
      await mkdir(dir, { recursive: true });
      return dir;
    },
    runEnv(skill, runDir) {
      return {
        WORKSPACE_DIR: root,
        SKILLS_DIR: dirs.skillsDir,
        WORK_DIR: dirs.workDir,
        OUTPUT_DIR: dirs.outDir,
        RUN_DIR: runDir,
        SKILL_NAME: skill.name,
        HOME: dirs.homeDir,
      };
    },
    async resolveCwd(skill, cwd) {
      if (cwd === undefined || cwd === "" || cwd === ".") return { cwd: skill.viewDir };
      const normalized = normalizeWorkspacePath(cwd);
      const candidate = path.isAbsolute(normalized)
        ? normalized
        : normalized !== cwd.replace(/\\/g, "/")
          ? path.join(root, normalized)
          : path.join(skill.viewDir, normalized);
      // The skill (view and real directory) and the writable workspace areas; never another skill's view.
      const allowed = [skill.viewDir, skill.realDir, dirs.workDir, dirs.outDir, dirs.runsDir, dirs.homeDir];
      const real = await confinedRealpath(candidate, allowed);
      if (real === undefined) {
        return {
          error:
            `cwd '${cwd}' is outside the skill directory and the workspace, or does not exist. ` +
            "Use a path relative to the skill root (e.g. 'scripts'), or '$WORK_DIR' / '$OUTPUT_DIR'.",
        };
      }
      return { cwd: path.resolve(candidate) };
    },
    mounts(skill) {
      return [
        { source: root, readOnly: false },
        { source: dirs.skillsDir, readOnly: true },
        { source: skill.realDir, readOnly: true },
      ];
    },
    async dispose() {
      staged.clear();
      await rm(root, { recursive: true, force: true });
    },
  };
}
