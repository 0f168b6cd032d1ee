/**
 * Skills served over MCP (SEP-2640) as a catalog source: for each connected server that declares
 * `io.modelcontextprotocol/skills`, every `skills/list` page is read and its entries kept — no file is
 * fetched then (the SEP forbids fetching ahead of need). Files are fetched when a skill is loaded or read,
 * from the server that listed it only, and verified against the entry in hand (size, digest, and the
 * SKILL.md's frontmatter field by field); a failed check refreshes the entry with `skills/get` and throws
 * a {@link SkillVerificationError}. A skill whose SKILL.md failed is unusable as a whole: no other file of
 * it is fetched until a load verifies its SKILL.md again. An entry older than the `ttlMs` of the result
 * that carried it is refreshed (`skills/get`) before the skill is loaded; a server's
 * `notifications/resources/list_changed` re-reads its listing in the running process. A skill given only
 * by URI (`skill://…/SKILL.md`) is looked up with `skills/get` and joins the catalog like a listed one.
 * Verified files are kept in the disk cache ({@link createMcpFileCache}).
 */
import { SkillVerificationError } from "../../errors/skill-verification-error.js";
import { inSpan, SpanKind } from "../../util/trace-span.js";
import { normalizeSkillPath } from "../normalize-skill-path.js";
import { createMcpFileCache, MAX_MCP_SKILL_FILE_BYTES, type McpFileCache } from "./mcp-file-cache.js";
import type { SkillEntry } from "./skill-entry.js";
import { skillFrontmatter } from "./skill-frontmatter.js";
import { SKILLS_EXTENSION, skillRootUri } from "./skill-root-uri.js";
import type { SkillServer } from "./skill-server.js";
import { frontmatterMismatch, sha256Digest } from "./verify-skill-file.js";

/** The wire schemas (zod), loaded with the first server that declares the extension. */
const schemas = () => import("./skill-entry.js");

/** One skill a server lists; `entry` is replaced in place when it is refreshed. */
export interface McpServedSkill {
  /** The host's label of the server. */
  server: string;
  entry: SkillEntry;
  /** When the entry was received (ms since the epoch). */
  receivedAt?: number;
  /** How long the entry may be used before it is refreshed (the `ttlMs` of the result that carried it). */
  ttlMs?: number;
  /**
   * Why the skill's SKILL.md failed verification, until a load verifies it: while set, no other file of
   * the skill is fetched or returned.
   */
  unusable?: string;
}

/** Options of {@link createMcpSkillSource}. */
export interface McpSkillSourceOptions {
  /** Directory of the verified-file cache (trusted-cache rules). Default: no disk cache. */
  cacheDir?: string;
  /** Receives what a server does wrong (a malformed entry, a listing that fails). */
  onWarning?: (message: string) => void;
  /** Most `skills/list` pages read per server. Default 1,000. */
  maxPages?: number;
  /**
   * Most skills kept per server (a server's own `maxSkills` wins): a server may list a million, and each
   * entry is kept in memory. Past it the listing stops, with a warning naming the server. Default 10,000.
   */
  maxSkills?: number;
}

/** When a listing is read again after a list_changed (past the client's one-a-second coalescing). */
const RELIST_AGAIN_MS = 1200;

/** Default of {@link McpSkillSourceOptions.maxSkills}. */
export const DEFAULT_MAX_MCP_SKILLS = 10_000;

/** A verified file, or why it was refused. */
export type McpFileRead =
  | { ok: true; bytes: Uint8Array; mimeType: string | undefined }
  | { ok: false; reason: string; listed: string[] };

