/**
 * A site's Agent Skills discovery index (`/.well-known/agent-skills/index.json`, the Agent Skills
 * Discovery RFC) as a root: the index names each skill's artifact — a `SKILL.md` (`type: "skill-md"`) or
 * an archive of the skill's folder (`type: "archive"`) — with the SHA-256 of its bytes. Every artifact is
 * fetched, checked against its digest and written under `<tree>/<name>/`; one mismatch refuses the root
 * (the index and what it names disagree: nothing of it is used), naming both digests.
 *
 * Index formats read: the RFC's v0.2.0 (`$schema` …/discovery/0.2.0/schema.json; entries with `type`,
 * `url`, `digest`), its earlier v0.2.0 draft (`version: "0.2.0"`; `files` of `{ path, digest }`), and
 * v0.1.0 (no `$schema`; `files` of paths, no digests — read with a warning that nothing could be
 * verified). An unknown `$schema` or major version is refused.
 */
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ArchiveLimits } from "./archive-entry.js";
import { extractArchive } from "./extract-archive.js";
import { fetchCapped } from "./fetch-capped.js";
import { redactUrl } from "./redact-url.js";
import { RemoteRootError } from "./remote-root-error.js";
import { formatFromName } from "./root-spec.js";
import type { TransferLimits } from "./transfer-limits.js";

/** The RFC's v0.2.0 schema URI. */
export const DISCOVERY_SCHEMA_0_2 = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

/** Most skills one index may list. */
export const MAX_INDEX_SKILLS = 10_000;

/** Largest index read. */
export const MAX_INDEX_BYTES = 8 * 1024 * 1024;

/** Skill names as the spec allows them (the folder each skill is written to). */
const SKILL_NAME = /^[a-z0-9](?:[a-z0-9]|-(?!-)){0,62}[a-z0-9]?$/;

/** A file path of an index (RFC: relative, `/`-separated, printable ASCII, no `..`). */
const FILE_PATH = /^(?!\/)(?!.*(?:^|\/)\.\.?(?:\/|$))[\x20-\x7e]+$/;

/** One artifact to fetch for a skill. */
interface Artifact {
  /** Where it goes below the skill's folder (`SKILL.md`, `scripts/run.sh`), or undefined for an archive. */
  file?: string;
  url: string;
  /** `sha256:<hex>`; undefined only for a v0.1.0 index. */
  digest?: string;
}

/** One skill of the index. */
export interface IndexedSkill {
  name: string;
  description: string;
  artifacts: Artifact[];
}

/** A parsed index. */
export interface DiscoveryIndex {
  skills: IndexedSkill[];
  /** Set for a v0.1.0 index: its content cannot be verified. */
  unverified?: true;
}

/** Options of {@link fillFromIndex}. */
export interface FillFromIndexOptions {
  fetch?: typeof globalThis.fetch;
  transfer: TransferLimits;
  /** Most bytes of all artifacts together. */
  maxBytes: number;
  limits?: ArchiveLimits;
  abortSignal?: AbortSignal;
}

