/**
 * The disclosure operations of a session: load, select docs, read a file, unload. Each returns a typed
 * result written for the model on failure; none throws for expected failures.
 */
import type { ReadFileResult } from "../catalog/types.js";
import { buildDocItem, buildReadItem, buildSkillEntry } from "./build-items.js";
import { enforceBudget } from "./enforce-budget.js";
import {
  docPaths,
  errorText,
  notFoundFailure,
  notUserInvocableFailure,
  resolveSkill,
  type SessionCore,
} from "./session-core.js";
import {
  type Item,
  newItemId,
  readKey,
  recordCall,
  removeItem,
  removeSkill,
  type SkillEntry,
  tick,
  touch,
} from "./session-state.js";
import type {
  LoadResult,
  ReadResult,
  SelectDocsResult,
  SessionFailure,
  UnloadResult,
} from "./session-types.js";
import type { LoadOptions, ReadOptions } from "./skill-session.js";

const isFailure = (value: object): value is SessionFailure => "ok" in value && value.ok === false;

function join(...notices: string[]): string {
  return notices.filter((n) => n !== "").join(" ");
}

/** Loads a skill (see {@link SkillSession.load}). */
export async function loadSkill(
  core: SessionCore,
  name: string,
  options: LoadOptions = {},
): Promise<LoadResult> {
  const by = options.by ?? "model";
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
      message: `Skill '${record.name}' (${entry.item.tokens} tokens) does not fit in the context even after evicting everything else. Read only the parts you need with ${core.names().read ?? "the read tool"}.`,
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
    notice: join(budget.notice, docs?.ok === true ? docs.notice : ""),
  });
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
  const names = core.names();
  const refs = docPaths(entry.files, core.isDoc).filter(
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

function sortedDocs(entry: SkillEntry): string[] {
  return [...entry.docs.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

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
      message: `Skill '${record.name}' is not loaded. Call ${core.names().load} first (it accepts docs too).`,
    };
  }
  return selectDocsFor(core, entry, requested, mode, options, true);
}

async function selectDocsFor(
  core: SessionCore,
  entry: SkillEntry,
  requested: string[],
  mode: "add" | "replace" | "clear",
  options: { includeAllDocs?: boolean; toolCallId?: string },
  enforce: boolean,
): Promise<SelectDocsResult> {
  const { state } = core;
  const name = entry.record.name;
  const available = docPaths(entry.files, core.isDoc);
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
      `Over the ${core.skillBudget}-token budget for one doc (not selected): ${tooLarge.join(", ")}. Read parts of ${tooLarge.length > 1 ? "them" : "it"} with ${core.names().read ?? "the read tool"} and start_line/end_line.`,
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
    notice: join(...notes, budget.notice),
  };
}

/** Reads one file of a visible skill (see {@link SkillSession.readFile}). */
export async function readFile(
  core: SessionCore,
  name: string,
  path: string,
  options: ReadOptions = {},
): Promise<ReadResult> {
  const record = resolveSkill(core, name);
  if (isFailure(record)) return record;
  const { state } = core;
  const names = core.names();
  if (options.requireLoaded === true && !state.skills.has(record.name)) {
    return {
      ok: false,
      code: "not-loaded",
      message: `Skill '${record.name}' is not loaded. Load the skill first using ${names.load}.`,
    };
  }
  const range = {
    ...(options.startLine !== undefined ? { startLine: options.startLine } : {}),
    ...(options.endLine !== undefined ? { endLine: options.endLine } : {}),
  };
  let result: ReadFileResult;
  try {
    result = await core.catalog.readFile(record.name, path, range);
  } catch (error) {
    return {
      ok: false,
      code: "read-failed",
      message: `File '${path}' of skill '${record.name}' could not be read: ${errorText(error)}.`,
    };
  }
  switch (result.kind) {
    case "unknown-skill":
      return notFoundFailure(core, name);
    case "not-found":
      return {
        ok: false,
        code: "file-not-found",
        message: `File '${path}' not found in skill '${record.name}'. Available paths:\n${result.available.map((p, i) => `${i + 1}. ${p}`).join("\n")}`,
        available: result.available,
      };
    case "refused":
      return {
        ok: false,
        code: "path-refused",
        message: refusedMessage(path, result.reason),
      };
    default:
      break;
  }
  const key = readKey(record.name, result.path, options.startLine, options.endLine);
  const previous = state.reads.get(key);
  if (previous !== undefined) removeItem(state, previous);
  const { item, nextLine } = buildReadItem(core, record.name, result, range, newItemId(state));
  state.reads.set(key, item);
  state.live.set(item.id, item);
  touch(state, record.name, [item]);
  recordCall(state, options.toolCallId, [item]);
  const protect = new Set([item.id]);
  const loaded = state.skills.get(record.name);
  if (loaded !== undefined) protect.add(loaded.item.id);
  const budget = enforceBudget(core, protect);
  core.emit({ type: "file-read", name: record.name, path: result.path, tokens: item.tokens });
  return {
    ok: true,
    name: record.name,
    path: result.path,
    kind: result.kind,
    content: item.text,
    tokens: item.tokens,
    ...(nextLine !== undefined ? { nextLine } : {}),
    evicted: budget.evicted,
    notice: budget.notice,
  };
}

/**
 * "Path 'x' was refused." with the catalog's reason (already a sentence, possibly with advice), plus what to
 * do next when the reason does not say it.
 */
export function refusedMessage(path: string, reason: string): string {
  const trimmed = reason.trim();
  const sentence = /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
  const advised = /\b(Use|Ask for|Read one)\b/.test(sentence);
  const advice = advised ? "" : " Use a path relative to the skill directory, such as SKILL.md.";
  return `Path '${path}' was refused. ${sentence}${advice}`;
}

/** Unloads a skill with its docs and reads (see {@link SkillSession.unload}). */
export function unloadSkill(
  core: SessionCore,
  name: string,
  options: { by?: "model" | "user" } = {},
): UnloadResult {
  const { state } = core;
  if (!state.skills.has(name)) {
    const record = resolveSkill(core, name);
    if (isFailure(record)) return record;
    return {
      ok: false,
      code: "not-loaded",
      message: `Skill '${name}' is not currently loaded. Loaded skills: [${[...state.skills.keys()].join(", ")}].`,
    };
  }
  removeSkill(state, name);
  core.emit({ type: "skill-unload", name, reason: "unload", by: options.by ?? "model" });
  return { ok: true, name, loaded: [...state.skills.keys()] };
}

/** A model's load past `maxActive`: names what is active and asks for an unload first. */
function tooManyActive(core: SessionCore, name: string): SessionFailure {
  const active = [...core.state.skills.keys()];
  const unload = core.names().unload;
  const how =
    unload === undefined ? "Finish with one of them first" : `Call ${unload} on one you no longer need`;
  return {
    ok: false,
    code: "too-many-active",
    message: `At most ${core.maxActive} skills may be active at once, and ${active.length} are: ${active.join(", ")}. ${how}, then load '${name}' again.`,
  };
}
