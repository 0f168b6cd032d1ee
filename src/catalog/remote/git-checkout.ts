/**
 * Git roots through the system `git`: the ref resolved to a commit (`git ls-remote`), then that commit
 * fetched shallow (`--depth 1`) into a fresh folder, its tree checked against the caps from the object
 * sizes (`git ls-tree -l`) before anything is checked out, and checked out without its `.git`
 * directory. Every command runs under one deadline and git's own minimum transfer rate.
 */
import { execFile } from "node:child_process";
import { lstat, readdir, rm } from "node:fs/promises";
import path from "node:path";
import {
  type ArchiveLimits,
  type ArchiveTally,
  defaultArchiveLimits,
  mib,
  tallyEntry,
} from "./archive-entry.js";
import { MAX_DOWNLOAD_BYTES } from "./fetch-capped.js";
import { RemoteRootError } from "./remote-root-error.js";
import { defaultTransferLimits, seconds, type TransferLimits } from "./transfer-limits.js";

/** How git commands of one root fetch run. */
export interface GitFetchOptions {
  /** Deadline (one for every command of the fetch) and minimum rate. Default {@link defaultTransferLimits}. */
  transfer?: TransferLimits;
  /** Caps of the tree. Default 64 MiB per file, 256 MiB in total, 10,000 files and folders. */
  limits?: ArchiveLimits;
  /** Most bytes the fetched objects may take in `.git` while they arrive. Default 64 MiB. */
  maxDownloadBytes?: number;
  abortSignal?: AbortSignal;
}

/**
 * The environment git runs with: no prompts, and none of the caller's `GIT_*` variables (a `GIT_DIR`
 * set by a hook would point git at another repository). The user's own git config stays in force (its
 * credential helpers serve private repositories); the folder is fresh, so no repository config applies.
 */
function gitEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("GIT_")));
  return {
    ...env,
    GIT_TERMINAL_PROMPT: "0",
    LC_ALL: "C",
  };
}

/** git's own minimum rate (`http.lowSpeedLimit`/`Time`, whole seconds), before the command's arguments. */
function rateConfig(transfer: TransferLimits): string[] {
  if (transfer.lowSpeedBytesPerSecond <= 0) return [];
  const time = Math.max(1, Math.round(transfer.lowSpeedMs / 1000));
  const limit = Math.max(1, Math.round(transfer.lowSpeedBytesPerSecond));
  return ["-c", `http.lowSpeedLimit=${limit}`, "-c", `http.lowSpeedTime=${time}`];
}

interface GitRun {
  what: string;
  cwd?: string;
  /** The fetch's deadline signal (and the caller's). */
  signal: AbortSignal;
  transfer: TransferLimits;
  /** Why the signal fired, when it was one of ours (deadline, size watch). */
  stopped: () => string | undefined;
}

function git(args: string[], run: GitRun): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      [...rateConfig(run.transfer), ...args],
      {
        env: gitEnv(),
        maxBuffer: 64 * 1024 * 1024,
        killSignal: "SIGKILL",
        signal: run.signal,
        ...(run.cwd === undefined ? {} : { cwd: run.cwd }),
      },
      (error, stdout, stderr) => {
        if (error === null) return resolve(stdout);
        const code = (error as NodeJS.ErrnoException).code;
        const stopped = run.stopped();
        const detail =
          stopped !== undefined
            ? stopped
            : code === "ENOENT"
              ? "the git command is not installed"
              : code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER"
                ? "its output is over 64 MiB (too many files?)"
                : (stderr.trim().split("\n").pop() ?? error.message).slice(0, 300);
        reject(new RemoteRootError({ code: "root-fetch-failed", message: `Cannot ${run.what}: ${detail}.` }));
      },
    );
  });
}

/**
 * One fetch of a git root: its deadline starts now. `stop` ends every git command of the fetch with the
 * reason given; `done` releases the timer.
 */
export function startGitFetch(options: GitFetchOptions): {
  run: (what: string, cwd?: string) => GitRun;
  stop: (why: string) => void;
  done: () => void;
} {
  const transfer = options.transfer ?? defaultTransferLimits;
  const controller = new AbortController();
  let reason: string | undefined;
  const stop = (why: string) => {
    reason ??= why;
    controller.abort();
  };
  const timer = setTimeout(
    () => stop(`it took longer than the ${seconds(transfer.deadlineMs)} deadline (SKILLRT_REMOTE_TIMEOUT)`),
    transfer.deadlineMs,
  );
  const signal =
    options.abortSignal === undefined
      ? controller.signal
      : AbortSignal.any([controller.signal, options.abortSignal]);
  return {
    run: (what, cwd) => ({
      what,
      signal,
      transfer,
      stopped: () => reason,
      ...(cwd === undefined ? {} : { cwd }),
    }),
    stop,
    done: () => clearTimeout(timer),
  };
}

/** A git fetch as {@link startGitFetch} makes it. */
export type GitFetch = ReturnType<typeof startGitFetch>;

/**
 * The commit `ref` names in the repository at `url` (HEAD when undefined): a full 40/64-hex commit id
 * as given, else the peeled tag, branch or other ref `git ls-remote` lists for it.
 */