/** Parses the index fetched from `indexUrl` (artifact URLs resolved against it), or throws why not. */
export function parseDiscoveryIndex(bytes: Buffer, indexUrl: string): DiscoveryIndex {
  const where = redactUrl(indexUrl);
  const refuse = (why: string): never => {
    throw new RemoteRootError({
      code: "root-fetch-failed",
      message: `${where}: not a usable agent skills index — ${why}.`,
    });
  };
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    return refuse(`it is not JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return refuse("it is not a JSON object");
  const index = value as Record<string, unknown>;
  const schema = index.$schema;
  const version = index.version;
  let format: "0.2" | "0.2-draft" | "0.1";
  if (schema !== undefined) {
    if (schema !== DISCOVERY_SCHEMA_0_2)
      return refuse(`its $schema '${String(schema)}' is not one skillrt reads`);
    format = "0.2";
  } else if (version !== undefined) {
    if (version !== "0.2.0" && version !== "0.1.0")
      return refuse(`its version '${String(version)}' is not one skillrt reads`);
    format = version === "0.2.0" ? "0.2-draft" : "0.1";
  } else {
    format = "0.1";
  }
  if (!Array.isArray(index.skills)) return refuse("it has no skills array");
  if (index.skills.length > MAX_INDEX_SKILLS)
    return refuse(`it lists ${index.skills.length} skills, over the limit of ${MAX_INDEX_SKILLS}`);
  const secure = new URL(indexUrl).protocol === "https:";
  const resolve = (url: unknown, what: string): string => {
    if (typeof url !== "string" || url === "") return refuse(`${what} has no url`);
    let resolved: URL;
    try {
      resolved = new URL(url, indexUrl);
    } catch {
      return refuse(`${what} has an invalid url`);
    }
    if (resolved.protocol !== "https:" && !(resolved.protocol === "http:" && !secure))
      return refuse(`${what}'s url ${redactUrl(resolved.href)} is not ${secure ? "https" : "http(s)"}`);
    return resolved.href;
  };
  const digestOf = (digest: unknown, what: string): string => {
    if (typeof digest !== "string" || !/^sha256:[0-9a-f]{64}$/.test(digest))
      return refuse(`${what} has no sha256:<64 hex digits> digest`);
    return digest;
  };
  const skills: IndexedSkill[] = [];
  const seen = new Set<string>();
  for (const raw of index.skills as unknown[]) {
    if (raw === null || typeof raw !== "object") return refuse("a skills entry is not an object");
    const entry = raw as Record<string, unknown>;
    const name = entry.name;
    if (typeof name !== "string" || !SKILL_NAME.test(name))
      return refuse(`the skill name ${JSON.stringify(name)} is not a valid skill name`);
    if (seen.has(name)) return refuse(`the skill '${name}' is listed twice`);
    seen.add(name);
    const description = typeof entry.description === "string" ? entry.description : "";
    const what = `skill '${name}'`;
    if (format === "0.2") {
      const type = entry.type;
      // Unknown types are for later versions: the RFC says skip them.
      if (type !== "skill-md" && type !== "archive") continue;
      const url = resolve(entry.url, what);
      const digest = digestOf(entry.digest, what);
      skills.push({
        name,
        description,
        artifacts: [type === "skill-md" ? { file: "SKILL.md", url, digest } : { url, digest }],
      });
      continue;
    }
    // Draft v0.2.0 and v0.1.0: files served at <index dir>/<name>/<path>.
    if (!Array.isArray(entry.files) || entry.files.length === 0) return refuse(`${what} lists no files`);
    const artifacts: Artifact[] = [];
    for (const file of entry.files as unknown[]) {
      const filePath = typeof file === "string" ? file : (file as Record<string, unknown> | null)?.path;
      if (typeof filePath !== "string" || !FILE_PATH.test(filePath) || /[\\?#[\]]/.test(filePath))
        return refuse(`${what} lists the file ${JSON.stringify(filePath)}, not a relative path`);
      const url = resolve(`${name}/${filePath}`, what);
      if (format === "0.1") artifacts.push({ file: filePath, url });
      else
        artifacts.push({
          file: filePath,
          url,
          digest: digestOf((file as Record<string, unknown>).digest, `${what}'s ${filePath}`),
        });
    }
    if (!artifacts.some((a) => a.file === "SKILL.md")) return refuse(`${what} lists no SKILL.md`);
    skills.push({ name, description, artifacts });
  }
  return format === "0.1" ? { skills, unverified: true } : { skills };
}

/**
 * Fetches every artifact of `index` into `tree/<name>/`, each checked against its digest first (a
 * mismatch throws `root-digest-mismatch` naming the skill, the URL and both digests).
 */
export async function fillFromIndex(
  index: DiscoveryIndex,
  tree: string,
  options: FillFromIndexOptions,
): Promise<void> {
  let budget = options.maxBytes;
  await mkdir(tree, { recursive: true, mode: 0o755 });
  for (const skill of index.skills) {
    options.abortSignal?.throwIfAborted();
    const dir = path.join(tree, skill.name);
    for (const artifact of skill.artifacts) {
      const bytes = await fetchCapped(artifact.url, {
        maxBytes: budget,
        transfer: options.transfer,
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
      });
      budget -= bytes.byteLength;
      const actual = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
      if (artifact.digest !== undefined && artifact.digest !== actual)
        throw new RemoteRootError({
          code: "root-digest-mismatch",
          message: `${redactUrl(artifact.url)} (skill '${skill.name}'): sha256 mismatch — the index gives ${artifact.digest} but the content is ${actual}; the root is refused.`,
        });
      if (artifact.file === undefined) {
        await extractArchive(bytes, dir, {
          format: formatFromName(new URL(artifact.url).pathname),
          archive: redactUrl(artifact.url),
          ...(options.limits === undefined ? {} : { limits: options.limits }),
        });
        continue;
      }
      const file = path.join(dir, ...artifact.file.split("/"));
      await mkdir(path.dirname(file), { recursive: true, mode: 0o755 });
      // `wx`: a path listed twice (or under a file) is refused, never written over.
      await writeFile(file, bytes, { mode: 0o644, flag: "wx" });
    }
  }
}
