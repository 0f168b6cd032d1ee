/**
 * `selectDocs`: changes which docs (`.md` / `.txt` files, or the profile's doc rule) of a loaded skill are in
 * the context (add, replace or clear), reporting unknown and over-budget ones.
 */
import { buildDocItem } from "./build-items.js";
import { enforceBudget } from "./enforce-budget.js";
import type { LoadOptions } from "./load-skill.js";
import {
  docPaths,
  isFailure,
  joinNotices,
  resolveSkill,
  type SessionCore,
  sortedDocs,
} from "./session-core.js";
import type { SelectDocsResult } from "./session-results.js";
import { type Item, newItemId, recordCall, removeItem, type SkillEntry, touch } from "./session-state.js";

/** Changes the doc selection of a loaded skill (see {@link SkillSession.selectDocs}). */
export async function selectDocs(
  core: SessionCore,
  name: string,
  requested: string[],
  mode: "add" | "replace" | "clear",
  options: { includeAllDocs?: boolean; toolCallId?: string; by?: LoadOptions["by"] } = {},
): Promise<SelectDocsResult> {
  const record = resolveSkill(core, name, options.by ?? "model");
  if (isFailure(record)) return record;
  const entry = core.state.skills.get(record.name);
  if (entry === undefined) {
    return {
      ok: false,
      code: "not-loaded",
      message: `Skill '${record.name}' is not loaded. Call ${core.profile.toolNames.load} first (it accepts docs too).`,
    };
  }
  return selectDocsFor(core, entry, requested, mode, options, true);
}

/** The selection change on a loaded skill's entry (`enforce`: apply the context threshold afterwards). */
export async function selectDocsFor(
  core: SessionCore,
  entry: SkillEntry,
  requested: string[],
  mode: "add" | "replace" | "clear",
  options: { includeAllDocs?: boolean; toolCallId?: string },
  enforce: boolean,
): Promise<SelectDocsResult> {
  const { state } = core;
  const name = entry.record.name;
  const available = docPaths(entry.files, core.profile.isDoc);
  const unknownDocs = requested.filter((d) => !available.includes(d));
  let allDocs = entry.allDocs;
  let target: string[];
  if (mode === "clear") {
    allDocs = false;
    target = [];
  } else if (options.includeAllDocs === true || allDocs) {
    allDocs = true;
    target = available;
  } else {
    const wanted = new Set(requested.filter((d) => available.includes(d)));
    if (mode === "add") for (const p of entry.docs.keys()) wanted.add(p);
    target = available.filter((p) => wanted.has(p));
  }
  for (const [path, item] of [...entry.docs]) if (!target.includes(path)) removeItem(state, item);
  const added: Item[] = [];
  const tooLarge: string[] = [];
  for (const path of target) {
    if (entry.docs.has(path)) continue;
    const item = await buildDocItem(core, name, path, newItemId(state));
    if (item === undefined) {
      unknownDocs.push(path);
      continue;
    }
    if (item.tokens > core.skillBudget) {
      tooLarge.push(path);
      continue;
    }
    entry.docs.set(path, item);
    state.live.set(item.id, item);
    added.push(item);
  }
  entry.allDocs = allDocs;
  touch(state, name, [...entry.docs.values()]);
  recordCall(state, options.toolCallId, added);
  const budget = enforce
    ? enforceBudget(core, new Set([entry.item.id, ...[...entry.docs.values()].map((d) => d.id)]))
    : { evicted: [], notice: "" };
  const docs = sortedDocs(entry);
  core.emit({ type: "docs-select", name, docs });
  const notes: string[] = [];
  if (unknownDocs.length > 0) {
    notes.push(
      `Unknown docs (not selected): ${unknownDocs.join(", ")}. Available docs: ${available.length > 0 ? available.join(", ") : "none"}.`,
    );
  }
  if (tooLarge.length > 0) {
    notes.push(
      `Over the ${core.skillBudget}-token budget for one doc (not selected): ${tooLarge.join(", ")}. Read parts of ${tooLarge.length > 1 ? "them" : "it"} with ${core.profile.toolNames.read ?? "the read tool"} and start_line/end_line.`,
    );
  }
  return {
    ok: true,
    name,
    mode,
    docs,
    includeAllDocs: allDocs,
    unknownDocs,
    content: state.placement === "history" ? added.map((i) => i.text).join("") : "",
    evicted: budget.evicted,
    notice: joinNotices(...notes, budget.notice),
  };
}
