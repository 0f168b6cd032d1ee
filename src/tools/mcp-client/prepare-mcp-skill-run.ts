/**
 * No implicit execution of MCP-served skills (SEP-2640): before `skill_run` runs a command in such a
 * skill, the user approves that skill — through the host's `onApproval` (chat's y/n/always, `ask --yes`),
 * or by its exact name in `tools.allow` (`skill_run:<shown name>`) — once per conversation. Then every
 * file of the skill is fetched from its server, verified against its entry, and written to a private
 * directory the run stages from: the command sees only verified bytes. `tools.approval: never` does not
 * waive the question, and the skill's `allowed-tools` pre-approve nothing.
 */
import { chmod, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { isMcpSkillsCatalog } from "../../catalog/mcp-source/with-mcp-skills.js";
import type { Catalog, SkillRecord } from "../../catalog/types.js";
import type { ToolApprovalOptions } from "../tool-approval.js";

/** Per-conversation state: skills approved (`always`) and their staged folders. */
export interface McpSkillRuns {
  approved: Set<string>;
  staged: Map<string, string>;
}

/** A fresh state. */
export function createMcpSkillRuns(): McpSkillRuns {
  return { approved: new Set(), staged: new Map() };
}

/** The approval key of a skill (`skill_run:hf:pdf`): also what `tools.allow` lists to pre-approve it. */
export function mcpSkillRunKey(record: Pick<SkillRecord, "name">): string {
  return `skill_run:${record.name}`;
}

/**
 * For an MCP-served `record`: the approval, then a local copy of its verified files (`record` with `dir`
 * there), or a refusal for the model. Other records pass through unchanged.
 */
export async function prepareMcpSkillRun(input: {
  record: SkillRecord;
  catalog: Catalog;
  approval: ToolApprovalOptions | undefined;
  runs: McpSkillRuns;
  toolCallId: string;
  command: unknown;
  abortSignal?: AbortSignal;
}): Promise<{ ok: true; record: SkillRecord } | { ok: false; message: string }> {
  const { record, catalog, runs } = input;
  if (record.origin.kind !== "mcp") return { ok: true, record };
  const skill = isMcpSkillsCatalog(catalog) ? catalog.mcpSkill(record.name) : undefined;
  if (!isMcpSkillsCatalog(catalog) || skill === undefined)
    return { ok: false, message: `Skill '${record.name}' is no longer served by ${record.origin.label}.` };
  const key = mcpSkillRunKey(record);
  const listed = input.approval?.allow?.includes(key) === true;
  if (!listed && !runs.approved.has(key)) {
    const ask = input.approval?.onApproval;
    const answer =
      ask === undefined
        ? ("no" as const)
        : await ask({
            toolName: key,
            toolCallId: input.toolCallId,
            input: { command: input.command },
            server: skill.server,
          });
    if (answer === "always") runs.approved.add(key);
    else if (answer !== "yes") {
      const why = typeof answer === "object" ? ` ${answer.deny}` : "";
      return {
        ok: false,
        message: `Running commands of skill '${record.name}' (served by ${record.origin.label}) needs the user's approval, which was not given; nothing was run.${why}`,
      };
    }
  }
  // A refreshed entry (other digests) is staged afresh.
  const version = `${key}\0${(Array.isArray(skill.entry.resources) ? skill.entry.resources : []).map((r) => `${r.uri} ${r.digest}`).join("\n")}`;
  let dir = runs.staged.get(version);
  if (dir === undefined) {
    // Fetched now (at run time, not at approval), each file verified against the entry in hand.
    const source = catalog.mcpSkills;
    const files = await source.files(skill, input.abortSignal);
    dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-mcp-skill-"));
    for (const file of files) {
      const read =
        file.path === "SKILL.md"
          ? { ok: true as const, bytes: await source.loadSkillMd(skill, input.abortSignal) }
          : await source.readFile(skill, file.path, input.abortSignal);
      if (!read.ok)
        return { ok: false, message: `Skill '${record.name}' could not be staged: ${read.reason}` };
      const target = path.join(dir, ...file.path.split("/"));
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await writeFile(target, read.bytes, { mode: 0o600 });
      if (file.path.startsWith("scripts/")) await chmod(target, 0o700);
    }
    runs.staged.set(version, dir);
  }
  return { ok: true, record: { ...record, dir } };
}
