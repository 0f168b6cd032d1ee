/**
 * Builds content items (skill body, doc, file read) with their rendered text and token count. Used by the
 * operations and by restore, which passes the instance ids it saved.
 */
import type { ReadFileResult, SkillRecord } from "../catalog/types.js";
import { renderAworldSkill } from "./render-aworld-layout.js";
import { omniFullInstructions, renderOmniSystemDoc, renderOmniSystemSkill } from "./render-omni-skill.js";
import {
  renderBinaryBlock,
  renderDocBlock,
  renderFileBlock,
  renderSkillContent,
  renderSystemDoc,
  renderSystemSkill,
} from "./render-skill-content.js";
import { renderTrpcDoc, renderTrpcSkill } from "./render-trpc-layout.js";
import { type SessionCore, safeFiles } from "./session-core.js";
import type { Item, SkillEntry } from "./session-state.js";
import { substituteArguments } from "./substitute-arguments.js";
import { countTokensAsync } from "./token-counter.js";

/** Reads the body and file index and renders the skill's block. Throws on I/O errors. */
export async function buildSkillEntry(
  core: SessionCore,
  record: SkillRecord,
  args: string | undefined,
  id: string,
): Promise<SkillEntry> {
  const loaded = await core.catalog.load(record.name);
  const files = await safeFiles(core, record.name);
  const written = core.preRender === undefined ? loaded.body : await core.preRender(record, loaded.body);
  const body = substituteArguments(written, {
    ...(args !== undefined ? { args } : {}),
    skillDir: record.dir,
    sessionId: core.state.id,
  });
  const placement = core.state.placement;
  const text =
    core.state.placement === "system" && core.profile.name === "omni"
      ? renderOmniSystemSkill(
          record.name,
          await omniFullInstructions(
            core.catalog,
            record,
            body,
            files.map((f) => f.path),
            core.skillRunDir?.(record.name),
          ),
        )
      : skillItemText(core, record, body, files);
  const item: Item = {
    id,
    kind: "skill",
    skill: record.name,
    lastUsed: 0,
    text,
    tokens: await countTokensAsync(core.counter, text),
    placement,
  };
  const entry: SkillEntry = { item, record, allDocs: false, docs: new Map(), files, body };
  if (args !== undefined) entry.args = args;
  return entry;
}

/** A selected doc's item, or `undefined` when it is not a readable text file. */
export async function buildDocItem(
  core: SessionCore,
  skill: string,
  path: string,
  id: string,
): Promise<Item | undefined> {
  let result: ReadFileResult;
  try {
    result = await core.catalog.readFile(skill, path);
  } catch {
    return undefined;
  }
  if (result.kind !== "text") return undefined;
  const placement = core.state.placement;
  const text = docItemText(core, skill, path, result.content);
  const item: Item = {
    id,
    kind: "doc",
    skill,
    path,
    lastUsed: 0,
    text,
    tokens: await countTokensAsync(core.counter, text),
    placement,
  };
  return item;
}

/** The rendered block of a skill body for the session's placement (and system layout). */
function skillItemText(
  core: SessionCore,
  record: SkillRecord,
  body: string,
  files: SkillEntry["files"],
): string {
  if (core.state.placement === "history") {
    return renderSkillContent({
      name: record.name,
      // An MCP-served skill's directory is a URI of its server: the load result names that server.
      dir: record.origin.kind === "mcp" ? `${record.dir} (served by ${record.origin.label})` : record.dir,
      body,
      files,
      maxResources: core.maxResources,
      ...(record.singleFile === true ? { singleFile: true } : {}),
    });
  }
  if (core.profile.systemLayout === "aworld") return renderAworldSkill(record.name, body);
  return core.profile.systemLayout === "trpc"
    ? renderTrpcSkill(record.name, body)
    : renderSystemSkill(record.name, record.dir, body);
}

/** The rendered block of a selected doc for the session's placement (and system layout). */
function docItemText(core: SessionCore, skill: string, path: string, content: string): string {
  if (core.state.placement === "history") return renderDocBlock(skill, path, content);
  if (core.profile.name === "omni") return renderOmniSystemDoc(skill, path, content);
  return core.profile.systemLayout === "trpc"
    ? renderTrpcDoc(path, content)
    : renderSystemDoc(skill, path, content);
}

/** A read's item from a text or binary result, cut to the per-item budget (line-wise, then by characters). */
export async function buildReadItem(
  core: SessionCore,
  skill: string,
  result: Extract<ReadFileResult, { kind: "text" | "binary" }>,
  range: { startLine?: number; endLine?: number },
  id: string,
): Promise<{ item: Item; nextLine?: number }> {
  const base = {
    id,
    kind: "read" as const,
    skill,
    path: result.path,
    lastUsed: 0,
    placement: "history" as const,
  };
  const withRange = {
    ...base,
    ...(range.startLine !== undefined ? { startLine: range.startLine } : {}),
    ...(range.endLine !== undefined ? { endLine: range.endLine } : {}),
  };
  if (result.kind === "binary") {
    const text = renderBinaryBlock(skill, result.path, result.size, result.mimeType);
    return { item: { ...withRange, text, tokens: await countTokensAsync(core.counter, text) } };
  }
  const readTool = core.profile.toolNames.read ?? core.profile.toolNames.load;
  const block = (content: string, endLine: number): string =>
    renderFileBlock({
      skill,
      path: result.path,
      content,
      startLine: result.startLine,
      endLine,
      totalLines: result.totalLines,
      readTool,
    });
  let text = block(result.content, result.endLine);
  let tokens = await countTokensAsync(core.counter, text);
  if (tokens <= core.skillBudget) return { item: { ...withRange, text, tokens } };

  const lines = result.content.split("\n");
  const fits = async (k: number): Promise<boolean> =>
    (await countTokensAsync(core.counter, block(lines.slice(0, k).join("\n"), result.startLine + k - 1))) <=
    core.skillBudget;
  let lo = 0;
  let hi = lines.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (await fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  const k = Math.max(1, lo);
  let content = lines.slice(0, k).join("\n");
  if (lo === 0) {
    // One line alone is over budget: keep as many characters of it as fit.
    const line = lines[0] ?? "";
    let a = 0;
    let b = line.length;
    while (a < b) {
      const mid = (a + b + 1) >> 1;
      if (
        (await countTokensAsync(core.counter, block(line.slice(0, mid), result.startLine))) <=
        core.skillBudget
      )
        a = mid;
      else b = mid - 1;
    }
    content = `${line.slice(0, a)}…[line cut to fit the token budget]`;
  }
  const endLine = result.startLine + k - 1;
  text = block(content, endLine);
  tokens = await countTokensAsync(core.counter, text);
  const item: Item = { ...withRange, text, tokens };
  return endLine < result.totalLines ? { item, nextLine: endLine + 1 } : { item };
}