/** The source: entries by server, verified fetches. */
export interface McpSkillSource {
  /**
   * Reads every `skills/list` page of `server` when it declares the extension (else nothing happens), and
   * re-reads them whenever the server says its resources changed.
   */
  connect(server: SkillServer, abortSignal?: AbortSignal): Promise<void>;
  /**
   * The skill whose SKILL.md is at `uri` (`skill://…/SKILL.md`, or the skill's root): a listed one, else
   * the entry a connected server's `skills/get` gives, which then joins the listing. A string says why
   * none could be found (or which servers' skills the URI could mean).
   */
  lookup(uri: string, abortSignal?: AbortSignal): Promise<McpServedSkill | string>;
  /** Calls `listener` after each change of the skill set (a re-read listing); returns the unsubscribe. */
  onChange(listener: (change: { added: string[]; removed: string[]; changed: string[] }) => void): () => void;
  /** Drops the skills of a server that stopped. */
  disconnect(label: string): void;
  /** Every listed skill, servers in connection order, each server's in listing order. */
  skills(): readonly McpServedSkill[];
  /** Changes whenever the skill set or an entry does. */
  revision(): number;
  /** The verified SKILL.md of `skill`. Throws {@link SkillVerificationError} (entry refreshed) on a mismatch. */
  loadSkillMd(skill: McpServedSkill, abortSignal?: AbortSignal): Promise<Uint8Array>;
  /**
   * File `relPath` (relative to the skill root) of `skill`, verified. A path the entry does not list is
   * refused (a verification failure: the entry is refreshed); a digest mismatch throws as {@link loadSkillMd}.
   */
  readFile(skill: McpServedSkill, relPath: string, abortSignal?: AbortSignal): Promise<McpFileRead>;
  /** The skill's files (paths relative to its root), from its entry; mime types from `resources/directory/read` when declared. */
  files(
    skill: McpServedSkill,
    abortSignal?: AbortSignal,
  ): Promise<Array<{ path: string; mimeType?: string }>>;
  /** Where verified files are cached. */
  cache: McpFileCache;
}

interface ServerState {
  server: SkillServer;
  directoryRead: boolean;
  skills: McpServedSkill[];
}

/** The caching attributes of a list or get result (SEP-2549), when it carried them. */
function ttlOf(raw: unknown): number | undefined {
  const ttl = typeof raw === "object" && raw !== null ? (raw as { ttlMs?: unknown }).ttlMs : undefined;
  return typeof ttl === "number" && Number.isFinite(ttl) && ttl >= 0 ? ttl : undefined;
}

