/**
 * `load`: a skill's body enters the context (rendered for the session's placement), with the docs asked
 * for, within the per-skill budget, `maxActive` and the context threshold (least-recently-used content is
 * evicted to make room).
 */
import { isMcpSkillsCatalog } from "../catalog/mcp-source/with-mcp-skills.js";
import { describeMissingRequirements } from "../catalog/skill-requirements.js";
import { buildSkillEntry } from "./build-items.js";
import { enforceBudget } from "./enforce-budget.js";
import { selectDocsFor } from "./select-docs.js";
import {
  docPaths,
  errorText,
  isFailure,
  joinNotices,
  notUserInvocableFailure,
  resolveSkill,
  type SessionCore,
  sortedDocs,
} from "./session-core.js";
import type { LoadResult, SelectDocsResult, SessionFailure } from "./session-results.js";
import { newItemId, recordCall, removeSkill, type SkillEntry, tick, touch } from "./session-state.js";
import { skillRequirementsOn } from "./unmet-requirements.js";

/** Options of {@link SkillSession.load}. */
export interface LoadOptions {
  /** Docs to select (replaces the selection). Unknown ones are reported, not selected. */
  docs?: string[];
  /** Select every doc (`*`); stays until a `clear`. */
  includeAllDocs?: boolean;
  /** Argument string for `$ARGUMENTS` / `$N`. A different value reloads a loaded skill. */
  args?: string;
  /**
   * Who asks. `model` (default): only skills visible to the model. `user` (a slash command, `$name`, an MCP
   * prompt): skills hidden by `disable-model-invocation` too, but never one with `user-invocable: false`
   * (refused with `not-user-invocable`). `init` loads every skill the filters allow (`active: true`, `activeSkills`).
   * `select` (the selection pre-pass) loads as the model does, reported as `select`.
   */
  by?: "model" | "user" | "init" | "select";
  /** Tool call carrying the result (for history rewriting). */
  toolCallId?: string;
}

/** Loads a skill (see {@link SkillSession.load}). */
export async function loadSkill(
  core: SessionCore,
  name: string,
  options: LoadOptions = {},
): Promise<LoadResult> {
  const by = options.by ?? "model";
  // A skill given only by its URI (SEP-2640): listed or not, it is looked up on the servers and loaded
  // (and verified) under the name the catalog shows for it.
  if (name.startsWith("skill://") && isMcpSkillsCatalog(core.catalog)) {
    const found = await core.catalog.resolveUri(name);
    if ("problem" in found)
      return { ok: false, code: "unknown-skill", message: `Skill ${name} not found: ${found.problem}.` };
    name = found.name;
  }
  const record = resolveSkill(core, name, by);
  if (isFailure(record)) return record;
  if (by === "user" && !record.userInvocable) return notUserInvocableFailure(core, record);
  const { state } = core;
  const wantsDocs = (options.docs?.length ?? 0) > 0 || options.includeAllDocs === true;
  const existing = state.skills.get(record.name);

  if (existing !== undefined && (options.args === undefined || options.args === existing.args)) {
    touch(state, record.name);
    const docs = wantsDocs
      ? await selectDocsFor(core, existing, options.docs ?? [], "replace", options, true)
      : undefined;
    const where = state.placement === "history" ? "earlier in this conversation" : "in the system prompt";
    return success(existing, {
      alreadyLoaded: true,
      content: `Skill '${record.name}' is already loaded; its instructions are ${where}. There is no need to load it again.`,
      docs,
      evicted: docs?.ok === true ? docs.evicted : [],
      notice: docs?.ok === true ? docs.notice : "",
    });
  }

  if (existing === undefined && by === "model" && state.skills.size >= (core.maxActive ?? Infinity)) {
    return tooManyActive(core, record.name);
  }
  let entry: SkillEntry;
  try {
    entry = await buildSkillEntry(core, record, options.args, newItemId(state));
  } catch (error) {
    return {
      ok: false,
      code: "read-failed",
      message: `Skill '${record.name}' could not be read: ${errorText(error)}.`,
    };
  }
  if (entry.item.tokens > core.skillBudget) return overBudget(core, entry);
  if (existing !== undefined) {
    // New arguments: the body is re-rendered; the doc selection stays.
    entry.docs = existing.docs;
    entry.allDocs = existing.allDocs;
    state.live.delete(existing.item.id);
    state.skills.delete(record.name);
  }
  const now = tick(state);
  entry.item.lastUsed = now;
  state.usage.set(record.name, now);
  state.skills.set(record.name, entry);
  state.live.set(entry.item.id, entry.item);
  state.version += 1;
  recordCall(state, options.toolCallId, [entry.item]);
  const docs = wantsDocs
    ? await selectDocsFor(core, entry, options.docs ?? [], "replace", options, false)
    : undefined;

  const protect = new Set([entry.item.id, ...[...entry.docs.values()].map((d) => d.id)]);
  const budget = enforceBudget(core, protect);
  if (core.total() > core.contextWindow) {
    removeSkill(state, record.name);
    return {
      ok: false,
      code: "context-full",
      message: `Skill '${record.name}' (${entry.item.tokens} tokens) does not fit in the context even after evicting everything else. Read only the parts you need with ${core.profile.toolNames.read ?? "the read tool"}.`,
    };
  }
  core.emit({ type: "skill-load", name: record.name, tokens: entry.item.tokens, by });
  const content =
    state.placement === "history"
      ? entry.item.text
      : `Skill '${record.name}' loaded. Its instructions are now in the system prompt under "Loaded Skill Instructions"; follow them.`;
  return success(entry, {
    alreadyLoaded: false,
    content,
    docs,
    evicted: budget.evicted,
    notice: joinNotices(requirementsNotice(core, entry), budget.notice, docs?.ok === true ? docs.notice : ""),
  });
}

