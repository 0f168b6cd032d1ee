/**
 * `withMcpSkills`: a catalog of the local skills plus the skills MCP servers serve (SEP-2640). Local skills
 * keep their names; an MCP-served skill keeps its own name unless a local skill or another served skill has
 * it, and is then shown qualified by the server's label (`hf:pdf`; `hf:acme/pdf` for two of one server's).
 * Nothing shadows anything: each entry is listed and loadable by its shown name. Loads and reads of an
 * MCP-served skill go to its server through the source, verified; everything else is the local catalog's.
 */
import { SkillNotFoundError } from "../../errors/skill-not-found-error.js";
import { parseSkillMd } from "../../spec/parse-skill-md.js";
import { closestNames } from "../closest-names.js";
import { fileKind } from "../file-kind.js";
import { detectContent, isTextMime, SNIFF_BYTES } from "../mime-type.js";
import { sliceLines } from "../read-skill-file.js";
import { SearchIndex } from "../search-index.js";
import type { Catalog, LoadedSkill, SearchHit, SkillFile, SkillRecord } from "../types.js";
import { mcpSkillRecord } from "./mcp-skill-record.js";
import type { McpServedSkill, McpSkillSource } from "./mcp-skill-source.js";
import { skillPathOf } from "./skill-root-uri.js";

/** What `withMcpSkills` adds to a catalog: the source behind it. */
export interface McpSkillsCatalog extends Catalog {
  readonly mcpSkills: McpSkillSource;
  /** The MCP-served skill shown as `name`, if it is one. */
  mcpSkill(name: string): McpServedSkill | undefined;
  /**
   * The shown name of the skill at `uri` (`skill://…/SKILL.md`), listed or not: an unlisted one is looked
   * up with `skills/get` and joins the catalog, to be loaded and verified as a listed one. A `problem`
   * says why there is none.
   */
  resolveUri(uri: string, abortSignal?: AbortSignal): Promise<{ name: string } | { problem: string }>;
}

interface View {
  key: string;
  records: SkillRecord[];
  served: Map<string, { record: SkillRecord; skill: McpServedSkill }>;
  index?: Promise<SearchIndex>;
}

const decoder = new TextDecoder();

/** `local` plus the skills of `source` (see the module comment). */
export function withMcpSkills(local: Catalog, source: McpSkillSource): McpSkillsCatalog {
  // Already over this source (the Node preset wrapped it, then the agent was given it): as it is.
  if (isMcpSkillsCatalog(local) && local.mcpSkills === source) return local;
  let view: View | undefined;
  const current = (): View => {
    const localRecords = local.revision === undefined ? local.list() : undefined;
    const key = `${local.revision?.() ?? "-"}:${source.revision()}`;
    if (view !== undefined && view.key === key && localRecords === undefined) return view;
    const records = localRecords ?? local.list();
    const taken = new Set(records.map((r) => r.name));
    const byName = new Map<string, McpServedSkill[]>();
    for (const skill of source.skills()) {
      const name = String(skill.entry.frontmatter.name);
      byName.set(name, [...(byName.get(name) ?? []), skill]);
    }
    const served = new Map<string, { record: SkillRecord; skill: McpServedSkill }>();
    for (const [name, skills] of byName) {
      for (const skill of skills) {
        const sameServer = skills.filter((s) => s.server === skill.server).length;
        const shown =
          !taken.has(name) && skills.length === 1
            ? name
            : sameServer === 1
              ? `${skill.server}:${name}`
              : `${skill.server}:${skillPathOf(skill.entry)}`;
        served.set(shown, { record: mcpSkillRecord(skill, shown), skill });
      }
    }
    const all = [...records, ...[...served.values()].map((s) => s.record)];
    all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    view = { key, records: all, served };
    return view;
  };
  const servedAs = (name: string) => current().served.get(name);
  const names = (): string[] => current().records.map((r) => r.name);
  const mustServe = (name: string) => {
    const found = servedAs(name);
    if (found === undefined) throw new SkillNotFoundError({ name, closest: closestNames(name, names()) });
    return found;
  };

  const files = async (name: string): Promise<SkillFile[]> => {
    const found = servedAs(name);
    if (found === undefined) return local.files(name);
    const listed = await source.files(found.skill);
    return listed.map((file) => {
      const { mimeType, binary } = file.mimeType
        ? { mimeType: file.mimeType, binary: !isTextMime(file.mimeType) }
        : detectContent(file.path, new Uint8Array());
      return { path: file.path, size: 0, kind: fileKind(file.path), mimeType, binary };
    });
  };

  return {
    mcpSkills: source,
    mcpSkill: (name) => servedAs(name)?.skill,
    async resolveUri(uri, abortSignal) {
      const found = await source.lookup(uri, abortSignal);
      if (typeof found === "string") return { problem: found };
      for (const [name, served] of current().served) if (served.skill === found) return { name };
      return { problem: `${uri} could not be shown in the catalog` };
    },
    list: () => [...current().records],
    get: (name) => servedAs(name)?.record ?? local.get(name),
    revision: () => (local.revision?.() ?? 0) + source.revision(),
    diagnostics: () => local.diagnostics(),
    async load(name): Promise<LoadedSkill> {
      if (servedAs(name) === undefined) return local.load(name);
      const { record, skill } = mustServe(name);
      const text = decoder.decode(await source.loadSkillMd(skill));
      const { skill: parsed } = parseSkillMd(text, {
        mode: "lenient",
        dirName: String(skill.entry.frontmatter.name),
        path: skill.entry.uri,
      });
      return parsed === undefined
        ? { record, body: text, bodyLine: 1 }
        : { record, body: parsed.body, bodyLine: parsed.bodyLine };
    },
    files,
    async readFile(name, requested, range) {
      const found = servedAs(name);
      if (found === undefined) {
        // A local miss still names the closest of every skill, served ones included.
        const result = await local.readFile(name, requested, range);
        return result.kind === "unknown-skill" ? { ...result, closest: closestNames(name, names()) } : result;
      }
      const read = await source.readFile(found.skill, requested);
      if (!read.ok)
        return {
          kind: "refused",
          path: requested,
          reason: `${read.reason}. Files of this skill: ${read.listed.join(", ")}`,
        };
      const { mimeType, binary } = detectContent(requested, read.bytes.subarray(0, SNIFF_BYTES));
      if (binary) return { kind: "binary", path: requested, size: read.bytes.length, mimeType };
      return sliceLines(requested, decoder.decode(read.bytes), read.bytes.length, mimeType, range);
    },
    async search(query, limit = 10) {
      const state = current();
      const localHits = await local.search(query, limit);
      if (state.served.size === 0) return localHits;
      state.index ??= SearchIndex.build([...state.served.values()].map((s) => s.record));
      const servedHits = (await state.index).search(query, limit);
      const hits: SearchHit[] = [...localHits, ...servedHits];
      return hits.sort((a, b) => b.score - a.score).slice(0, limit);
    },
    closest: (name, limit = 3) => closestNames(name, names(), limit),
    refresh: () => local.refresh(),
    // A server's re-read listing (it said its resources changed) is a change like a local one.
    watch(listener) {
      const stopLocal = local.watch(listener);
      const stopServed = source.onChange((change) => listener({ ...change, diagnostics: [] }));
      return () => {
        stopServed();
        stopLocal();
      };
    },
  };
}

/** Whether `catalog` was built by {@link withMcpSkills}. */
export function isMcpSkillsCatalog(catalog: Catalog): catalog is McpSkillsCatalog {
  return "mcpSkills" in catalog && typeof (catalog as Partial<McpSkillsCatalog>).mcpSkill === "function";
}
