/**
 * Every file of every served skill as an MCP resource, `skill://<skill-path>/<file>` (SEP-2640's
 * layout; see `served-skill-index.ts` for skill paths). `resources/list` is paginated by whole skills
 * and `resources/read` finds its file by lookup (a map of skill paths, then the skill's file list), so
 * neither grows with the catalog per request. Text comes back as text, anything else as a base64 blob;
 * only files in the skill's file index are served (so `.env`, `.git/` and the like never are), reads
 * are confined to the skill's real directory, and every refusal is an MCP error (-32602) with the reason.
 * The `skill://{name}/{+path}` template (with completion) is listed for clients that browse.
 */
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  ErrorCode,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Resource,
} from "@modelcontextprotocol/sdk/types.js";
import { decodeCursor, pageOf } from "./page-cursor.js";
import type { SkillServing } from "./skill-serving.js";
import { parseSkillUri, skillFileUri } from "./skill-uri.js";

export { skillFileUri } from "./skill-uri.js";

/** The URI template of skill files. */
export const SKILL_URI_TEMPLATE = "skill://{name}/{+path}";

/** Most values one completion answer may hold (MCP limit). */
const MAX_COMPLETIONS = 100;

/** Skills whose files make one `resources/list` page (default). */
export const DEFAULT_SKILLS_PER_RESOURCE_PAGE = 100;

/** File lists read at once while listing. */
const LIST_CONCURRENCY = 16;

/** Registers the skill resources on `mcp` (call before `connect`). */
export function serveSkillResources(
  mcp: McpServer,
  serving: SkillServing,
  skillsPerPage = DEFAULT_SKILLS_PER_RESOURCE_PAGE,
): void {
  const template = new ResourceTemplate(SKILL_URI_TEMPLATE, {
    list: undefined,
    complete: {
      name: (value) =>
        [
          ...new Set(
            serving
              .index()
              .skills.map((s) => s.path.split("/")[0] ?? "")
              .filter((n) => n.startsWith(value)),
          ),
        ].slice(0, MAX_COMPLETIONS),
      path: async (value, context) => {
        const top = serving.index().get(context?.arguments?.["name"] ?? "");
        if (top === undefined) return [];
        const files = await serving
          .index()
          .allFiles(top)
          .catch(() => []);
        return files
          .map((f) => f.path)
          .filter((p) => p.startsWith(value))
          .slice(0, MAX_COMPLETIONS);
      },
    },
  });
  // Installs the SDK's resource handlers (templates/list, completion); list and read are replaced below.
  mcp.registerResource(
    "skill",
    template,
    {
      title: "Skill files",
      description: "Files of the available skills: SKILL.md, references, scripts and assets.",
    },
    () => ({ contents: [] }),
  );

  mcp.server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const offset = decodeCursor("resources/list", request.params?.cursor);
    const index = serving.index();
    const { page, nextCursor } = pageOf("resources/list", index.skills, offset, skillsPerPage);
    const lists: Resource[][] = new Array(page.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < page.length) {
        const i = next++;
        const skill = page[i]!;
        const files = await index.ownFiles(skill).catch(() => []);
        lists[i] = files.map((file) => ({
          uri: skillFileUri(skill.path, file.path),
          // SKILL.md is named as the skill (SEP-2640); other files by their path.
          name: file.path === "SKILL.md" ? skill.record.name : `${skill.path}/${file.path}`,
          mimeType: file.mimeType,
          size: file.size,
          ...(file.path === "SKILL.md" ? { description: skill.record.description } : {}),
        }));
      }
    };
    await Promise.all(Array.from({ length: Math.min(LIST_CONCURRENCY, page.length) }, worker));
    const resources = lists.flat();
    return nextCursor === undefined ? { resources } : { resources, nextCursor };
  });

  mcp.server.setRequestHandler(ReadResourceRequestSchema, async (request): Promise<ReadResourceResult> => {
    const uri = request.params.uri;
    const segments = parseSkillUri(uri);
    if (segments === undefined) {
      const climbs = uri.startsWith("skill://") && /(^|\/)\.\.(\/|$)/.test(safeDecode(uri.slice(8)));
      throw invalid(
        climbs
          ? `Refused to read ${uri}: '..' is not allowed.`
          : `Resource ${uri} not found: not a skill:// URI of this server.`,
      );
    }
    const index = serving.index();
    const found = index.resolve(segments);
    if (found === undefined) {
      const name = segments[0] ?? "";
      const closest = index.closest(name);
      throw invalid(
        `Unknown skill '${name}' in ${uri}.${closest.length > 0 ? ` Closest: ${closest.join(", ")}.` : ""}`,
      );
    }
    const { skill, rest } = found;
    const requested = rest.join("/");
    const file = requested === "" ? undefined : await index.file(skill, requested);
    if (file === undefined) {
      const why = await index.refusal(skill, requested);
      if (why !== undefined) throw invalid(`Refused to read ${uri}: ${why}`);
      const files = await index.allFiles(skill).catch(() => []);
      const available = files.slice(0, 50).map((f) => skillFileUri(skill.path, f.path));
      throw invalid(`No file '${requested}' in skill '${skill.path}'. Available: ${available.join(", ")}.`);
    }
    let bytes: Uint8Array;
    try {
      bytes = (await index.read(file)).bytes;
    } catch (error) {
      throw invalid(`Refused to read ${uri}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = file.binary ? undefined : utf8(bytes);
    if (text !== undefined) return { contents: [{ uri, mimeType: file.mimeType, text }] };
    return {
      contents: [{ uri, mimeType: file.mimeType, blob: Buffer.from(bytes).toString("base64") }],
    };
  });
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The bytes as text when they are valid UTF-8 (so the text's UTF-8 bytes are the file's). */
function utf8(bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function invalid(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}
