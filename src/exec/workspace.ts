/**
 * A per-session, disposable workspace:
 *
 * ```
 * <base>/skillrt-ws-<random>/     base: <tmpdir>/skillrt-<uid> (0700) unless given; the workspace is 0700
 * <base>/.skillrt-ws-<random>.owner   the owner's pid (`workspace-owner.ts`): removed with the workspace
 *   skills/<name>/   the skill's folder as it is: the real directory mounted read-only here (sandbox,
 *                    container, sandbox sessions), or a read-only copy of it (local runs, and every run
 *                    of a skill trusted by its digest: the copy is checked against it before it runs)
 *   work/ work/inputs/   scratch space and staged inputs
 *   out/             outputs to collect
 *   runs/run_<ts>/   one directory per run (RUN_DIR)
 *   home/            HOME of every run;  tmp/  TMPDIR of local runs
 * ```
 *
 * A script walking its skill folder (`zip -r x .`, `os.walk(".")`) sees exactly the skill's files: no
 * links to other folders are added to it, unless a profile asks for trpc's staged layout
 * (`StageSkillOptions.links`: `out`, `work` and `inputs` links and a writable `.venv` in a copy of the
 * skill). `skills/` itself is read-only in the sandbox; the rest of the workspace is writable.
 *
 * Workspaces are private: a fresh unpredictable directory (mkdtemp, 0700) under a per-user base that
 * is checked before use; an existing one is re-used only through `openWorkspace`, which checks it
 * again. Every host-side change inside (the view, run folders, removal) goes through held directory
 * descriptors (`dir-handle.ts`), so a symlink a script planted is never followed by the host.
 */
import { chmodSync } from "node:fs";
import { mkdir, realpath } from "node:fs/promises";
import path from "node:path";
import type { SkillRecord } from "../catalog/types.js";
import { confinedRealpath, isInside, normalizeWorkspacePath } from "./confine.js";
import { copySkillView, treeFingerprint, unlockIn } from "./copy-skill-view.js";
import {
  type DirHandle,
  listDir,
  lstatIn,
  openDirHandle,
  openSubdir,
  openSubpath,
  removeIn,
  symlinkIn,
} from "./dir-handle.js";
import type { ExecMount } from "./executor.js";
import { ownerMarkName } from "./workspace-owner.js";

/** A skill staged into a workspace. */
export interface StagedSkill {
  name: string;
  /** The skill's real directory (mounted read-only at `viewDir`, or copied there). */
  realDir: string;
  /** `skills/<name>` inside the workspace: the default cwd, where the run sees the skill's folder. */
  viewDir: string;
  /**
   * `true` when `viewDir` holds a read-only copy of the skill (for executors that do not mount, such as
   * `local`, and for a checked copy, see `StageSkillOptions.verify`); `false` when it is an empty mount
   * point the executor mounts the real directory on.
   */
  copied: boolean;
  /** Folders inside `viewDir` runs may write (trpc's `.venv`, see `StageSkillOptions.links`). */
  writable?: string[];
}

/** Options of `Workspace.stageSkill`. */
export interface StageSkillOptions {
  /**
   * Copy the skill into its view (read-only) instead of leaving a mount point: for executors that
   * ignore `mounts`, such as `local`. Default `false`.
   */
  copy?: boolean;
  /**
   * Check the copy before any run sees it (implies `copy`): `check` resolves when the copy in `viewDir`
   * is content the run may execute and throws otherwise (the copy is then removed and the staging fails
   * with that error). A copy that passed is re-used while neither it nor the skill changed and `key` (what
   * it was checked against, e.g. a trusted digest) is the same.
   */
  verify?: { key: string; check: (viewDir: string) => Promise<void> };
  /**
   * trpc-agent-go's staged skill folder (implies `copy`): in the copy, `out → ../../out`,
   * `work → ../../work` and `inputs → ../../work/inputs` link to the workspace's folders, and `.venv` is an
   * empty folder runs may write (mounted read-write over the read-only copy; kept while the skill does not
   * change), so trpc's commands (`python3 scripts/x.py > out/x.txt`, `python3 -m venv .venv`) work in the
   * skill folder. What the skill itself holds under those four names is left out of the copy (trpc removes
   * it too). Added after `verify` checked the copy. Default `false`.
   */
  links?: boolean;
}

/** The links trpc's stager puts in a staged skill folder, and where they lead (from `skills/<name>`). */
const STAGED_LINKS: ReadonlyArray<[string, string]> = [
  ["out", "../../out"],
  ["work", "../../work"],
  ["inputs", "../../work/inputs"],
];

