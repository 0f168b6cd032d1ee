/**
 * The root specs that name something to fetch rather than a folder: archive URLs, a bare SKILL.md URL, a
 * site's agent skills index (`https://example.com/`, or the index URL itself), git repositories and local
 * archive files, each with an optional `#sha256=<hex>` pin (of the archive, SKILL.md or index bytes).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RemoteRootError } from "./remote-root-error.js";

/** How a root's content is obtained. */
export type RootSpecKind = "archive-url" | "skill-md-url" | "well-known" | "git" | "local-archive";

/** The index path below a site (Agent Skills Discovery RFC v0.2.0). */
export const WELL_KNOWN_INDEX = ".well-known/agent-skills/index.json";

/** Archive formats read by the module (chosen by extension, else by magic bytes). */
export type ArchiveFormat = "zip" | "tar" | "tar.gz";

/** A parsed remote or archive root spec. */
export interface RootSpec {
  kind: RootSpecKind;
  /** The spec as the user wrote it, without the `#sha256=` pin: the cache key and the source shown. */
  source: string;
  /**
   * What is fetched: an http(s) URL (for `well-known`, the index's), a git URL (without `git+` and the
   * ref), or an absolute file path.
   */
  location: string;
  /** The archive format the extension names, when it names one. */
  format?: ArchiveFormat;
  /** Git: the ref after `#` (branch, tag or commit); undefined means the remote's HEAD. */
  ref?: string;
  /** Lower-case hex SHA-256 the fetched bytes (archives, SKILL.md) must have. */
  sha256?: string;
}

const ARCHIVE_EXTENSIONS: ReadonlyArray<[string, ArchiveFormat]> = [
  [".tar.gz", "tar.gz"],
  [".tgz", "tar.gz"],
  [".tar", "tar"],
  [".zip", "zip"],
];

/** The format a file name's extension names, or undefined. */
export function formatFromName(name: string): ArchiveFormat | undefined {
  const lower = name.toLowerCase();
  return ARCHIVE_EXTENSIONS.find(([ext]) => lower.endsWith(ext))?.[1];
}

/**
 * True when `spec` names a remote or archive root (`http(s)://`, `git+…`, `file://`, or a path ending in
 * `.zip`, `.tar`, `.tar.gz`, `.tgz`), false for a plain folder path.
 */
export function isRemoteRootSpec(spec: string): boolean {
  return /^(https?:|git\+|file:)/i.test(spec) || formatFromName(stripPin(spec).rest) !== undefined;
}

/**
 * Parses a root spec (relative paths against `cwd`). Returns undefined for a plain folder path; throws
 * {@link RemoteRootError} for a spec skillrt cannot fetch (unsupported scheme, a `file://` URL of another
 * host, a malformed pin).
 */
export function parseRootSpec(spec: string, cwd: string): RootSpec | undefined {
  if (!isRemoteRootSpec(spec)) return undefined;
  const { rest, sha256 } = stripPin(spec);
  const pin = sha256 === undefined ? {} : { sha256 };
  if (/^git\+/i.test(rest)) {
    const hash = rest.indexOf("#");
    const url = rest.slice(4, hash < 0 ? undefined : hash);
    const ref = hash < 0 ? undefined : rest.slice(hash + 1);
    if (!/^(https?|file|ssh):/i.test(url))
      refuse(spec, "git roots are git+https://, git+ssh:// or git+file:// URLs");
    if (/^file:/i.test(url)) localPath(url, spec);
    if (ref !== undefined && (ref === "" || ref.startsWith("-") || /[\s~^:?*[\\]/.test(ref)))
      refuse(spec, `'${ref}' is not a git ref`);
    return { kind: "git", source: rest, location: url, ...(ref === undefined ? {} : { ref }), ...pin };
  }
  if (/^https?:/i.test(rest)) {
    let url: URL;
    try {
      url = new URL(rest);
    } catch {
      return refuse(spec, "it is not a valid URL");
    }
    const format = formatFromName(url.pathname);
    if (format !== undefined)
      return { kind: "archive-url", source: rest, location: url.href, format, ...pin };
    if (path.posix.basename(url.pathname) === "SKILL.md")
      return { kind: "skill-md-url", source: rest, location: url.href, ...pin };
    // A site's agent skills index, named or implied by a site URL ending in `/` (`https://example.com`).
    if (/\/\.well-known\/(?:agent-skills|skills)\/index\.json$/.test(url.pathname))
      return { kind: "well-known", source: rest, location: url.href, ...pin };
    if (url.pathname.endsWith("/") && url.search === "")
      return {
        kind: "well-known",
        source: rest,
        location: new URL(`${url.pathname}${WELL_KNOWN_INDEX}`, url).href,
        ...pin,
      };
    // Neither: the payload's magic bytes decide (a zip or a gzip stream), as trpc-agent-go does.
    return { kind: "archive-url", source: rest, location: url.href, ...pin };
  }
  const file = /^file:/i.test(rest) ? localPath(rest, spec) : path.resolve(cwd, rest);
  const format = formatFromName(file);
  if (format === undefined) {
    // A file:// URL of a folder is a plain root.
    if (/^file:/i.test(rest)) return undefined;
    return refuse(spec, "only .zip, .tar, .tar.gz and .tgz files can be roots");
  }
  return { kind: "local-archive", source: file, location: file, format, ...pin };
}

/** The path of a `file://` URL, which must name the local host (empty or `localhost`). */
export function localPath(url: string, spec: string = url): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse(spec, "it is not a valid URL");
  }
  if (parsed.hostname !== "" && parsed.hostname !== "localhost")
    refuse(spec, `file:// URLs must name the local host (got '${parsed.hostname}')`);
  return fileURLToPath(new URL(`file://${parsed.pathname}`));
}

function stripPin(spec: string): { rest: string; sha256?: string } {
  const match = /[#&]sha256=([^#&]*)$/i.exec(spec);
  if (match === null) return { rest: spec };
  const hex = (match[1] ?? "").toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(hex)) refuse(spec, `#sha256= takes 64 hex digits (got '${match[1] ?? ""}')`);
  return { rest: spec.slice(0, match.index), sha256: hex };
}

function refuse(spec: string, why: string): never {
  throw new RemoteRootError({ code: "root-fetch-failed", message: `Cannot use root '${spec}': ${why}.` });
}
