/**
 * Making and re-using private workspaces (layout and operations: `workspace.ts`). A workspace is a fresh
 * unpredictable directory (mkdtemp, 0700) under a per-user base that is checked before use; an existing
 * one is re-used only through `openWorkspace`, which checks it again and touches nothing that fails.
 */
import { lstatSync, mkdirSync, mkdtempSync, realpathSync, type Stats } from "node:fs";
import os from "node:os";
import path from "node:path";
import { WorkspaceError } from "../errors/workspace-error.js";
import { checkCacheDir } from "../util/trusted-cache.js";
import { type DirHandle, openDirHandle, openSubpath } from "./dir-handle.js";
import { sanitizeName, WORKSPACE_LAYOUT, type Workspace, workspaceAt } from "./workspace.js";
import { hasOwnerMark, markWorkspaceOwner, removeOrphanedWorkspaces } from "./workspace-owner.js";

/** Options of `createWorkspace`. */
export interface WorkspaceOptions {
  /**
   * Parent directory. Default: the per-user base `<os.tmpdir()>/skillrt-<uid>`, created with mode 0700
   * and checked (a real directory, owned by the current user, no access for group or others).
   */
  baseDir?: string;
  /**
   * A label put in the directory name (sanitised) before its random part; never the whole name, so a
   * workspace path cannot be guessed from it. Default none.
   */
  id?: string;
  /**
   * The workspace outlives this process (e.g. `skillrt run --keep`): it gets no owner mark, so a later
   * start never removes it as a crash's leftover. Default false: once this process is gone without
   * disposing of it (killed), the next `createWorkspace` in the same base removes it.
   */
  kept?: boolean;
}

/**
 * Why a directory may not be used as a workspace or its base; `undefined` when it may. This and the
 * workspace's other file-system calls are synchronous: a handful of cheap calls, each of which would
 * otherwise be a trip through libuv's thread pool, on the way to an agent's first model request.
 */
