/**
 * Turns a remote or archive root spec into a verified local folder in skillrt's cache, which the
 * catalog then scans like any root. Layout under `<cacheDir>/remote/` (0700, owned by the user):
 *
 * - `<source key>-<digest>/tree/` — the content of one source at one digest (SHA-256 of the bytes, or the
 *   git commit), with `origin.json` beside `tree/`; never changed once in place;
 * - `<source key>.json` — which digest the source resolved to last (read when offline);
 * - `tmp/` — where downloads are extracted, then renamed into place (a rename either lands whole or
 *   finds another process's identical copy, which is kept). Each entry carries the pid of the process
 *   making it (`fetch-<pid>.<host tag>-…`, `<key>.json.<pid>.<host tag>.<time>`); what a killed process of this
 *   host left there is removed at the next materialization, once that pid is no longer running.
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { hostTag } from "../../util/host-tag.js";
import { removeDeadPidLeftovers } from "../../util/remove-dead-pid-leftovers.js";
import type { ArchiveLimits } from "./archive-entry.js";
import { extractArchive } from "./extract-archive.js";
import { fetchCapped, MAX_DOWNLOAD_BYTES } from "./fetch-capped.js";
import { checkoutGitCommit, resolveGitRef, startGitFetch } from "./git-checkout.js";
import { ensurePrivateDir, ensureRemoteCache } from "./private-dir.js";
import { redactUrl } from "./redact-url.js";
import { RemoteRootError } from "./remote-root-error.js";
import type { RootSpec } from "./root-spec.js";
import { defaultTransferLimits, type TransferLimits, transferLimitsFromEnv } from "./transfer-limits.js";
import { fillFromIndex, MAX_INDEX_BYTES, parseDiscoveryIndex } from "./well-known-index.js";

/** Options of {@link materializeRoot}. */
export interface MaterializeRootOptions {
  /** skillrt's cache directory; remote roots live in its `remote/` folder. */
  cacheDir: string;
  /** Fetch again even when a cached copy exists (a pinned digest or commit already cached is kept). Default false. */
  refresh?: boolean;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Caps of archive extraction. Default 64 MiB per file, 256 MiB in total. */
  limits?: ArchiveLimits;
  /** Most bytes downloaded (for git: the objects fetched). Default 64 MiB. */
  maxDownloadBytes?: number;
  /**
   * Deadline and minimum rate of each root's fetch. Default: from `env` when given
   * ({@link transferLimitsFromEnv}: `SKILLRT_REMOTE_TIMEOUT`, `SKILLRT_REMOTE_LOW_SPEED_LIMIT`,
   * `SKILLRT_REMOTE_LOW_SPEED_TIME`), else 120 s and 1 KiB/s over 30 s.
   */
  transfer?: TransferLimits;
  /** The environment the transfer limits are read from (the caller's preset passes it; never read here). */
  env?: Record<string, string | undefined>;
  abortSignal?: AbortSignal;
}

/** A root in place. */
export interface MaterializedRoot {
  /** Real path of the folder to scan. */
  path: string;
  /** `sha256:<hex>` of the fetched bytes, or `git:<commit>`. */
  digest: string;
  /** True when no fetch happened (the cached copy was used). */
  fromCache: boolean;
  /** Set when a fetch failed and the last cached copy is used instead. */
  warning?: string;
}

interface Pointer {
  source: string;
  digest: string;
  dir: string;
}

/**
 * The local folder holding `spec`'s content: the cached copy when there is one (and it matches the
 * spec's pin), else fetched, checked and extracted now. Throws a {@link RemoteRootError} (which the
 * caller reports as a diagnostic) when the root cannot be had.
 */
