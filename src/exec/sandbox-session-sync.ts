/**
 * Moving a run's files between the host and an AI SDK sandbox with the sandbox's own file API: mounts are
 * staged in (changed files only, remembered per sandbox path), and what the run wrote in its writable
 * mounts is read back out. The sandbox is untrusted: names it lists are checked, its symbolic links are
 * never followed or copied, nothing is written on the host through a symbolic link, read-only mounts are
 * never copied back, and the bytes and files copied back are capped.
 */
import { lstat, mkdir, readdir, readFile, readlink, unlink } from "node:fs/promises";
import path from "node:path";
import type { Experimental_SandboxSession as SandboxSession } from "ai";
import type { ExecMount } from "./executor.js";
import { type SandboxPathMap, shellQuote } from "./sandbox-path-map.js";
import { writeFileNoFollow } from "./write-file-no-follow.js";

/** What was staged, by sandbox path: a file's host signature, or a link's target. */
export interface SyncState {
  files: Map<string, string>;
  links: Map<string, string>;
  dirs: Set<string>;
}

/** Caps of one run's file transfers. */
export interface SyncLimits {
  /** Most bytes staged into the sandbox per run. */
  maxStageBytes: number;
  /** Most bytes copied back to the host per run. */
  maxSyncBytes: number;
  /** Most files copied back per run. */
  maxSyncFiles: number;
}

/** Creates an empty sync state. */
export function createSyncState(): SyncState {
  return { files: new Map(), links: new Map(), dirs: new Set() };
}