function privacyProblem(dir: string): string | undefined {
  let stat: Stats;
  try {
    stat = lstatSync(dir);
  } catch (error) {
    return `it cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  if (stat.isSymbolicLink()) return "it is a symbolic link";
  if (!stat.isDirectory()) return "it is not a directory";
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid)
    return `it is owned by uid ${stat.uid}, not by this user (uid ${uid})`;
  if ((stat.mode & 0o077) !== 0)
    return `its mode is ${(stat.mode & 0o777).toString(8)}; it must not be accessible to group or others (0700)`;
  return undefined;
}

/**
 * The per-user base directory of workspaces: `<os.tmpdir()>/skillrt-<uid>`, created 0700 when missing.
 * Throws `WorkspaceError` when it exists but is a symlink, not a directory, owned by someone else or
 * open to group/others (another local user may have planted it): nothing inside is used.
 */
export async function defaultWorkspaceBase(): Promise<string> {
  // The temporary directory as given (TMPDIR) is checked along its whole path before it is resolved: a
  // symlink another user made, or a folder they can write (a sticky one such as /tmp excepted), on the way
  // would let them swap the folder scripts run from.
  const given = path.join(os.tmpdir(), `skillrt-${process.getuid?.() ?? os.userInfo().username}`);
  const trust = checkCacheDir(given, { create: true });
  if (!trust.ok)
    throw new WorkspaceError(
      `refusing the workspace base ${given}: ${trust.reason}. Remove it, or choose another base directory (baseDir) or a TMPDIR only you and root can change.`,
    );
  const tmp = realpathSync(os.tmpdir());
  const base = path.join(tmp, `skillrt-${process.getuid?.() ?? os.userInfo().username}`);
  try {
    mkdirSync(base, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const problem = privacyProblem(base);
  if (problem !== undefined) {
    throw new WorkspaceError(
      `refusing the workspace base ${base}: ${problem}. Remove it, or choose another base directory (baseDir).`,
    );
  }
  return base;
}

async function resolveBase(baseDir: string | undefined): Promise<string> {
  if (baseDir === undefined) return defaultWorkspaceBase();
  const base = realpathSync(baseDir);
  if (!lstatSync(base).isDirectory()) throw new WorkspaceError(`workspace base ${base} is not a directory`);
  return base;
}

/** Opens (with `create`, makes) each layout folder by descriptor; throws when one is a symlink or a file. */
async function checkLayout(root: DirHandle, create: boolean): Promise<void> {
  for (const rel of WORKSPACE_LAYOUT) {
    const dir = await openSubpath(root, rel, create ? { create, mode: 0o755 } : {});
    await dir.close();
  }
}

/**
 * Creates a fresh private workspace with its layout: `mkdtemp` (mode 0700, unpredictable name) under
 * the base directory, checked to be owned by this user before anything is put in it.
 */
export async function createWorkspace(options: WorkspaceOptions = {}): Promise<Workspace> {
  const base = await resolveBase(options.baseDir);
  const baseHandle = await openDirHandle(base);
  let root: string;
  try {
    // Workspaces of processes that died without disposing of them (kill -9) go first.
    await removeOrphanedWorkspaces(baseHandle).catch(() => undefined);
    const label = options.id === undefined ? "" : `${sanitizeName(options.id).slice(0, 40)}-`;
    root = mkdtempSync(path.join(base, `skillrt-ws-${label}`));
    if (options.kept !== true) await markWorkspaceOwner(baseHandle, path.basename(root));
  } finally {
    await baseHandle.close();
  }
  const problem = privacyProblem(root);
  if (problem !== undefined) throw new WorkspaceError(`refusing the new workspace ${root}: ${problem}`);
  const handle = await openDirHandle(root);
  try {
    await checkLayout(handle, true);
  } finally {
    await handle.close();
  }
  return workspaceAt(root);
}

/**
 * Re-uses an existing workspace (e.g. the one recorded in a saved session) after checking it again: a
 * directory named `skillrt-ws-…` directly in the base directory, not a symlink, owned by this user,
 * mode 0700, with its layout folders real directories (not symlinks). Returns `{ error }` (and touches
 * nothing in it) when any check fails.
 */
export async function openWorkspace(
  root: string,
  options: Pick<WorkspaceOptions, "baseDir"> = {},
): Promise<{ workspace: Workspace } | { error: string }> {
  const refused = (why: string) => ({
    error: `workspace ${root} was not used: ${why}. Nothing in it was touched.`,
  });
  let base: string;
  try {
    base = await resolveBase(options.baseDir);
  } catch (error) {
    return refused((error as Error).message);
  }
  if (!path.isAbsolute(root) || path.dirname(root) !== base || !path.basename(root).startsWith("skillrt-ws-"))
    return refused(`it is not a skillrt workspace directly inside ${base}`);
  const problem = privacyProblem(root);
  if (problem !== undefined) return refused(problem);
  let handle: DirHandle | undefined;
  let baseHandle: DirHandle | undefined;
  try {
    handle = await openDirHandle(root);
    await checkLayout(handle, false);
    // A workspace re-used after its owner died is this process's now: no later start may remove it.
    baseHandle = await openDirHandle(base);
    if (await hasOwnerMark(baseHandle, path.basename(root)))
      await markWorkspaceOwner(baseHandle, path.basename(root));
  } catch (error) {
    return refused((error as Error).message);
  } finally {
    await handle?.close();
    await baseHandle?.close();
  }
  return { workspace: workspaceAt(root) };
}

/**
 * The workspace recorded for a session when it still passes `openWorkspace`'s checks, else a fresh one
 * (`createWorkspace`) with `warning` saying why the recorded one was refused.
 */
export async function resumeWorkspace(
  recorded: string | undefined,
  options: WorkspaceOptions = {},
): Promise<{ workspace: Workspace; warning?: string }> {
  if (recorded !== undefined) {
    const opened = await openWorkspace(recorded, options);
    if ("workspace" in opened) return opened;
    return {
      workspace: await createWorkspace(options),
      warning: `${opened.error} A new workspace was created.`,
    };
  }
  return { workspace: await createWorkspace(options) };
}
