/**
 * Git roots through the system `git`: the ref resolved to a commit (`git ls-remote`), then that commit
 * fetched shallow (`--depth 1`) into a private repository beside the tree, its tree listed with object
 * sizes (`git ls-tree -l`) and checked against the caps and the archive entry rules, and only then its
 * blobs written by skillrt itself (`git cat-file --batch`), each exactly its listed size. No `git
 * checkout` runs: no hooks, no filter drivers (a `.gitattributes` naming `filter=lfs` cannot make the
 * user's git-lfs download more than was checked), no links. Every command runs under one deadline and
 * git's own minimum transfer rate.
 */
import { execFile, spawn } from "node:child_process";
import { lstat, mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import {
  type ArchiveLimits,
  type ArchiveTally,
  checkArchiveEntry,
  defaultArchiveLimits,
  mib,
  tallyEntry,
} from "./archive-entry.js";
import { writeEntry } from "./extract-archive.js";
import { MAX_DOWNLOAD_BYTES } from "./fetch-capped.js";
import { RemoteRootError } from "./remote-root-error.js";
import { defaultTransferLimits, startTransferDeadline, type TransferLimits } from "./transfer-limits.js";

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
  const deadline = startTransferDeadline(transfer, options.abortSignal);
  return {
    run: (what, cwd) => ({
      what,
      signal: deadline.signal,
      transfer,
      stopped: deadline.stopped,
      ...(cwd === undefined ? {} : { cwd }),
    }),
    stop: deadline.stop,
    done: deadline.done,
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
 * Writes the tree of `commit` of `url` into `dest` (created): fetched shallow into `<dest>.git` (removed
 * afterwards), links written as plain files holding their target (as `core.symlinks=false` does). The
 * fetched objects may take at most `maxDownloadBytes` while they arrive (git is stopped past it), and a
 * tree past the caps (64 MiB per file, 256 MiB in total, 10,000 files and folders) or with an unsafe
 * name is refused from its listing before anything is written. `fetchRef` is what is asked of the
 * server: the ref name when there is one (every server serves those), else the commit id.
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
  const repo = `${dest}.git`;
  try {
    await git(["init", "-q", "--bare", repo], fetch.run(what));
    const maxDownload = options.maxDownloadBytes ?? MAX_DOWNLOAD_BYTES;
    const objects = path.join(repo, "objects");
    const tooBig = `the fetched objects are over the ${mib(maxDownload)} download limit`;
    // Watched while they arrive (git is stopped past the cap), and measured once more when done.
    const watch = watchSize(objects, maxDownload, () => fetch.stop(tooBig));
    try {
      await git(
        ["-c", "protocol.file.allow=always", "fetch", "-q", "--depth", "1", "--no-tags", "--", url, fetchRef],
        fetch.run(what, repo),
      );
    } finally {
      clearInterval(watch);
    }
    if ((await sizeOf(objects)) > maxDownload)
      throw new RemoteRootError({ code: "root-fetch-failed", message: `Cannot ${what}: ${tooBig}.` });
    const fetched = (await git(["rev-parse", "FETCH_HEAD^{commit}"], fetch.run(what, repo))).trim();
    if (fetched !== commit)
      throw new RemoteRootError({
        code: "root-fetch-failed",
        message: `Cannot fetch ${url}: '${fetchRef}' moved from ${commit} to ${fetched} while fetching; try again.`,
      });
    // The caps and names, from the listing: an oversized or unsafe tree is refused before a byte is written.
    const listing = await git(["ls-tree", "-r", "-l", "-z", "--full-tree", commit], fetch.run(what, repo));
    const blobs = checkTreeListing(listing, url, limits);
    await mkdir(dest, { mode: 0o700 });
    let index = 0;
    for await (const data of catBlobs(blobs, fetch.run(what, repo))) {
      const blob = blobs[index++] as TreeBlob;
      await writeEntry(dest, { name: blob.name, type: "file", mode: blob.mode, size: blob.size }, data, url);
    }
    if (index !== blobs.length)
      throw new RemoteRootError({
        code: "root-fetch-failed",
        message: `Cannot ${what}: git gave too few objects.`,
      });
  } catch (error) {
    await rm(dest, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(repo, { recursive: true, force: true });
  }
}

/** One file of a git tree: its path, object id, size and permission bits. */
interface TreeBlob {
  name: string;
  oid: string;
  size: number;
  mode: number;
}

/**
 * The blobs of the tree `git ls-tree -r -l -z` listed, each checked as an archive entry would be (no
 * absolute path, `..`, `:` or `\`) and counted (each folder once) against the caps; refused past one.
 * Links (mode 120000) are files holding their target; submodules are skipped.
 */
function checkTreeListing(listing: string, url: string, limits: ArchiveLimits): TreeBlob[] {
  const tally: ArchiveTally = { entries: 0, bytes: 0 };
  const folders = new Set<string>();
  const blobs: TreeBlob[] = [];
  for (const record of listing.split("\0")) {
    if (record === "") continue;
    const tab = record.indexOf("\t");
    const [mode, type, oid, size] = record.slice(0, tab).split(/ +/);
    const name = record.slice(tab + 1);
    if (type !== "blob" || oid === undefined) continue;
    const entry = {
      name,
      type: "file" as const,
      mode: mode === "100755" ? 0o755 : 0o644,
      size: Number(size),
    };
    checkArchiveEntry(entry, url);
    for (let at = name.indexOf("/"); at > 0; at = name.indexOf("/", at + 1)) {
      const folder = name.slice(0, at);
      if (folders.has(folder)) continue;
      folders.add(folder);
      tallyEntry({ name: `${folder}/`, type: "dir", mode: 0o755, size: 0 }, tally, limits, url);
    }
    tallyEntry(entry, tally, limits, url);
    blobs.push({ name, oid, size: entry.size, mode: entry.mode });
  }
  return blobs;
}

/**
 * The contents of `blobs`, in order, from one `git cat-file --batch`; each must be a blob of exactly
 * its listed size, else a {@link RemoteRootError}.
 */
async function* catBlobs(blobs: readonly TreeBlob[], run: GitRun): AsyncGenerator<Buffer> {
  const child = spawn("git", ["cat-file", "--batch"], {
    cwd: run.cwd,
    env: gitEnv(),
    signal: run.signal,
    killSignal: "SIGKILL",
    stdio: ["pipe", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on("close", (code) => resolve(code));
    child.on("error", () => resolve(null));
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString();
  });
  child.stdin.on("error", () => {});
  child.stdin.end(blobs.map((blob) => `${blob.oid}\n`).join(""));
  const fail = (why: string): never => {
    throw new RemoteRootError({
      code: "root-fetch-failed",
      message: `Cannot ${run.what}: ${run.stopped() ?? why}.`,
    });
  };
  const pending: Buffer[] = [];
  let buffered = 0;
  const stream = child.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const fill = async (n: number): Promise<void> => {
    while (buffered < n) {
      const next = await stream.next().catch(() => ({ done: true as const, value: undefined }));
      if (next.done === true) {
        const code = await exited;
        fail(
          code === 0
            ? "git cat-file ended early"
            : (stderr.trim().split("\n").pop() ?? "git cat-file failed"),
        );
      }
      pending.push(next.value as Buffer);
      buffered += (next.value as Buffer).length;
    }
  };
  const take = (n: number): Buffer => {
    const all = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending);
    pending.length = 0;
    if (all.length > n) pending.push(all.subarray(n));
    buffered -= n;
    return all.subarray(0, n);
  };
  try {
    for (const blob of blobs) {
      // "<oid> blob <size>\n<content>\n"
      let newline = -1;
      while (newline < 0) {
        const all = Buffer.concat(pending);
        pending.length = 0;
        pending.push(all);
        newline = all.indexOf(0x0a);
        if (newline < 0) {
          if (buffered > 512) fail("git cat-file gave an unreadable answer");
          await fill(buffered + 1);
        }
      }
      const header = take(newline + 1)
        .toString("latin1")
        .trim();
      if (header !== `${blob.oid} blob ${blob.size}`)
        fail(`'${blob.name}' is not the blob of ${blob.size} bytes the tree lists (${header.slice(0, 100)})`);
      await fill(blob.size + 1);
      const data = Buffer.from(take(blob.size + 1).subarray(0, blob.size));
      yield data;
    }
  } finally {
    child.kill("SIGKILL");
    await exited;
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
