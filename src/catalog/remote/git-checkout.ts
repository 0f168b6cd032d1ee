/**
 * Git roots through the system `git`: the ref resolved to a commit (`git ls-remote`), then that commit
 * fetched shallow (`--depth 1`) into a fresh folder and checked out without its `.git` directory.
 */
import { execFile } from "node:child_process";
import { lstat, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { type ArchiveLimits, countEntryBytes, defaultArchiveLimits } from "./archive-entry.js";
import { RemoteRootError } from "./remote-root-error.js";

const GIT_TIMEOUT_MS = 120_000;

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

function git(args: string[], what: string, cwd?: string, abortSignal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      args,
      {
        env: gitEnv(),
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: 16 * 1024 * 1024,
        ...(cwd === undefined ? {} : { cwd }),
        ...(abortSignal === undefined ? {} : { signal: abortSignal }),
      },
      (error, stdout, stderr) => {
        if (error === null) return resolve(stdout);
        const code = (error as NodeJS.ErrnoException).code;
        const detail =
          code === "ENOENT"
            ? "the git command is not installed"
            : (stderr.trim().split("\n").pop() ?? error.message).slice(0, 300);
        reject(new RemoteRootError({ code: "root-fetch-failed", message: `Cannot ${what}: ${detail}.` }));
      },
    );
  });
}

/**
 * The commit `ref` names in the repository at `url` (HEAD when undefined): a full 40/64-hex commit id
 * as given, else the peeled tag, branch or other ref `git ls-remote` lists for it.
 */
export async function resolveGitRef(
  url: string,
  ref: string | undefined,
  abortSignal?: AbortSignal,
): Promise<string> {
  if (ref !== undefined && /^([0-9a-f]{40}|[0-9a-f]{64})$/i.test(ref)) return ref.toLowerCase();
  const wanted = ref ?? "HEAD";
  const out = await git(
    ["ls-remote", "--", url, wanted, `${wanted}^{}`],
    `list the refs of ${url}`,
    undefined,
    abortSignal,
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
 * (`core.symlinks=false`), and removes `dest/.git`; a tree past the archive caps (64 MiB per file,
 * 256 MiB in total) is refused. `fetchRef` is what is asked of the server: the ref
 * name when there is one (every server serves those), else the commit id.
 */
export async function checkoutGitCommit(
  url: string,
  fetchRef: string,
  commit: string,
  dest: string,
  abortSignal?: AbortSignal,
  limits: ArchiveLimits = defaultArchiveLimits,
): Promise<void> {
  const what = `fetch ${url}`;
  await git(["init", "-q", dest], what, undefined, abortSignal);
  await git(
    ["-c", "protocol.file.allow=always", "fetch", "-q", "--depth", "1", "--no-tags", "--", url, fetchRef],
    what,
    dest,
    abortSignal,
  );
  const fetched = (await git(["rev-parse", "FETCH_HEAD^{commit}"], what, dest, abortSignal)).trim();
  if (fetched !== commit)
    throw new RemoteRootError({
      code: "root-fetch-failed",
      message: `Cannot fetch ${url}: '${fetchRef}' moved from ${commit} to ${fetched} while fetching; try again.`,
    });
  await git(
    ["-c", "core.symlinks=false", "-c", "advice.detachedHead=false", "checkout", "-q", commit],
    what,
    dest,
    abortSignal,
  );
  await rm(path.join(dest, ".git"), { recursive: true, force: true });
  await checkTreeSize(dest, url, limits);
}

/** Refuses a checkout with a file over the per-file cap or more than the total cap, as for archives. */
async function checkTreeSize(dest: string, url: string, limits: ArchiveLimits): Promise<void> {
  let total = 0;
  for (const entry of await readdir(dest, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const { size } = await lstat(file);
    const name = path.relative(dest, file).split(path.sep).join("/");
    total = countEntryBytes({ name, type: "file", mode: 0o644, size }, total, limits, url);
  }
}
