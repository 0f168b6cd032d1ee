/**
 * SEP-2640, the Skills Extension (`io.modelcontextprotocol/skills`), on an MCP server: the capability
 * (with `directoryRead`), `skills/list` (entries never split across pages), `skills/get` and
 * `resources/directory/read`. Unknown skills, non-directories and bad cursors are `-32602`.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError, type Resource } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { decodeCursor, pageOf } from "./page-cursor.js";
import type { ServedSkill } from "./served-skill-index.js";
import type { SkillEntry, SkillServing } from "./skill-serving.js";
import { parseSkillUri, skillUri } from "./skill-uri.js";

/** The extension's identifier. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/**
 * The caching attributes of `skills/list` and `skills/get` results (SEP-2549, required from protocol
 * 2026-07-28 and harmless before): how long a client may keep a result, and that it is kept per
 * authorization context (a server behind a bearer token serves the user's own files).
 */
export interface SkillsCaching {
  ttlMs: number;
  cacheScope: "private" | "public";
}

/**
 * The caching a server states: a watched catalog can change at any moment (the server then sends
 * `notifications/resources/list_changed`), so its results are stale at once (`ttlMs: 0`); an unwatched
 * one keeps its skills until the server restarts, but a file may still be edited in place, so a client
 * may keep a result for a minute and re-check with `skills/get` after (a digest mismatch also does).
 */
export function skillsCaching(watched: boolean): SkillsCaching {
  return { ttlMs: watched ? 0 : UNWATCHED_TTL_MS, cacheScope: "private" };
}

/** `ttlMs` of an unwatched server's results. */
export const UNWATCHED_TTL_MS = 60_000;

/** Page sizes of the extension's lists. */
export interface SkillsExtensionPaging {
  /** Skill entries per `skills/list` page. Default 100. */
  skillsPerPage?: number;
  /** Children per `resources/directory/read` page. Default 500. */
  childrenPerPage?: number;
}

/**
 * How old an entry `skills/list` may hand out (made for another client's listing): a second.
 * `skills/get` always checks the files now.
 */
export const LISTING_MAX_AGE_MS = 1000;

/** Entries built at once while answering `skills/list`. */
const ENTRY_CONCURRENCY = 16;

const params = z.record(z.string(), z.unknown()).optional();
const SkillsListRequestSchema = z.object({ method: z.literal("skills/list"), params });
const SkillsGetRequestSchema = z.object({ method: z.literal("skills/get"), params });
const DirectoryReadRequestSchema = z.object({ method: z.literal("resources/directory/read"), params });

/** Declares the extension on `mcp` and installs its methods (call before `connect`). */
export function serveSkillsExtension(
  mcp: McpServer,
  serving: SkillServing,
  paging: SkillsExtensionPaging = {},
  caching: SkillsCaching = skillsCaching(false),
): void {
  const attributes = { resultType: "complete", ttlMs: caching.ttlMs, cacheScope: caching.cacheScope };
  const skillsPerPage = paging.skillsPerPage ?? 100;
  const childrenPerPage = paging.childrenPerPage ?? 500;
  mcp.server.registerCapabilities({ extensions: { [SKILLS_EXTENSION]: { directoryRead: true } } });

  mcp.server.setRequestHandler(SkillsListRequestSchema, async (request) => {
    const offset = decodeCursor("skills/list", request.params?.["cursor"]);
    const { page, nextCursor } = pageOf("skills/list", serving.index().skills, offset, skillsPerPage);
    const entries: (SkillEntry | undefined)[] = new Array(page.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < page.length) {
        const i = next++;
        // A skill that cannot make an entry (removed meanwhile, no frontmatter name) is left out.
        const result = await serving.entry(page[i] as ServedSkill, LISTING_MAX_AGE_MS).catch(() => undefined);
        entries[i] = result !== undefined && "entry" in result ? result.entry : undefined;
      }
    };
    await Promise.all(Array.from({ length: Math.min(ENTRY_CONCURRENCY, page.length) }, worker));
    const skills = entries.filter((e): e is SkillEntry => e !== undefined);
    // A listing read to its end: what it hashed is kept for the next process now.
    if (nextCursor === undefined) serving.flush();
    return nextCursor === undefined ? { ...attributes, skills } : { ...attributes, skills, nextCursor };
  });

  mcp.server.setRequestHandler(SkillsGetRequestSchema, async (request) => {
    const uri = request.params?.["uri"];
    if (typeof uri !== "string") throw invalid("skills/get needs params.uri, the URI of a skill's SKILL.md.");
    const segments = parseSkillUri(uri);
    const skillPath = segments?.at(-1) === "SKILL.md" ? segments.slice(0, -1).join("/") : undefined;
    const skill = skillPath === undefined || skillPath === "" ? undefined : serving.index().get(skillPath);
    if (skill === undefined) throw invalid(`${uri} is not the SKILL.md of a skill this server serves.`);
    let result: Awaited<ReturnType<SkillServing["entry"]>>;
    try {
      result = await serving.entry(skill);
    } catch (error) {
      throw invalid(`${uri}: the skill could not be read (${reason(error)}).`);
    }
    if ("problem" in result) throw invalid(`${uri} is not served as a skill: ${result.problem}.`);
    return { ...attributes, skill: result.entry };
  });

  mcp.server.setRequestHandler(DirectoryReadRequestSchema, async (request) => {
    const uri = request.params?.["uri"];
    if (typeof uri !== "string") throw invalid("resources/directory/read needs params.uri, a directory URI.");
    const offset = decodeCursor(`resources/directory/read ${uri}`, request.params?.["cursor"]);
    const segments = parseSkillUri(uri);
    const found = segments === undefined ? undefined : serving.index().resolve(segments);
    if (segments === undefined || found === undefined)
      throw invalid(`${uri} is not a directory this server serves.`);
    const dir = found.rest.join("/");
    const prefix = dir === "" ? "" : `${dir}/`;
    const files = await serving.index().allFiles(found.skill);
    const children = new Map<string, Resource>();
    for (const file of files) {
      if (!file.path.startsWith(prefix)) continue;
      const rest = file.path.slice(prefix.length);
      const slash = rest.indexOf("/");
      const name = slash === -1 ? rest : rest.slice(0, slash);
      if (children.has(name)) continue;
      const childUri = skillUri([...segments, name]);
      children.set(
        name,
        slash === -1
          ? { uri: childUri, name, mimeType: file.mimeType, size: file.size }
          : { uri: childUri, name, mimeType: "inode/directory" },
      );
    }
    // The skill root is a directory even when empty; anything else is one only when it holds files.
    if (children.size === 0 && dir !== "") throw invalid(`${uri} is not a directory this server serves.`);
    const sorted = [...children.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const { page, nextCursor } = pageOf(`resources/directory/read ${uri}`, sorted, offset, childrenPerPage);
    return nextCursor === undefined ? { resources: page } : { resources: page, nextCursor };
  });
}

function invalid(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
