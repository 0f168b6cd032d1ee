/**
 * The state behind a server's `skill://` resources and SEP-2640 methods: the index of served skills
 * (rebuilt after `invalidate()`, which the server calls when a watched catalog changes) and the skill
 * entries of `skills/list` / `skills/get`. File digests and parsed frontmatters are kept per catalog, so
 * every session of one process (one per HTTP client) shares them.
 */

import { skillFrontmatter } from "../catalog/mcp-source/skill-frontmatter.js";
import type { Catalog } from "../catalog/types.js";
import type { SkillSession } from "../context/skill-session.js";
import { createFileDigests, type FileDigests } from "./file-digests.js";
import {
  createServedSkillIndex,
  type ServedFile,
  type ServedSkill,
  type ServedSkillIndex,
} from "./served-skill-index.js";
import { skillFileUri } from "./skill-uri.js";

/** One SEP-2640 skill entry. */
export interface SkillEntry {
  /** The URI of the skill's SKILL.md. */
  uri: string;
  /** The SKILL.md frontmatter, verbatim, as JSON. */
  frontmatter: Record<string, unknown>;
  /**
   * Every file of the skill (nested skills' included), each once, with the SHA-256 of its bytes and
   * their length (`size`: the same bytes the digest covers).
   */
  resources: { uri: string; digest: string; size: number }[];
}

/** SEP-2640's per-skill limits: a skill past either is not served as a skill (no host must accept it). */
export const SKILL_LIMITS = { resources: 512, totalBytes: 16 * 1024 * 1024 } as const;

/** Frontmatter `metadata` keys under this prefix are the protocol's (SEP-2640), never an author's. */
const RESERVED_METADATA_PREFIX = "io.modelcontextprotocol/";

/** What one entry could not be made of, or the entry. */
export type EntryResult = { entry: SkillEntry } | { problem: string };

/** See the module comment. */
export interface SkillServing {
  index(): ServedSkillIndex;
  invalidate(): void;
  /**
   * The entry of `skill`, with digests of the files as they are now; with `maxAgeMs`, an entry made
   * that recently (by any session) is reused — `skills/list` pages asked by many clients at once
   * check each file once, not once per client.
   */
  entry(skill: ServedSkill, maxAgeMs?: number): Promise<EntryResult>;
  /** Writes new digests to the cache directory now (when there is one). */
  flush(): void;
}

interface Shared {
  digests: FileDigests;
  /** Each skill's own files, listed once (until a watched change). */
  fileLists: Map<string, Promise<ServedFile[]>>;
  /** Recent entries by skill path and location, and when they were made. */
  entries: Map<string, { at: number; result: Promise<EntryResult> }>;
  /** Parsed frontmatters by the digest of their SKILL.md. */
  frontmatters: Map<string, Record<string, unknown> | undefined>;
}

const MAX_FRONTMATTERS = 50_000;
const shared = new WeakMap<Catalog, Shared>();

function sharedFor(catalog: Catalog, cacheDir: string | undefined): Shared {
  let state = shared.get(catalog);
  if (state === undefined) {
    state = {
      digests: createFileDigests(cacheDir === undefined ? {} : { cacheDir }),
      fileLists: new Map(),
      entries: new Map(),
      frontmatters: new Map(),
    };
    shared.set(catalog, state);
  }
  return state;
}

/**
 * The serving state of `session`. With `digestCacheDir` (the metadata cache directory), the digests of
 * the catalog's files are kept there across processes (the first session over a catalog decides).
 */
export function createSkillServing(session: SkillSession, digestCacheDir?: string): SkillServing {
  const { digests, fileLists, entries, frontmatters } = sharedFor(session.catalog, digestCacheDir);
  let index: ServedSkillIndex | undefined;
  const current = (): ServedSkillIndex => {
    index ??= createServedSkillIndex(session, digests, fileLists);
    return index;
  };
  return {
    index: current,
    flush: () => digests.flush(),
    invalidate() {
      index = undefined;
      fileLists.clear();
      entries.clear();
    },
    entry(skill, maxAgeMs) {
      const key = `${skill.path}\0${skill.record.location}`;
      const now = Date.now();
      const recent = entries.get(key);
      if (maxAgeMs !== undefined && recent !== undefined && now - recent.at <= maxAgeMs) return recent.result;
      const result = makeEntry(skill);
      entries.set(key, { at: now, result });
      result.catch(() => entries.delete(key));
      return result;
    },
  };

  async function makeEntry(skill: ServedSkill): Promise<EntryResult> {
    const files = await current().allFiles(skill);
    const skillMd = files[0];
    if (skillMd === undefined || skillMd.path !== "SKILL.md" || skillMd.owner !== skill.record)
      return { problem: `skill '${skill.path}' has no SKILL.md` };
    if (files.length > SKILL_LIMITS.resources)
      return {
        problem: `skill '${skill.path}' has ${files.length} files, over the ${SKILL_LIMITS.resources} a skill may have (SEP-2640's limit)`,
      };
    // SKILL.md is read only when its content is new: its frontmatter is kept by digest.
    let md = await current().digest(skillMd);
    let frontmatter = frontmatters.get(md.digest);
    if (!frontmatters.has(md.digest)) {
      // Parsed by an earlier process (kept with the digests), else read and parsed now.
      const kept = digests.frontmatter(md.digest);
      if (kept !== undefined) frontmatter = kept ?? undefined;
      else {
        const read = await current().read(skillMd);
        md = { digest: read.digest, size: read.bytes.length };
        frontmatter = skillFrontmatter(read.bytes);
        digests.rememberFrontmatter(md.digest, frontmatter ?? null);
      }
      if (frontmatters.size >= MAX_FRONTMATTERS) frontmatters.clear();
      frontmatters.set(md.digest, frontmatter);
    }
    if (frontmatter === undefined) return { problem: `the SKILL.md of '${skill.path}' has no frontmatter` };
    if (frontmatter["name"] !== skill.record.name)
      return {
        problem: `the frontmatter name of '${skill.path}' is not '${skill.record.name}' (SEP-2640 requires the last path segment to equal it)`,
      };
    if (typeof frontmatter["description"] !== "string")
      return { problem: `the frontmatter of '${skill.path}' has no description` };
    const reserved = reservedMetadataKey(frontmatter);
    if (reserved !== undefined)
      return {
        problem: `the frontmatter of '${skill.path}' uses metadata key '${reserved}', reserved for the protocol (SEP-2640)`,
      };
    const resources = [{ uri: skillFileUri(skill.path, "SKILL.md"), ...md }];
    let total = md.size;
    for (const file of files.slice(1)) {
      const digested = await current().digest(file);
      total += digested.size;
      if (total > SKILL_LIMITS.totalBytes)
        return {
          problem: `the files of skill '${skill.path}' are over the ${SKILL_LIMITS.totalBytes} bytes a skill may hold (SEP-2640's limit)`,
        };
      resources.push({ uri: skillFileUri(skill.path, file.path), ...digested });
    }
    return { entry: { uri: resources[0]!.uri, frontmatter, resources } };
  }
}

/** The first `metadata` key of `frontmatter` under the protocol's reserved prefix, if any. */
function reservedMetadataKey(frontmatter: Record<string, unknown>): string | undefined {
  const metadata = frontmatter["metadata"];
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) return undefined;
  return Object.keys(metadata).find((key) => key.startsWith(RESERVED_METADATA_PREFIX));
}
