/**
 * Every file of every visible skill as an MCP resource: `skill://<name>/SKILL.md` and
 * `skill://<name>/<path>` (one `ResourceTemplate` with `list` and `complete`). Text comes back as text,
 * binary files as a base64 blob with their mime type. Only files in the skill's file index are served
 * (so `.env`, `.git/` and the like never are), and reads go through `catalog.readFile`, which refuses
 * `..`, absolute paths and symlinks leaving the skill; every refusal is an MCP error with the reason.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  ErrorCode,
  McpError,
  type ReadResourceResult,
  type Resource,
} from "@modelcontextprotocol/sdk/types.js";
import type { SkillFile, SkillRecord } from "../catalog/types.js";
import type { SkillSession } from "../context/skill-session.js";

/** The URI template of skill files. */
export const SKILL_URI_TEMPLATE = "skill://{name}/{+path}";

/** File indexes read at once while listing. */
const LIST_CONCURRENCY = 16;

/** Most values one completion answer may hold (MCP limit). */
const MAX_COMPLETIONS = 100;

/** The URI of one skill file (`SKILL.md` for the skill file, whatever its case on disk). */
export function skillFileUri(name: string, filePath: string): string {
  return `skill://${encodeURIComponent(name)}/${filePath.split("/").map(encodeURIComponent).join("/")}`;
}

/**
 * Skills whose files are served: those the model may see plus those offered as prompts (a skill with
 * `disable-model-invocation: true` is still the user's), without the ones `allow`/`deny` hide. Sorted.
 */
export function servedSkills(session: SkillSession): SkillRecord[] {
  const byName = new Map<string, SkillRecord>();
  for (const r of [...session.visibleSkills(), ...session.userInvocableSkills()]) byName.set(r.name, r);
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Registers the `skill` resource template on `mcp` (call before `connect`). */
export function serveSkillResources(mcp: McpServer, session: SkillSession): void {
  const catalog = session.catalog;
  const find = (name: string): SkillRecord | undefined => servedSkills(session).find((r) => r.name === name);
  /** The index with the skill file renamed `SKILL.md` (it may be `skill.md` on disk). */
  const index = async (record: SkillRecord): Promise<SkillFile[]> => {
    const files = await catalog.files(record.name);
    const skillFile = path.posix.basename(record.location.replaceAll("\\", "/"));
    return files.map((f) => (f.path === skillFile ? { ...f, path: "SKILL.md" } : f));
  };

  const template = new ResourceTemplate(SKILL_URI_TEMPLATE, {
    list: async () => {
      const resources: Resource[] = [];
      const skills = servedSkills(session);
      const indexes: SkillFile[][] = [];
      // File indexes are directory walks: a few at a time keeps large catalogs quick without flooding fs.
      for (let i = 0; i < skills.length; i += LIST_CONCURRENCY) {
        const batch = skills.slice(i, i + LIST_CONCURRENCY);
        indexes.push(...(await Promise.all(batch.map((r) => index(r).catch((): SkillFile[] => [])))));
      }
      for (const [i, record] of skills.entries()) {
        for (const file of indexes[i] ?? []) {
          resources.push({
            uri: skillFileUri(record.name, file.path),
            name: `${record.name}/${file.path}`,
            mimeType: file.mimeType,
            size: file.size,
            ...(file.path === "SKILL.md" ? { description: record.description } : {}),
          });
        }
      }
      return { resources };
    },
    complete: {
      name: (value) =>
        servedSkills(session)
          .map((r) => r.name)
          .filter((n) => n.startsWith(value))
          .slice(0, MAX_COMPLETIONS),
      path: async (value, context) => {
        const record = find(context?.arguments?.["name"] ?? "");
        if (record === undefined) return [];
        const files = await index(record).catch(() => []);
        return files
          .map((f) => f.path)
          .filter((p) => p.startsWith(value))
          .slice(0, MAX_COMPLETIONS);
      },
    },
  });

  mcp.registerResource(
    "skill",
    template,
    {
      title: "Skill files",
      description: "Files of the available skills: SKILL.md, references, scripts and assets.",
    },
    async (uri, variables): Promise<ReadResourceResult> => {
      const name = decode(variables["name"]);
      const requested = decode(variables["path"]);
      const record = find(name);
      if (record === undefined) {
        const closest = catalog.closest(name).filter((n) => find(n) !== undefined);
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown skill '${name}' in ${uri.href}.${closest.length > 0 ? ` Closest: ${closest.join(", ")}.` : ""}`,
        );
      }
      const files = await index(record);
      const onDisk = requested === "SKILL.md" ? path.posix.basename(record.location) : requested;
      const result = await catalog.readFile(record.name, onDisk);
      if (result.kind === "refused") throw refused(uri, result.reason);
      if (result.kind === "unknown-skill") throw refused(uri, `Skill '${name}' is no longer available.`);
      const listed =
        result.kind !== "not-found" && files.some((f) => f.path === normalize(result.path, record));
      if (!listed) {
        const available = files.slice(0, 50).map((f) => skillFileUri(record.name, f.path));
        throw new McpError(
          ErrorCode.InvalidParams,
          `No file '${requested}' in skill '${record.name}'. Available: ${available.join(", ")}.`,
        );
      }
      if (result.kind === "text") {
        return { contents: [{ uri: uri.href, mimeType: result.mimeType, text: result.content }] };
      }
      const bytes = await readConfined(record, result.path, uri);
      return {
        contents: [{ uri: uri.href, mimeType: result.mimeType, blob: Buffer.from(bytes).toString("base64") }],
      };
    },
  );
}

/** `skill.md` on disk is `SKILL.md` in URIs. */
function normalize(filePath: string, record: SkillRecord): string {
  return filePath === path.posix.basename(record.location) ? "SKILL.md" : filePath;
}

/** A template variable as one decoded string (`%2F` becomes `/`, so `..%2F` is seen and refused). */
function decode(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value.join(",") : (value ?? "");
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function refused(uri: URL, reason: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Refused to read ${uri.href}: ${reason}`);
}

/** Bytes of a binary skill file, re-checked against the skill's real directory. */
async function readConfined(record: SkillRecord, rel: string, uri: URL): Promise<Uint8Array> {
  if (record.dir.startsWith("memory:")) {
    throw refused(uri, "binary files of skills defined in code are not served (read them from the host).");
  }
  const real = await fs.realpath(path.join(record.dir, rel));
  if (!real.startsWith(`${record.dir}${path.sep}`))
    throw refused(uri, "the file leaves the skill directory.");
  return fs.readFile(real);
}