export async function materializeRoot(
  spec: RootSpec,
  options: MaterializeRootOptions,
): Promise<MaterializedRoot> {
  if (spec.kind === "git" && spec.sha256 !== undefined)
    throw new RemoteRootError({
      code: "root-fetch-failed",
      message: `Cannot use root '${spec.source}': a git root is pinned by its commit (#<commit id>), not #sha256=.`,
    });
  const base = path.join(options.cacheDir, "remote");
  await ensureRemoteCache(options.cacheDir, base);
  await ensurePrivateDir(path.join(base, "tmp"));
  // Partial extractions and pointer files of processes killed mid-fetch.
  await removeDeadPidLeftovers(path.join(base, "tmp"), { pidOf: tmpEntryPid, folders: true });
  const key = createHash("sha256").update(spec.source).digest("hex").slice(0, 32);
  const pointerFile = path.join(base, `${key}.json`);
  const contentDir = (digest: string) =>
    path.join(base, `${key}-${digest.replace(/^[a-z0-9]+:/, "").slice(0, 40)}`);
  const found = async (digest: string): Promise<string | undefined> => {
    const tree = path.join(contentDir(digest), "tree");
    return (await isDir(tree)) ? realpath(tree) : undefined;
  };

  if (spec.kind === "local-archive") {
    const bytes = await readLocal(spec.location);
    const digest = verifyDigest(spec, bytes);
    const cached = await found(digest);
    if (cached !== undefined) return { path: cached, digest, fromCache: true };
    return publish(base, contentDir(digest), pointerFile, spec, digest, (tree) =>
      extractArchive(bytes, tree, { format: spec.format, archive: spec.location, ...limitsOf(options) }),
    );
  }

  const pointer = await readPointer(pointerFile);
  const pinned = spec.sha256 === undefined ? undefined : `sha256:${spec.sha256}`;
  if (pinned !== undefined) {
    const cached = await found(pinned);
    if (cached !== undefined) return { path: cached, digest: pinned, fromCache: true };
  } else if (options.refresh !== true && pointer !== undefined) {
    const cached = await found(pointer.digest);
    if (cached !== undefined) return { path: cached, digest: pointer.digest, fromCache: true };
  }

  const transfer =
    options.transfer ??
    (options.env === undefined ? defaultTransferLimits : transferLimitsFromEnv(options.env));
  try {
    if (spec.kind === "git") {
      const fetch = startGitFetch({
        transfer,
        ...limitsOf(options),
        ...(options.maxDownloadBytes === undefined ? {} : { maxDownloadBytes: options.maxDownloadBytes }),
        ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
      });
      try {
        const commit = await resolveGitRef(spec.location, spec.ref, fetch);
        const digest = `git:${commit}`;
        const cached = await found(digest);
        if (cached !== undefined) {
          await writePointer(base, pointerFile, { source: spec.source, digest, dir: contentDir(digest) });
          return { path: cached, digest, fromCache: true };
        }
        return await publish(base, contentDir(digest), pointerFile, spec, digest, (tree) =>
          checkoutGitCommit(spec.location, spec.ref ?? commit, commit, tree, fetch, {
            ...limitsOf(options),
            ...(options.maxDownloadBytes === undefined ? {} : { maxDownloadBytes: options.maxDownloadBytes }),
          }),
        );
      } finally {
        fetch.done();
      }
    }
    const bytes = await fetchCapped(spec.location, {
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(spec.kind === "well-known"
        ? { maxBytes: Math.min(MAX_INDEX_BYTES, options.maxDownloadBytes ?? MAX_INDEX_BYTES) }
        : options.maxDownloadBytes === undefined
          ? {}
          : { maxBytes: options.maxDownloadBytes }),
      ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
      transfer,
    });
    const digest = verifyDigest(spec, bytes);
    const cached = await found(digest);
    if (cached !== undefined) {
      await writePointer(base, pointerFile, { source: spec.source, digest, dir: contentDir(digest) });
      return { path: cached, digest, fromCache: true };
    }
    if (spec.kind === "well-known") {
      // Parsed before anything is fetched: a broken index costs one request.
      const index = parseDiscoveryIndex(bytes, spec.location);
      const published = await publish(base, contentDir(digest), pointerFile, spec, digest, (tree) =>
        fillFromIndex(index, tree, {
          transfer,
          maxBytes: options.maxDownloadBytes ?? MAX_DOWNLOAD_BYTES,
          ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
          ...limitsOf(options),
          ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
        }),
      );
      return index.unverified === true
        ? {
            ...published,
            warning: `${redactUrl(spec.location)} is a v0.1.0 agent skills index: it gives no digests, so its skills could not be verified.`,
          }
        : published;
    }
    return await publish(base, contentDir(digest), pointerFile, spec, digest, (tree) =>
      spec.kind === "skill-md-url"
        ? writeSkillMd(bytes, tree, spec.location)
        : extractArchive(bytes, tree, { format: spec.format, archive: spec.location, ...limitsOf(options) }),
    );
  } catch (error) {
    // Offline (or the server down): the last good copy is still the root, with a warning.
    if (error instanceof RemoteRootError && error.code === "root-fetch-failed" && pointer !== undefined) {
      const cached =
        pinned === undefined || pinned === pointer.digest ? await found(pointer.digest) : undefined;
      if (cached !== undefined)
        return {
          path: cached,
          digest: pointer.digest,
          fromCache: true,
          warning: `${error.message} Using the cached copy.`,
        };
    }
    throw error;
  }
}

/**
 * The pid in the name of an entry of `tmp/` made on this host (`fetch-<pid>.<host tag>-…`,
 * `<key>.json.<pid>.<host tag>.<time>`); `undefined` for another host's (a cache shared over the network).
 */