/**
 * What an ineligible skill lacks, for the model: names only (never a value), and that the user has to
 * provide them. Empty when the skill declares nothing or everything is there.
 */
function requirementsNotice(core: SessionCore, entry: SkillEntry): string {
  const requirements = skillRequirementsOn(core, entry.record);
  if (requirements === undefined || requirements.eligible) return "";
  return `Requirements not met: this skill needs ${describeMissingRequirements(requirements.missing)}, which this machine does not provide. Commands relying on them will fail. Tell the user exactly which of these to provide (set the variable, e.g. in skills.${entry.record.name}.env of skillrt.config.json, or install the program); never ask for or repeat a secret's value.`;
}

function success(
  entry: SkillEntry,
  extra: {
    alreadyLoaded: boolean;
    content: string;
    docs: SelectDocsResult | undefined;
    evicted: string[];
    notice: string;
  },
): LoadResult {
  const docs = extra.docs?.ok === true ? extra.docs : undefined;
  return {
    ok: true,
    name: entry.record.name,
    alreadyLoaded: extra.alreadyLoaded,
    content: extra.content,
    body: entry.body,
    dir: entry.record.dir,
    tokens: entry.item.tokens,
    docs: sortedDocs(entry),
    unknownDocs: docs?.unknownDocs ?? [],
    docsContent: docs?.content ?? "",
    files: entry.files,
    record: entry.record,
    evicted: extra.evicted,
    notice: extra.notice,
  };
}

function overBudget(core: SessionCore, entry: SkillEntry): SessionFailure {
  const names = core.profile.toolNames;
  const refs = docPaths(entry.files, core.profile.isDoc).filter(
    (p) => p.startsWith("references/") || p.startsWith("reference"),
  );
  const read =
    names.read !== undefined
      ? ` Read the part you need with ${names.read} (path "SKILL.md" with start_line and end_line)`
      : "";
  const files =
    refs.length > 0
      ? `${read === "" ? " Its" : ", or its"} reference files: ${refs.slice(0, 10).join(", ")}${refs.length > 10 ? ", …" : ""}.`
      : read === ""
        ? ""
        : ".";
  return {
    ok: false,
    code: "over-budget",
    message: `Skill '${entry.record.name}' is ${entry.item.tokens.toLocaleString("en-US")} tokens, over the ${core.skillBudget.toLocaleString("en-US")}-token budget for one skill, so it was not loaded.${read}${files}`,
  };
}

/** A model's load past `maxActive`: names what is active and asks for an unload first. */
function tooManyActive(core: SessionCore, name: string): SessionFailure {
  const active = [...core.state.skills.keys()];
  const unload = core.profile.toolNames.unload;
  const how =
    unload === undefined ? "Finish with one of them first" : `Call ${unload} on one you no longer need`;
  return {
    ok: false,
    code: "too-many-active",
    message: `At most ${core.maxActive} skills may be active at once, and ${active.length} are: ${active.join(", ")}. ${how}, then load '${name}' again.`,
  };
}