function signature(stat: { size: number; mtimeMs: number; ino: number }): string {
  return `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
}

function inside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith("/") ? parent : `${parent}/`);
}

async function runChecked(
  sandbox: SandboxSession,
  command: string,
  abortSignal?: AbortSignal,
): Promise<void> {
  const result = await sandbox.run({ command, ...(abortSignal === undefined ? {} : { abortSignal }) });
  if (result.exitCode !== 0) {
    throw new Error(
      `preparing the sandbox failed (exit ${result.exitCode}): ${result.stderr.trim().slice(0, 500)}`,
    );
  }
}

/**
 * Copies each mount's host tree to its sandbox path (`target`, default `source`): directories and links
 * with one shell command, changed files with `writeBinaryFile`. Also creates `extraDirs`. Throws when the
 * mounts hold more than `limits.maxStageBytes`.
 */
export async function stageMounts(
  sandbox: SandboxSession,
  mounts: ExecMount[],
  map: SandboxPathMap,
  state: SyncState,
  limits: SyncLimits,
  extraDirs: string[],
  abortSignal?: AbortSignal,
): Promise<void> {
  const dirs: string[] = extraDirs.filter((d) => !state.dirs.has(d));
  const links: Array<[string, string]> = [];
  const files: Array<[string, string, string]> = []; // host, sandbox, signature
  const visited = new Set<string>();
  let bytes = 0;

  async function walk(hostDir: string, sandboxDir: string): Promise<void> {
    if (visited.has(hostDir)) return;
    visited.add(hostDir);
    if (!state.dirs.has(sandboxDir)) dirs.push(sandboxDir);
    for (const entry of await readdir(hostDir, { withFileTypes: true })) {
      const host = path.join(hostDir, entry.name);
      const inSandbox = `${sandboxDir}/${entry.name}`;
      if (entry.isDirectory()) await walk(host, inSandbox);
      else if (entry.isSymbolicLink()) {
        const target = await readlink(host);
        const mapped = path.isAbsolute(target) ? map.mapText(target) : target;
        if (state.links.get(inSandbox) !== mapped) links.push([inSandbox, mapped]);
      } else if (entry.isFile()) {
        const stat = await lstat(host);
        bytes += stat.size;
        if (bytes > limits.maxStageBytes) {
          throw new Error(
            `the mounts hold more than ${limits.maxStageBytes} bytes; not staging them into the sandbox`,
          );
        }
        const sig = signature(stat);
        if (state.files.get(inSandbox) !== sig) files.push([host, inSandbox, sig]);
      }
    }
  }
  for (const mount of mounts) {
    const stat = await lstat(mount.source).catch(() => undefined);
    const target = map.toSandbox(mount.target ?? mount.source);
    if (stat?.isDirectory() === true) await walk(path.resolve(mount.source), target);
    else if (stat?.isFile() === true) files.push([mount.source, target, signature(stat)]);
  }

  // Read-only mounts are write-protected copies: opened up while they are updated, closed again after.
  const readOnly = mounts.filter((m) => m.readOnly !== false).map((m) => map.toSandbox(m.target ?? m.source));
  const touched = (p: string): boolean => readOnly.some((ro) => inside(p, ro));
  const protect =
    dirs.some(touched) ||
    links.some(([link]) => touched(link)) ||
    files.some(([, inSandbox]) => touched(inSandbox));
  const roots = readOnly.map(shellQuote).join(" ");
  const commands: string[] = [];
  if (protect) commands.push(`{ chmod -R u+w -- ${roots} 2>/dev/null || true; }`);
  if (dirs.length > 0) commands.push(`mkdir -p -- ${dirs.map(shellQuote).join(" ")}`);
  for (const [link, target] of links) commands.push(`ln -sfn -- ${shellQuote(target)} ${shellQuote(link)}`);
  // Chunks keep each command well under any argument-length limit.
  for (let i = 0, chunk: string[] = []; i <= commands.length; i++) {
    const next = commands[i];
    if (next !== undefined && chunk.join(" && ").length + next.length < 60_000) chunk.push(next);
    else {
      if (chunk.length > 0) await runChecked(sandbox, chunk.join(" && "), abortSignal);
      chunk = next === undefined ? [] : [next];
    }
  }
  for (const dir of dirs) state.dirs.add(dir);
  for (const [link, target] of links) state.links.set(link, target);

  const queue = [...files];
  const worker = async (): Promise<void> => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      const [host, inSandbox, sig] = item;
      const content = await readFile(host);
      await sandbox.writeBinaryFile({
        path: inSandbox,
        content,
        ...(abortSignal === undefined ? {} : { abortSignal }),
      });
      state.files.set(inSandbox, sig);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, queue.length) }, worker));
  if (protect) await runChecked(sandbox, `chmod -R a-w -- ${roots}`, abortSignal);
}

/** A sandbox listing entry name that is safe to join onto a host path. */
function safeName(name: string): boolean {
  return name !== "" && name !== "." && name !== ".." && !name.includes("/") && !name.includes("\0");
}

/** Makes `dir` (inside `root`) exist as real directories, never passing through a symbolic link. */
async function realDirectory(dir: string, root: string): Promise<boolean> {
  const parts = path
    .relative(root, dir)
    .split(path.sep)
    .filter((p) => p !== "");
  let current = root;
  for (const part of parts) {
    current = path.join(current, part);
    const stat = await lstat(current).catch(() => undefined);
    if (stat === undefined) await mkdir(current);
    else if (!stat.isDirectory()) return false;
  }
  return true;
}

/**
 * Copies what the run left in the writable mounts back to the host: new and changed files are written
 * (never through a host symbolic link), files this sync staged and the run deleted are deleted, the
 * sandbox's symbolic links and anything under a read-only mount are skipped. Returns warnings.
 */
export async function syncBack(
  sandbox: SandboxSession,
  mounts: ExecMount[],
  map: SandboxPathMap,
  state: SyncState,
  limits: SyncLimits,
  abortSignal?: AbortSignal,
): Promise<string[]> {
  const warnings: string[] = [];
  const readOnly = mounts.filter((m) => m.readOnly !== false).map((m) => map.toSandbox(m.target ?? m.source));
  const signal = abortSignal === undefined ? {} : { abortSignal };
  let bytes = 0;
  let count = 0;
  let capped = false;
  let skippedLinks = 0;

  async function pull(
    sandboxDir: string,
    hostDir: string,
    hostRoot: string,
    seen: Set<string>,
  ): Promise<void> {
    const entries = (await sandbox.listDirectory({ path: sandboxDir, ...signal })) ?? [];
    for (const entry of entries) {
      if (!safeName(entry.name)) continue;
      const inSandbox = `${sandboxDir}/${entry.name}`;
      const host = path.join(hostDir, entry.name);
      if (readOnly.some((ro) => inside(inSandbox, ro))) continue;
      if (entry.type === "directory") await pull(inSandbox, host, hostRoot, seen);
      else if (entry.type === "symlink") {
        if (!state.links.has(inSandbox)) skippedLinks++;
      } else if (entry.type === "file") {
        seen.add(inSandbox);
        if (capped) continue;
        const content = await sandbox.readBinaryFile({ path: inSandbox, ...signal });
        if (content === null) continue;
        if (bytes + content.length > limits.maxSyncBytes || count + 1 > limits.maxSyncFiles) {
          capped = true;
          continue;
        }
        bytes += content.length;
        count++;
        await writeHostFile(host, hostRoot, content, inSandbox);
      }
    }
  }

  async function writeHostFile(host: string, hostRoot: string, content: Uint8Array, inSandbox: string) {
    const existing = await lstat(host).catch(() => undefined);
    if (existing !== undefined && !existing.isFile()) {
      warnings.push(`${host} was not updated from the sandbox: on the host it is not a regular file`);
      return;
    }
    if (existing?.size === content.length && Buffer.from(content).equals(await readFile(host))) {
      state.files.set(inSandbox, signature(existing));
      return;
    }
    if (!(await realDirectory(path.dirname(host), hostRoot))) {
      warnings.push(`${host} was not copied back: a parent on the host is not a directory`);
      return;
    }
    state.files.set(inSandbox, signature(await writeFileNoFollow(host, content)));
  }

  for (const mount of mounts) {
    if (mount.readOnly !== false) continue;
    const hostRoot = path.resolve(mount.source);
    const sandboxRoot = map.toSandbox(mount.target ?? mount.source);
    const seen = new Set<string>();
    await pull(sandboxRoot, hostRoot, hostRoot, seen);
    // Files staged from this mount that the run deleted: delete them on the host too.
    for (const [inSandbox] of [...state.files]) {
      if (!inside(inSandbox, sandboxRoot) || seen.has(inSandbox) || capped) continue;
      if (readOnly.some((ro) => inside(inSandbox, ro))) continue;
      const host = path.join(hostRoot, path.relative(sandboxRoot, inSandbox));
      const stat = await lstat(host).catch(() => undefined);
      if (stat?.isFile() === true) await unlink(host);
      state.files.delete(inSandbox);
    }
  }
  if (capped) {
    warnings.push(
      `only the first ${count} files (${bytes} bytes) the run wrote were copied back from the sandbox ` +
        `(limits: ${limits.maxSyncFiles} files, ${limits.maxSyncBytes} bytes)`,
    );
  }
  if (skippedLinks > 0) {
    warnings.push(`${skippedLinks} symbolic link(s) the run created were not copied back from the sandbox`);
  }
  return warnings;
}