/** The folder of a staged skill runs may write (trpc's virtualenv). */
const STAGED_VENV = ".venv";

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
  /**
   * Stages (or re-uses) the view of a skill: an empty mount point, or with `copy` a read-only copy made
   * again when the skill or the copy changed. Calls are serialised per workspace, so parallel runs of
   * one skill share one consistent view.
   */
  stageSkill(
    record: Pick<SkillRecord, "name" | "dir" | "singleFile">,
    options?: StageSkillOptions,
  ): Promise<StagedSkill>;
  /**
   * Creates `runs/run_<YYYYMMDDTHHMMSS.mmm>[_n]` (a new name for every call, also for parallel runs) and
   * returns its absolute path. Throws when `runs/` was replaced by a symlink or a file.
   */
  createRunDir(): Promise<string>;
  /** `WORKSPACE_DIR`, `SKILLS_DIR`, `WORK_DIR`, `OUTPUT_DIR`, `RUN_DIR`, `SKILL_NAME`, `HOME`. */
  runEnv(staged: StagedSkill, runDir: string): Record<string, string>;
  /**
   * Resolves a cwd for a run: default the skill view; relative paths are joined under it; `$WORK_DIR/…`
   * style and absolute paths are accepted inside `work/`, `out/`, `runs/` and `home/`. Returns an error
   * message when the resolved real path leaves the skill and those directories, or does not exist.
   */
  resolveCwd(staged: StagedSkill, cwd?: string): Promise<{ cwd: string } | { error: string }>;
  /**
   * Mounts a sandbox needs for a run of `staged`: the workspace read-write, `skills/` read-only and the
   * real skill directory read-only at `viewDir` (for a copied view, the copy is already there).
   */
  mounts(staged: StagedSkill): ExecMount[];
  /**
   * Puts back layout folders (`skills/`, `work/`, `work/inputs/`, `out/`, `runs/`, `home/`, `tmp/`) a
   * script replaced by a symlink or a file: the planted entry is removed (never followed) and the folder
   * made again. Returns one message per repair (for the model); empty when nothing was wrong.
   */
  repair(): Promise<string[]>;
  /** Deletes the workspace (by descriptor: a symlink inside is removed, never followed). */
  dispose(): Promise<void>;
}

/** `name` as one safe path component (anything but `A-Za-z0-9._-` becomes `_`; never `.` or `..`). */
export function sanitizeName(name: string): string {
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

/** The folders every workspace has, relative to its root (parents first). */
export const WORKSPACE_LAYOUT = ["skills", "work", "work/inputs", "out", "runs", "home", "tmp"];

/** Runs `fn` after every earlier call for the same key has settled. */
function serialiser(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const next = tail.then(fn, fn);
    tail = next.catch(() => undefined);
    return next;
  };
}

