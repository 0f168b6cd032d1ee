/**
 * The typed, mutable state behind a session, and the small operations on it (ids, the LRU clock, adding
 * and removing content items). Not exported from the package: sessions hand out values, not this.
 */
import type { SkillFile, SkillRecord } from "../catalog/types.js";
import type { Placement } from "./session-options.js";
import type { CallItem, SessionSnapshot } from "./session-snapshot.js";

/** One piece of loaded content (a skill body, a selected doc, a file read) with its rendered text. */
export interface Item {
  /** Instance id: a new one each time content enters the context. */
  id: string;
  kind: "skill" | "doc" | "read";
  skill: string;
  path?: string;
  startLine?: number;
  endLine?: number;
  lastUsed: number;
  /** Rendered block (history or system form, per the session's placement; reads are always history). */
  text: string;
  tokens: number;
  placement: Placement;
}

/** A loaded skill. */
export interface SkillEntry {
  item: Item;
  record: SkillRecord;
  args?: string;
  allDocs: boolean;
  /** Selected docs by path. */
  docs: Map<string, Item>;
  files: SkillFile[];
  /** Body after substitution. */
  body: string;
}

/** Everything a session knows. */
export interface SessionState {
  id: string;
  namespace: string;
  placement: Placement;
  clock: number;
  nextId: number;
  /** Bumped on every change (render memo key). */
  version: number;
  /** Loaded skills, oldest load first. */
  skills: Map<string, SkillEntry>;
  /** File reads by `skill\0path\0start\0end`. */
  reads: Map<string, Item>;
  usage: Map<string, number>;
  calls: Map<string, CallItem[]>;
  /** Every item currently in context, by instance id. */
  live: Map<string, Item>;
  historyTokens: number;
}

/** A fresh, empty state. */
export function createSessionState(id: string, namespace: string, placement: Placement): SessionState {
  return {
    id,
    namespace,
    placement,
    clock: 0,
    nextId: 0,
    version: 0,
    skills: new Map(),
    reads: new Map(),
    usage: new Map(),
    calls: new Map(),
    live: new Map(),
    historyTokens: 0,
  };
}

/** Advances the LRU clock and returns the new time. */
export function tick(state: SessionState): number {
  state.clock += 1;
  return state.clock;
}

/** A new instance id. */
export function newItemId(state: SessionState): string {
  state.nextId += 1;
  return `i${state.nextId}`;
}

/** Marks `name` (and the given items) as used now. */
export function touch(state: SessionState, name: string, items: Item[] = []): void {
  const now = tick(state);
  state.usage.set(name, now);
  const entry = state.skills.get(name);
  if (entry !== undefined) entry.item.lastUsed = now;
  for (const item of items) item.lastUsed = now;
  state.version += 1;
}

/** Key of a read in {@link SessionState.reads}. */
export function readKey(skill: string, path: string, startLine?: number, endLine?: number): string {
  return `${skill}\0${path}\0${startLine ?? ""}\0${endLine ?? ""}`;
}

/** Records that `toolCallId` returned these items. */
export function recordCall(state: SessionState, toolCallId: string | undefined, items: Item[]): void {
  if (toolCallId === undefined || items.length === 0) return;
  const list = state.calls.get(toolCallId) ?? [];
  for (const item of items) {
    const entry: CallItem = { id: item.id, kind: item.kind, skill: item.skill };
    if (item.path !== undefined) entry.path = item.path;
    list.push(entry);
  }
  state.calls.set(toolCallId, list);
}

/** Removes a loaded skill with its docs and reads; returns the removed items' ledger keys. */
export function removeSkill(state: SessionState, name: string): string[] {
  const removed: string[] = [];
  const entry = state.skills.get(name);
  if (entry !== undefined) {
    state.skills.delete(name);
    state.live.delete(entry.item.id);
    removed.push(itemKey(entry.item));
    for (const doc of entry.docs.values()) {
      state.live.delete(doc.id);
      removed.push(itemKey(doc));
    }
  }
  for (const [key, read] of state.reads) {
    if (read.skill !== name) continue;
    state.reads.delete(key);
    state.live.delete(read.id);
    removed.push(itemKey(read));
  }
  state.version += 1;
  return removed;
}

/** Removes one item (a skill removes its docs and reads too); returns the removed ledger keys. */
export function removeItem(state: SessionState, item: Item): string[] {
  if (item.kind === "skill") return removeSkill(state, item.skill);
  state.live.delete(item.id);
  state.version += 1;
  if (item.kind === "doc") state.skills.get(item.skill)?.docs.delete(item.path ?? "");
  else state.reads.delete(readKey(item.skill, item.path ?? "", item.startLine, item.endLine));
  return [itemKey(item)];
}

/** Ledger key of an item: `skill:<name>`, `doc:<name>/<path>`, `read:<name>/<path>#<start>-<end>`. */
export function itemKey(item: Item): string {
  if (item.kind === "skill") return `skill:${item.skill}`;
  if (item.kind === "doc") return `doc:${item.skill}/${item.path ?? ""}`;
  return `read:${item.skill}/${item.path ?? ""}#${item.startLine ?? 1}-${item.endLine ?? "end"}`;
}

/** Items in context, least recently used first (ties: older instance first), excluding `protect`ed ids. */
export function evictionOrder(state: SessionState, protect: ReadonlySet<string>): Item[] {
  return [...state.live.values()]
    .filter((item) => !protect.has(item.id))
    .sort((a, b) => a.lastUsed - b.lastUsed || Number(a.id.slice(1)) - Number(b.id.slice(1)));
}

/** The serialisable part of the state (see {@link SessionSnapshot}). */
export function snapshotState(state: SessionState): SessionSnapshot {
  return {
    version: 1,
    id: state.id,
    namespace: state.namespace,
    placement: state.placement,
    clock: state.clock,
    nextId: state.nextId,
    loaded: [...state.skills.values()].map((entry) => ({
      id: entry.item.id,
      lastUsed: entry.item.lastUsed,
      name: entry.record.name,
      ...(entry.args !== undefined ? { args: entry.args } : {}),
      allDocs: entry.allDocs,
      docs: [...entry.docs.values()].map((d) => ({ id: d.id, lastUsed: d.lastUsed, path: d.path ?? "" })),
    })),
    reads: [...state.reads.values()].map((r) => ({
      id: r.id,
      lastUsed: r.lastUsed,
      skill: r.skill,
      path: r.path ?? "",
      ...(r.startLine !== undefined ? { startLine: r.startLine } : {}),
      ...(r.endLine !== undefined ? { endLine: r.endLine } : {}),
    })),
    usage: Object.fromEntries(state.usage),
    calls: Object.fromEntries([...state.calls].map(([k, v]) => [k, v.map((c) => ({ ...c }))])),
    historyTokens: state.historyTokens,
  };
}