/** Creates an empty source; servers join with {@link McpSkillSource.connect}. */
export function createMcpSkillSource(options: McpSkillSourceOptions = {}): McpSkillSource {
  const servers = new Map<string, ServerState>();
  const cache = createMcpFileCache(options.cacheDir);
  const warn = options.onWarning ?? (() => undefined);
  let revision = 0;
  let all: McpServedSkill[] = [];
  const changed = (): void => {
    revision += 1;
    all = [...servers.values()].flatMap((s) => s.skills);
  };

  const stateOf = (skill: McpServedSkill): ServerState => {
    const state = servers.get(skill.server);
    if (state === undefined || !state.skills.includes(skill) || !state.server.alive())
      throw new Error(`MCP server '${skill.server}' is not running; its skills cannot be read now`);
    return state;
  };

  /**
   * Re-reads the entry with `skills/get` (a skill the server no longer serves leaves the catalog); false
   * when the server gave no valid entry.
   */
  const refresh = async (
    state: ServerState,
    skill: McpServedSkill,
    abortSignal?: AbortSignal,
  ): Promise<boolean> => {
    let refreshed = false;
    try {
      const raw = await state.server.request("skills/get", { uri: skill.entry.uri }, abortSignal);
      const parsed = (await schemas()).SkillsGetResult.safeParse(raw);
      if (parsed.success && parsed.data.skill.uri === skill.entry.uri) {
        skill.entry = parsed.data.skill;
        skill.receivedAt = Date.now();
        const ttl = ttlOf(raw);
        if (ttl === undefined) delete skill.ttlMs;
        else skill.ttlMs = ttl;
        refreshed = true;
      } else
        warn(`MCP server '${state.server.label}' answered skills/get ${skill.entry.uri} with no valid entry`);
    } catch (error) {
      if (isInvalidParams(error)) {
        state.skills = state.skills.filter((s) => s !== skill);
        refreshed = true;
      } else
        warn(`MCP server '${state.server.label}': skills/get ${skill.entry.uri} failed: ${messageOf(error)}`);
    }
    changed();
    return refreshed;
  };

  const fail = async (
    state: ServerState,
    skill: McpServedSkill,
    uri: string,
    reason: string,
    abortSignal?: AbortSignal,
  ): Promise<never> => {
    const refreshed = await refresh(state, skill, abortSignal);
    throw new SkillVerificationError({
      name: String(skill.entry.frontmatter.name),
      server: skill.server,
      uri,
      reason,
      refreshed,
    });
  };

  const fetchResource = async (
    state: ServerState,
    uri: string,
    abortSignal?: AbortSignal,
  ): Promise<{ bytes: Uint8Array; mimeType: string | undefined }> =>
    inSpan(
      "resources/read",
      {
        kind: SpanKind.CLIENT,
        attributes: {
          "mcp.method.name": "resources/read",
          "mcp.resource.uri": uri,
          "skillrt.mcp.server": state.server.label,
        },
      },
      () => readResource(state, uri, abortSignal),
    );

  const readResource = async (
    state: ServerState,
    uri: string,
    abortSignal?: AbortSignal,
  ): Promise<{ bytes: Uint8Array; mimeType: string | undefined }> => {
    const { ResourceReadResult } = await schemas();
    const parsed = ResourceReadResult.safeParse(
      await state.server.request("resources/read", { uri }, abortSignal),
    );
    if (!parsed.success)
      throw new Error(`MCP server '${state.server.label}' answered resources/read ${uri} with no contents`);
    const content = parsed.data.contents.find((c) => c.uri === uri) ?? parsed.data.contents[0];
    if (content === undefined)
      throw new Error(`MCP server '${state.server.label}' returned no contents for ${uri}`);
    const bytes =
      content.blob !== undefined
        ? Buffer.from(content.blob, "base64")
        : Buffer.from(content.text ?? "", "utf8");
    if (bytes.length > MAX_MCP_SKILL_FILE_BYTES)
      throw new Error(`${uri} is over the ${MAX_MCP_SKILL_FILE_BYTES}-byte limit for an MCP skill file`);
    return { bytes, mimeType: content.mimeType };
  };

  /**
   * The verified bytes of `uri`, listed in `skill`'s entry with `digest` (and `size`, when the entry gives
   * it): from the cache, else fetched.
   */
  const verified = async (
    state: ServerState,
    skill: McpServedSkill,
    uri: string,
    { digest, size }: { digest: string; size?: number | undefined },
    abortSignal?: AbortSignal,
  ): Promise<{ bytes: Uint8Array; mimeType: string | undefined }> => {
    const cached = cache.get(skill.server, uri, digest);
    if (cached !== undefined && (size === undefined || cached.length === size))
      return { bytes: cached, mimeType: undefined };
    const fetched = await fetchResource(state, uri, abortSignal);
    // A length that differs is a failure by itself (SEP-2640), before any hashing.
    if (size !== undefined && fetched.bytes.length !== size)
      return fail(
        state,
        skill,
        uri,
        `its length is ${fetched.bytes.length} bytes, the listing promised ${size}`,
        abortSignal,
      );
    const actual = sha256Digest(fetched.bytes);
    if (actual !== digest)
      return fail(state, skill, uri, `its digest is ${actual}, the listing promised ${digest}`, abortSignal);
    cache.put(skill.server, uri, fetched.bytes);
    return fetched;
  };

  const listed = (
    skill: McpServedSkill,
    uri: string,
  ): { digest: string; size?: number | undefined } | undefined => {
    const resources = skill.entry.resources;
    return Array.isArray(resources) ? resources.find((r) => r.uri === uri) : undefined;
  };

  /** Reads every `skills/list` page of `server`: the skills kept, warnings said. */
  const listAll = async (server: SkillServer, abortSignal?: AbortSignal): Promise<McpServedSkill[]> => {
    const { SkillEntry, SkillsListPage } = await schemas();
    const skills: McpServedSkill[] = [];
    const seen = new Set<string>();
    const maxSkills = server.maxSkills ?? options.maxSkills ?? DEFAULT_MAX_MCP_SKILLS;
    const maxPages = options.maxPages ?? 1000;
    let cursor: string | undefined;
    let full = false;
    let page = 0;
    for (; page < maxPages && !full; page++) {
      const raw = await server.request("skills/list", cursor === undefined ? {} : { cursor }, abortSignal);
      const parsed = SkillsListPage.safeParse(raw);
      if (!parsed.success) throw new Error(`skills/list answered without a skills array`);
      const receivedAt = Date.now();
      const ttl = ttlOf(raw);
      for (const item of parsed.data.skills) {
        if (skills.length >= maxSkills) {
          full = true;
          break;
        }
        const entry = SkillEntry.safeParse(item);
        if (!entry.success) {
          const uri = typeof item === "object" && item !== null && "uri" in item ? String(item.uri) : "?";
          warn(
            `MCP server '${server.label}': skill entry ${uri.slice(0, 200)} is left out: ${entry.error.issues[0]?.message ?? "invalid"}`,
          );
          continue;
        }
        if (seen.has(entry.data.uri)) continue;
        seen.add(entry.data.uri);
        skills.push({
          server: server.label,
          entry: entry.data,
          receivedAt,
          ...(ttl === undefined ? {} : { ttlMs: ttl }),
        });
      }
      cursor = parsed.data.nextCursor;
      if (cursor === undefined) break;
      // The cap reached at a page's end: a next page means more skills than are kept.
      if (skills.length >= maxSkills) full = true;
    }
    if (full)
      warn(
        `MCP server '${server.label}' lists more than ${maxSkills.toLocaleString("en-US")} skills; only the first ${maxSkills.toLocaleString("en-US")} are offered (raise mcpServers.${server.label}.maxSkills to see more)`,
      );
    else if (cursor !== undefined && page >= maxPages)
      warn(
        `MCP server '${server.label}' lists skills on more than ${maxPages.toLocaleString("en-US")} pages; the skills after page ${maxPages.toLocaleString("en-US")} are left out`,
      );
    return skills;
  };

  const listeners = new Set<(change: { added: string[]; removed: string[]; changed: string[] }) => void>();

  /**
   * Re-reads `state`'s listing (its server said its resources changed): skills still listed keep their
   * object (and an unusable mark), new ones join, gone ones leave. One re-read runs at a time; a signal
   * during it asks for one more.
   */
  const relisting = new Map<string, { again: boolean }>();
  const relist = async (state: ServerState): Promise<void> => {
    const running = relisting.get(state.server.label);
    if (running !== undefined) {
      running.again = true;
      return;
    }
    const mark = { again: true };
    relisting.set(state.server.label, mark);
    try {
      while (mark.again && state.server.alive()) {
        mark.again = false;
        let fresh: McpServedSkill[];
        try {
          fresh = await listAll(state.server);
        } catch (error) {
          warn(
            `MCP server '${state.server.label}' said its resources changed, but re-reading skills/list failed: ${messageOf(error)}; its earlier listing is kept`,
          );
          return;
        }
        if (servers.get(state.server.label) !== state) return;
        const before = new Map(state.skills.map((s) => [s.entry.uri, s]));
        const next: McpServedSkill[] = [];
        const added: string[] = [];
        const changedNames: string[] = [];
        for (const skill of fresh) {
          const old = before.get(skill.entry.uri);
          before.delete(skill.entry.uri);
          if (old === undefined) {
            next.push(skill);
            added.push(String(skill.entry.frontmatter.name));
            continue;
          }
          if (JSON.stringify(old.entry) !== JSON.stringify(skill.entry))
            changedNames.push(String(skill.entry.frontmatter.name));
          old.entry = skill.entry;
          old.receivedAt = skill.receivedAt ?? Date.now();
          if (skill.ttlMs === undefined) delete old.ttlMs;
          else old.ttlMs = skill.ttlMs;
          next.push(old);
        }
        const removed = [...before.values()].map((s) => String(s.entry.frontmatter.name));
        state.skills = next;
        changed();
        if (added.length + removed.length + changedNames.length > 0)
          for (const listener of listeners) listener({ added, removed, changed: changedNames });
      }
    } finally {
      relisting.delete(state.server.label);
    }
  };

  /** Refreshes an entry past its `ttlMs` with `skills/get` before the skill is acted on. */
  const fresh = async (state: ServerState, skill: McpServedSkill, abortSignal?: AbortSignal) => {
    if (skill.ttlMs === undefined || skill.receivedAt === undefined) return;
    if (Date.now() - skill.receivedAt < skill.ttlMs) return;
    await refresh(state, skill, abortSignal);
    if (!state.skills.includes(skill))
      throw new Error(
        `MCP server '${skill.server}' no longer serves ${skill.entry.uri} as a skill (skills/get said so)`,
      );
  };

  return {
    cache,
    async connect(server, abortSignal) {
      const declared = server.extensions[SKILLS_EXTENSION];
      if (declared === undefined || declared === null || typeof declared !== "object") return;
      const state: ServerState = {
        server,
        directoryRead: (declared as { directoryRead?: unknown }).directoryRead === true,
        skills: await listAll(server, abortSignal),
      };
      servers.set(server.label, state);
      server.onListChanged?.(() => {
        void relist(state);
        // The client passes one list_changed a second and drops the rest (a flood guard): a change
        // signalled right after this one is read by one more re-read once that second is over.
        setTimeout(() => void relist(state), RELIST_AGAIN_MS).unref();
      });
      changed();
    },
    async lookup(reference, abortSignal) {
      const uri = reference.endsWith("/SKILL.md") ? reference : `${reference.replace(/\/+$/, "")}/SKILL.md`;
      const listedAs = all.filter((s) => s.entry.uri === uri);
      if (listedAs.length === 1) return listedAs[0]!;
      if (listedAs.length > 1)
        return `${uri} is served by ${listedAs.length} MCP servers (${listedAs.map((s) => s.server).join(", ")}); load it by the name the catalog shows for the one meant`;
      const { SkillsGetResult } = await schemas();
      const asked: string[] = [];
      for (const state of servers.values()) {
        if (!state.server.alive()) continue;
        asked.push(state.server.label);
        let raw: unknown;
        try {
          raw = await state.server.request("skills/get", { uri }, abortSignal);
        } catch {
          continue;
        }
        const parsed = SkillsGetResult.safeParse(raw);
        if (!parsed.success || parsed.data.skill.uri !== uri) continue;
        const ttl = ttlOf(raw);
        const skill: McpServedSkill = {
          server: state.server.label,
          entry: parsed.data.skill,
          receivedAt: Date.now(),
          ...(ttl === undefined ? {} : { ttlMs: ttl }),
        };
        state.skills = [...state.skills, skill];
        changed();
        return skill;
      }
      return asked.length === 0
        ? `no connected MCP server serves skills, so ${uri} cannot be loaded`
        : `no connected MCP server serves ${uri} as a skill (asked with skills/get: ${asked.join(", ")})`;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    disconnect(label) {
      if (servers.delete(label)) changed();
    },
    skills: () => all,
    revision: () => revision,
    async loadSkillMd(skill, abortSignal) {
      const state = stateOf(skill);
      await fresh(state, skill, abortSignal);
      const { uri } = skill.entry;
      // Any failure below marks the whole skill unusable until a load verifies its SKILL.md.
      const unusable = (why: string): never => {
        skill.unusable = why;
        throw new SkillVerificationError({
          name: String(skill.entry.frontmatter.name),
          server: skill.server,
          uri,
          reason: why,
          refreshed: false,
        });
      };
      if (skill.entry.resources === "dynamic")
        return unusable(
          "its entry declares its resources dynamic (no digests), and skillrt loads only skills it can verify",
        );
      const file = listed(skill, uri);
      if (file === undefined)
        return unusable("its entry lists no digest for SKILL.md, so it cannot be verified");
      try {
        const { bytes } = await verified(state, skill, uri, file, abortSignal);
        const mismatch = frontmatterMismatch(skillFrontmatter(bytes), skill.entry.frontmatter);
        if (mismatch !== undefined) await fail(state, skill, uri, mismatch, abortSignal);
        delete skill.unusable;
        return bytes;
      } catch (error) {
        if (SkillVerificationError.isInstance(error)) skill.unusable = error.message;
        throw error;
      }
    },
    async readFile(skill, relPath, abortSignal) {
      const state = stateOf(skill);
      const paths = listedPaths(skill.entry);
      // A skill whose SKILL.md failed is unusable as a whole: nothing more of it is fetched.
      if (skill.unusable !== undefined)
        return {
          ok: false,
          reason: `skill '${String(skill.entry.frontmatter.name)}' from MCP server '${skill.server}' is unusable: its SKILL.md failed verification (${skill.unusable}). No file of it is fetched until loading it again verifies its SKILL.md`,
          listed: paths,
        };
      const normalized = normalizeSkillPath(relPath);
      if (!normalized.ok) return { ok: false, reason: normalized.reason, listed: paths };
      const uri = fileUri(skill.entry, normalized.path);
      const file = listed(skill, uri);
      if (file === undefined) {
        await refresh(state, skill, abortSignal);
        return {
          ok: false,
          reason: `'${normalized.path}' is not in the skill's manifest from MCP server '${skill.server}' (reading an unlisted file is a verification failure; nothing was fetched)`,
          listed: listedPaths(skill.entry),
        };
      }
      const { bytes, mimeType } = await verified(state, skill, uri, file, abortSignal);
      return { ok: true, bytes, mimeType };
    },
    async files(skill, abortSignal) {
      const state = stateOf(skill);
      const mimeTypes = state.directoryRead ? await directoryMimeTypes(state, skill, abortSignal) : new Map();
      return listedPaths(skill.entry).map((p) => {
        const mimeType = mimeTypes.get(p);
        return mimeType === undefined ? { path: p } : { path: p, mimeType };
      });
    },
  };
}

/** The entry's files as paths relative to the skill root, SKILL.md first. */
export function listedPaths(entry: SkillEntry): string[] {
  const root = `${skillRootUri(entry)}/`;
  const paths: string[] = [];
  for (const resource of Array.isArray(entry.resources) ? entry.resources : []) {
    if (!resource.uri.startsWith(root)) continue;
    const rel = resource.uri
      .slice(root.length)
      .split("/")
      .map((segment) => decodeSafely(segment))
      .join("/");
    if (rel !== "SKILL.md") paths.push(rel);
  }
  return ["SKILL.md", ...paths.sort()];
}

/** The URI of `relPath` (normalised, `/`-separated) in the skill of `entry`. */
export function fileUri(entry: SkillEntry, relPath: string): string {
  return `${skillRootUri(entry)}/${relPath.split("/").map(encodeURIComponent).join("/")}`;
}

/** Mime types of the skill's files by relative path, walking `resources/directory/read` (at most 200 requests). */
async function directoryMimeTypes(
  state: ServerState,
  skill: McpServedSkill,
  abortSignal?: AbortSignal,
): Promise<Map<string, string>> {
  const root = skillRootUri(skill.entry);
  const { DirectoryReadPage } = await schemas();
  const found = new Map<string, string>();
  const queue = [root];
  let requests = 0;
  while (queue.length > 0 && requests < 200) {
    const dir = queue.shift()!;
    let cursor: string | undefined;
    do {
      requests += 1;
      const raw = await state.server
        .request(
          "resources/directory/read",
          cursor === undefined ? { uri: dir } : { uri: dir, cursor },
          abortSignal,
        )
        .catch(() => undefined);
      const page = DirectoryReadPage.safeParse(raw);
      if (!page.success) return found;
      for (const child of page.data.resources) {
        if (!child.uri.startsWith(`${root}/`)) continue;
        if (child.mimeType === "inode/directory") queue.push(child.uri);
        else if (child.mimeType !== undefined)
          found.set(
            child.uri
              .slice(root.length + 1)
              .split("/")
              .map(decodeSafely)
              .join("/"),
            child.mimeType,
          );
      }
      cursor = page.data.nextCursor;
    } while (cursor !== undefined && requests < 200);
  }
  return found;
}

function isInvalidParams(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === -32602;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