/** The operations of the workspace at `root`, which must already be checked (see `create-workspace.ts`). */
export function workspaceAt(root: string): Workspace {
  const id = path.basename(root).replace(/^skillrt-ws-/, "");
  const dirs = {
    skillsDir: path.join(root, "skills"),
    workDir: path.join(root, "work"),
    inputsDir: path.join(root, "work", "inputs"),
    outDir: path.join(root, "out"),
    runsDir: path.join(root, "runs"),
    homeDir: path.join(root, "home"),
    tmpDir: path.join(root, "tmp"),
  };
  const staged = new Map<
    string,
    StagedSkill & { fingerprint: string; verified: string | undefined; links: boolean }
  >();
  const serial = serialiser();
  let lastStamp = "";
  let sameStampCount = 0;

  /** Opens `root/<name>` (a layout folder) by descriptor, creating it when missing; never a symlink. */
  async function withLayoutDir<T>(name: string, fn: (dir: DirHandle) => Promise<T>): Promise<T> {
    const handle = await openDirHandle(root);
    try {
      const dir = await openSubdir(handle, name, { create: true });
      try {
        return await fn(dir);
      } finally {
        await dir.close();
      }
    } finally {
      await handle.close();
    }
  }

  /**
   * Puts trpc's links and its empty `.venv` folder into the (locked) copy `skills/<name>`, by descriptor:
   * whatever the copy holds under their names is removed first; the copy is locked again, `.venv` aside.
   */
  async function linkStagedFolders(skills: DirHandle, name: string): Promise<void> {
    const view = await openSubdir(skills, name);
    try {
      const mode = (await lstatIn(skills, name))?.mode ?? 0o555;
      chmodSync(view.at, (mode & 0o7777) | 0o700);
      for (const entry of [...STAGED_LINKS.map(([link]) => link), STAGED_VENV]) {
        await unlockIn(view, entry);
        await removeIn(view, entry);
      }
      for (const [entry, target] of STAGED_LINKS) await symlinkIn(view, entry, target);
      await (await openSubdir(view, STAGED_VENV, { create: true })).close();
      chmodSync(view.at, mode & 0o7555);
    } finally {
      await view.close();
    }
  }

  function stageSkill(
    record: Pick<SkillRecord, "name" | "dir" | "singleFile">,
    options: StageSkillOptions = {},
  ): Promise<StagedSkill> {
    return serial(async () => {
      if (record.dir.startsWith("memory:")) {
        throw new Error(`skill '${record.name}' is built in code and has no directory on disk to run in`);
      }
      if (record.singleFile === true) {
        throw new Error(
          `skill '${record.name}' is a single file (${path.basename(record.dir)}) with no folder: it has no scripts, and commands run only in a skill folder`,
        );
      }
      // A directory that is not an absolute path (a served skill's `skill://` URI) never resolves against
      // the cwd: a folder planted there under that name is not the skill.
      if (!path.isAbsolute(record.dir))
        throw new Error(`skill '${record.name}' has no folder on disk (${record.dir}) to run in`);
      const realDir = await realpath(record.dir);
      const name = sanitizeName(record.name);
      const viewDir = path.join(dirs.skillsDir, name);
      const verify = options.verify;
      const links = options.links === true;
      const copied = options.copy === true || verify !== undefined || links;
      // A copy is kept while neither the skill nor the copy changed; a mount point while it is empty.
      // The real tree's fingerprint is taken before copying: a change made while the copy is made shows
      // as a change at the next staging, which copies (and checks) again.
      const realPrint = copied ? treeFingerprint(realDir) : undefined;
      // What runs write in `.venv` is theirs: it does not make the copy stale.
      const skip = links ? new Set([STAGED_VENV]) : undefined;
      const fingerprint = copied ? `${realPrint}\0${treeFingerprint(viewDir, false, skip)}` : "mount";
      const cached = staged.get(record.name);
      if (
        cached?.realDir === realDir &&
        cached.copied === copied &&
        cached.fingerprint === fingerprint &&
        cached.verified === verify?.key &&
        cached.links === links &&
        (copied || treeFingerprint(viewDir) === "")
      )
        return cached;
      // Whatever was staged under this name before is not re-used from here on, whatever happens next.
      staged.delete(record.name);
      await withLayoutDir("skills", async (skills) => {
        if (copied) {
          await copySkillView(skills, name, realDir);
          if (verify !== undefined) {
            try {
              await verify.check(viewDir);
            } catch (error) {
              await unlockIn(skills, name).catch(() => undefined);
              await removeIn(skills, name).catch(() => undefined);
              throw error;
            }
          }
          if (links) await linkStagedFolders(skills, name);
        } else {
          await unlockIn(skills, name);
          await removeIn(skills, name); // never follows a link planted there
          await (await openSubdir(skills, name, { create: true })).close();
        }
      });
      const result = {
        name: record.name,
        realDir,
        viewDir,
        copied,
        fingerprint: copied ? `${realPrint}\0${treeFingerprint(viewDir, false, skip)}` : "mount",
        verified: verify?.key,
        links,
        ...(links ? { writable: [path.join(viewDir, STAGED_VENV)] } : {}),
      };
      staged.set(record.name, result);
      return result;
    });
  }

  return {
    id,
    root,
    ...dirs,
    stageSkill,
    createRunDir() {
      return withLayoutDir("runs", async (runs) => {
        const stamp = timestamp(new Date());
        sameStampCount = stamp === lastStamp ? sameStampCount + 1 : 0;
        lastStamp = stamp;
        for (let n = sameStampCount; ; n++) {
          const name = `run_${stamp}${n > 0 ? `_${n}` : ""}`;
          try {
            await mkdir(`${runs.at}/${name}`, { mode: 0o755 });
            sameStampCount = n;
            return path.join(dirs.runsDir, name);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "EEXIST" || n > 10_000) throw error;
          }
        }
      });
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
      // On the host a mount point is empty: a folder of the skill is checked in the real directory.
      const checked =
        !skill.copied && isInside(skill.viewDir, candidate)
          ? path.join(skill.realDir, path.relative(skill.viewDir, candidate))
          : candidate;
      // The skill and the writable workspace areas; never another skill's view.
      const allowed = [skill.viewDir, skill.realDir, dirs.workDir, dirs.outDir, dirs.runsDir, dirs.homeDir];
      const real = await confinedRealpath(checked, allowed);
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
        ...(skill.copied ? [] : [{ source: skill.realDir, target: skill.viewDir, readOnly: true }]),
        ...(skill.writable ?? []).map((dir) => ({ source: dir, readOnly: false })),
      ];
    },
    async repair() {
      const repaired: string[] = [];
      const handle = await openDirHandle(root);
      try {
        for (const rel of WORKSPACE_LAYOUT) {
          const parentRel = path.posix.dirname(rel);
          const name = path.posix.basename(rel);
          const parent = parentRel === "." ? handle : await openSubpath(handle, parentRel);
          try {
            const stat = await lstatIn(parent, name);
            if (stat?.isDirectory() === true) continue;
            if (stat !== undefined) {
              await removeIn(parent, name);
              repaired.push(
                `workspace folder ${rel}/ had been replaced by a ${stat.isSymbolicLink() ? "symlink" : "file"}; ` +
                  "it was removed (not followed) and made again",
              );
              if (rel === "skills") staged.clear();
            }
            await (await openSubdir(parent, name, { create: true })).close();
          } finally {
            if (parent !== handle) await parent.close();
          }
        }
      } finally {
        await handle.close();
      }
      return repaired;
    },
    async dispose() {
      staged.clear();
      const parent = await openDirHandle(path.dirname(root));
      try {
        await withLayoutDir("skills", async (skills) => {
          for (const entry of await listDir(skills)) await unlockIn(skills, entry.name);
        }).catch(() => undefined);
        await removeIn(parent, path.basename(root));
        await removeIn(parent, ownerMarkName(path.basename(root)));
      } finally {
        await parent.close();
      }
    },
  };
}