export async function resolveGitRef(url: string, ref: string | undefined, fetch: GitFetch): Promise<string> {
  if (ref !== undefined && /^([0-9a-f]{40}|[0-9a-f]{64})$/i.test(ref)) return ref.toLowerCase();
  const wanted = ref ?? "HEAD";
  const out = await git(
    ["ls-remote", "--", url, wanted, `${wanted}^{}`],
    fetch.run(`list the refs of ${url}`),
  );
  const refs = out
    .split("\n")
    .map((line) => line.split("\t"))
    .filter((parts): parts is [string, string] => parts.length === 2);
  const pick = (name: string) => refs.find(([, r]) => r === name)?.[0];
  const commit =
    pick(`refs/tags/${wanted}^{}`) ??
    pick(`refs/tags/${wanted}`) ??
    pick(`refs/heads/${wanted}`) ??
    pick(wanted) ??
    refs[0]?.[0];
  if (commit === undefined)
    throw new RemoteRootError({
      code: "root-fetch-failed",
      message: `Cannot fetch ${url}: no ref '${wanted}'.`,
    });
  return commit;
}

/**
 * Checks out `commit` of `url` into `dest` (created), shallow, with links stored as plain files
 * (`core.symlinks=false`), and removes `dest/.git`. The fetched objects may take at most
 * `maxDownloadBytes` while they arrive (git is stopped past it), and a tree past the caps (64 MiB per
 * file, 256 MiB in total, 10,000 files and folders) is refused from its object sizes before anything is
 * checked out. `fetchRef` is what is asked of the server: the ref name when there is one (every server
 * serves those), else the commit id.
 */
export async function checkoutGitCommit(
  url: string,
  fetchRef: string,
  commit: string,
  dest: string,
  fetch: GitFetch,
  options: GitFetchOptions = {},
): Promise<void> {
  const what = `fetch ${url}`;
  const limits = options.limits ?? defaultArchiveLimits;
  await git(["init", "-q", dest], fetch.run(what));
  const maxDownload = options.maxDownloadBytes ?? MAX_DOWNLOAD_BYTES;
  const objects = path.join(dest, ".git", "objects");
  const tooBig = `the fetched objects are over the ${mib(maxDownload)} download limit`;
  // Watched while they arrive (git is stopped past the cap), and measured once more when done.
  const watch = watchSize(objects, maxDownload, () => fetch.stop(tooBig));
  try {
    await git(
      ["-c", "protocol.file.allow=always", "fetch", "-q", "--depth", "1", "--no-tags", "--", url, fetchRef],
      fetch.run(what, dest),
    );
  } finally {
    clearInterval(watch);
  }
  if ((await sizeOf(objects)) > maxDownload)
    throw new RemoteRootError({ code: "root-fetch-failed", message: `Cannot ${what}: ${tooBig}.` });
  const fetched = (await git(["rev-parse", "FETCH_HEAD^{commit}"], fetch.run(what, dest))).trim();
  if (fetched !== commit)
    throw new RemoteRootError({
      code: "root-fetch-failed",
      message: `Cannot fetch ${url}: '${fetchRef}' moved from ${commit} to ${fetched} while fetching; try again.`,
    });
  // The caps, from the object sizes: an oversized tree is refused before a byte of it is written.
  const listing = await git(["ls-tree", "-r", "-l", "-z", "--full-tree", commit], fetch.run(what, dest));
  checkTreeListing(listing, url, limits);
  await git(
    ["-c", "core.symlinks=false", "-c", "advice.detachedHead=false", "checkout", "-q", commit],
    fetch.run(what, dest),
  );
  await rm(path.join(dest, ".git"), { recursive: true, force: true });
  await checkTreeSize(dest, url, limits);
}

/**
 * Refuses the tree `git ls-tree -r -l -z` listed when it passes a cap: each blob (a file, or a link,
 * written as a file) is counted with its size, each folder once. Submodules are not checked out.
 */
function checkTreeListing(listing: string, url: string, limits: ArchiveLimits): void {
  const tally: ArchiveTally = { entries: 0, bytes: 0 };
  const folders = new Set<string>();
  for (const record of listing.split("\0")) {
    if (record === "") continue;
    const tab = record.indexOf("\t");
    const [, type, , size] = record.slice(0, tab).split(/ +/);
    const name = record.slice(tab + 1);
    if (type !== "blob") continue;
    for (let at = name.indexOf("/"); at > 0; at = name.indexOf("/", at + 1)) {
      const folder = name.slice(0, at);
      if (folders.has(folder)) continue;
      folders.add(folder);
      tallyEntry({ name: `${folder}/`, type: "dir", mode: 0o755, size: 0 }, tally, limits, url);
    }
    tallyEntry({ name, type: "file", mode: 0o644, size: Number(size) }, tally, limits, url);
  }
}

/** Calls `over` once the files under `dir` take more than `max` bytes (checked every 100 ms). */
function watchSize(dir: string, max: number, over: () => void): NodeJS.Timeout {
  let busy = false;
  return setInterval(() => {
    if (busy) return;
    busy = true;
    sizeOf(dir)
      .then((size) => {
        if (size > max) over();
      })
      .catch(() => {})
      .finally(() => {
        busy = false;
      });
  }, 100);
}

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    total += (await lstat(path.join(entry.parentPath, entry.name)).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

/** Refuses a checkout past the caps, as for archives (a second check of what was actually written). */
async function checkTreeSize(dest: string, url: string, limits: ArchiveLimits): Promise<void> {
  const tally: ArchiveTally = { entries: 0, bytes: 0 };
  for (const entry of await readdir(dest, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const name = path.relative(dest, file).split(path.sep).join("/");
    if (entry.isDirectory()) tallyEntry({ name, type: "dir", mode: 0o755, size: 0 }, tally, limits, url);
    if (!entry.isFile()) continue;
    const { size } = await lstat(file);
    tallyEntry({ name, type: "file", mode: 0o644, size }, tally, limits, url);
  }
}