function tmpEntryPid(name: string): number | undefined {
  const match = /^fetch-(\d+)\.([0-9a-f]{8})-|^[0-9a-f]+\.json\.(\d+)\.([0-9a-f]{8})\.\d+$/.exec(name);
  if (match === null || (match[2] ?? match[4]) !== hostTag()) return undefined;
  return Number(match[1] ?? match[3]);
}

function limitsOf(options: MaterializeRootOptions): { limits?: ArchiveLimits } {
  return options.limits === undefined ? {} : { limits: options.limits };
}

/** `sha256:<hex>` of `bytes`; refuses them when the spec pins another digest (both named). */
function verifyDigest(spec: RootSpec, bytes: Buffer): string {
  const hex = createHash("sha256").update(bytes).digest("hex");
  if (spec.sha256 !== undefined && spec.sha256 !== hex)
    throw new RemoteRootError({
      code: "root-digest-mismatch",
      message: `${spec.location}: sha256 mismatch — the root pins ${spec.sha256} but the content is ${hex}; refused.`,
    });
  return `sha256:${hex}`;
}

/**
 * Builds the content in a fresh folder under `tmp/` (by `fill`, into its `tree/`), then renames it to
 * `dir`. When another process renamed the same content there first, its copy is kept and ours removed.
 */
async function publish(
  base: string,
  dir: string,
  pointerFile: string,
  spec: RootSpec,
  digest: string,
  fill: (tree: string) => Promise<void>,
): Promise<MaterializedRoot> {
  const work = await mkdtemp(path.join(base, "tmp", `fetch-${process.pid}.${hostTag()}-`));
  try {
    await fill(path.join(work, "tree"));
    const origin = {
      source: redactUrl(spec.source),
      kind: spec.kind,
      digest,
      fetchedAt: new Date().toISOString(),
    };
    await writeFile(path.join(work, "origin.json"), `${JSON.stringify(origin, null, 2)}\n`, { mode: 0o600 });
    try {
      await rename(work, dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST" && code !== "ENOTEMPTY") throw error;
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  await writePointer(base, pointerFile, { source: spec.source, digest, dir });
  return { path: await realpath(path.join(dir, "tree")), digest, fromCache: false };
}

async function writePointer(base: string, file: string, pointer: Pointer): Promise<void> {
  const temp = path.join(base, "tmp", `${path.basename(file)}.${process.pid}.${hostTag()}.${Date.now()}`);
  // The source is only informational here (the key is its hash): stored without credentials.
  await writeFile(temp, `${JSON.stringify({ ...pointer, source: redactUrl(pointer.source) })}\n`, {
    mode: 0o600,
  });
  await rename(temp, file);
}

async function readPointer(file: string): Promise<Pointer | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(file, "utf8"));
    if (typeof value !== "object" || value === null) return undefined;
    const { source, digest, dir } = value as Record<string, unknown>;
    if (typeof source !== "string" || typeof digest !== "string" || typeof dir !== "string") return undefined;
    return { source, digest, dir };
  } catch {
    return undefined;
  }
}

async function readLocal(file: string): Promise<Buffer> {
  try {
    const info = await stat(file);
    if (info.size > 64 * 1024 * 1024)
      throw new RemoteRootError({
        code: "root-fetch-failed",
        message: `${file}: over the 64 MiB limit of an archive root.`,
      });
    return await readFile(file);
  } catch (error) {
    if (error instanceof RemoteRootError) throw error;
    throw new RemoteRootError({
      code: "path-not-found",
      message: `Cannot read archive ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
    });
  }
}

/** A bare SKILL.md URL becomes a one-skill root: `tree/<name>/SKILL.md`, the name from its frontmatter or URL. */
async function writeSkillMd(bytes: Buffer, tree: string, url: string): Promise<void> {
  const text = bytes.toString("utf8");
  const fromFrontmatter = /^---\r?\n(?:[^\n]*\n)*?name:\s*["']?([^"'\r\n]+)/.exec(text)?.[1];
  const fromUrl = path.posix.basename(path.posix.dirname(new URL(url).pathname));
  const name = [fromFrontmatter, fromUrl, "skill"]
    .map((n) =>
      (n ?? "")
        .trim()
        .toLowerCase()
        .replace(/[^a-z0-9-]+/g, "-")
        .replace(/^-+|-+$/g, "")
        .slice(0, 64),
    )
    .find((n) => n !== "") as string;
  await mkdir(path.join(tree, name), { recursive: true, mode: 0o755 });
  await writeFile(path.join(tree, name, "SKILL.md"), bytes, { mode: 0o644 });
}

async function isDir(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}
