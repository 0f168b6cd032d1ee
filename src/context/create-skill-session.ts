/**
 * `createSkillSession`: the disclosure state machine for one conversation × namespace, with its budgets,
 * renderers and ledger. See {@link SkillSession} for the operations.
 */
import { randomUUID } from "node:crypto";
import type { SkillRecord } from "../catalog/types.js";
import { DEFAULT_NAMESPACE } from "../store/session-store.js";
import { INIT_LOAD_CALL_PREFIX, openingMessages } from "./opening-messages.js";
import { createCatalogTokenCache, renderCatalog } from "./render-catalog.js";
import { renderPreamble } from "./render-preamble.js";
import { type MeasuredBlock, renderSessionBlocks } from "./render-session-context.js";
import { historyText, rewriteHistory } from "./rewrite-history.js";
import type { SessionCore } from "./session-core.js";
import { docPaths, notFoundFailure, resolveSkill, safeFiles } from "./session-core.js";
import { loadSkill, readFile, selectDocs, unloadSkill } from "./session-operations.js";
import { sessionProfile } from "./session-profile.js";
import { createSessionState, type SessionState, snapshotState } from "./session-state.js";
import type {
  CatalogStats,
  LedgerEntry,
  LoadResult,
  SessionEvent,
  SkillSessionOptions,
} from "./session-types.js";
import type { SkillSession } from "./skill-session.js";
import { createSkillVisibility } from "./skill-visibility.js";
import { createTokenCounter } from "./token-counter.js";

/** Default context window when none is configured. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;
/** Default per-skill body budget in tokens. */
export const DEFAULT_SKILL_BUDGET = 8_000;
/** Catalog budget (tokens) when the context window is unknown. */
export const DEFAULT_CATALOG_BUDGET = 2_000;

interface CatalogMemo {
  list: readonly SkillRecord[];
  key: string;
  block: MeasuredBlock | undefined;
  stats: CatalogStats;
}

/** Creates a session with nothing loaded. Call `init()` (or use {@link startSkillSession}) to load `active` skills. */
export function createSkillSession(options: SkillSessionOptions): SkillSession {
  const state = createSessionState(
    options.id ?? randomUUID(),
    options.namespace ?? DEFAULT_NAMESPACE,
    options.placement ?? "history",
  );
  return openSkillSession(options, state).session;
}

/** Creates a session and loads its `active: true` and `activeSkills` skills. */
export async function startSkillSession(options: SkillSessionOptions): Promise<SkillSession> {
  const session = createSkillSession(options);
  await session.init();
  return session;
}

/**
 * Internal: a session over an existing state. Restore passes `initialized: true`: a resumed conversation
 * already started, so `init()` must not load `active` skills the conversation has since unloaded.
 */
export function openSkillSession(
  options: SkillSessionOptions,
  state: SessionState,
  { initialized: alreadyInitialized = false }: { initialized?: boolean } = {},
): { session: SkillSession; core: SessionCore } {
  const catalog = options.catalog;
  const counter = options.tokenCounter ?? createTokenCounter();
  const contextWindowKnown = options.contextWindow !== undefined;
  const contextWindow = options.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  // Issue 3: 1% of the context window; 2,000 tokens when the window is unknown.
  const catalogBudget =
    options.catalogBudget ?? (contextWindowKnown ? Math.floor(contextWindow * 0.01) : DEFAULT_CATALOG_BUDGET);
  const searchThreshold = options.searchThreshold ?? 100;
  const visibility = createSkillVisibility({ allow: options.allow, deny: options.deny });
  const tokenCache = createCatalogTokenCache();
  const listeners = new Map<string, Set<(event: SessionEvent) => void>>();
  const profile = sessionProfile(options.profile, {
    ...(options.runTool === undefined ? {} : { run: options.runTool }),
    ...(options.catalogFormat === undefined ? {} : { catalogFormat: options.catalogFormat }),
    ...(options.systemLayout === undefined ? {} : { systemLayout: options.systemLayout }),
  });
  const { toolNames: names, isDoc, catalogFormat: format, systemLayout: layout, loadInput } = profile;
  let epoch = 0;
  let initialized = alreadyInitialized;

  let visibleMemo: { list: readonly SkillRecord[]; visible: SkillRecord[] } | undefined;
  const visibleFor = new WeakMap<SkillRecord, boolean>();
  const visible = (): SkillRecord[] => {
    const list = catalog.list();
    if (visibleMemo !== undefined && sameRecords(visibleMemo.list, list)) return visibleMemo.visible;
    const result = list.filter((r) => {
      let v = visibleFor.get(r);
      if (v === undefined) {
        v = visibility.forModel(r);
        visibleFor.set(r, v);
      }
      return v;
    });
    visibleMemo = { list, visible: result };
    return result;
  };

  let catalogMemo: CatalogMemo | undefined;
  const catalogBlock = (): CatalogMemo => {
    const records = visible();
    const key = `${format}|${state.placement === "history" ? `e${epoch}` : `v${state.version}|e${epoch}`}`;
    if (catalogMemo !== undefined && catalogMemo.key === key && sameRecords(catalogMemo.list, records))
      return catalogMemo;
    if (records.length === 0) {
      const stats = {
        visible: 0,
        listed: 0,
        shortened: 0,
        bare: 0,
        omitted: 0,
        tokens: 0,
        searchOffered: false,
      };
      catalogMemo = { list: records, key, block: undefined, stats };
      return catalogMemo;
    }
    const fixedPreamble = options.preamble;
    const preambleCost = counter.count(fixedPreamble ?? renderPreamble(names, { searchOffered: true }));
    const rendered = renderCatalog({
      records,
      format,
      budget: Math.max(0, catalogBudget - preambleCost),
      counter,
      cache: tokenCache,
      loaded: new Set(state.skills.keys()),
      usage: state.usage,
      ...(names.search !== undefined ? { searchTool: names.search } : {}),
    });
    const searchOffered =
      rendered.omitted + rendered.shortened + rendered.bare > 0 || records.length > searchThreshold;
    const text = (fixedPreamble ?? renderPreamble(names, { searchOffered })) + rendered.text;
    const tokens = counter.count(text);
    const block: MeasuredBlock = {
      block: { key: "catalog", kind: "catalog", placement: "system", text },
      tokens,
    };
    const stats: CatalogStats = { visible: records.length, ...pick(rendered), tokens, searchOffered };
    catalogMemo = { list: records, key, block, stats };
    return catalogMemo;
  };

  let blocksMemo: { version: number; catalog: CatalogMemo; blocks: MeasuredBlock[] } | undefined;
  const measured = (): MeasuredBlock[] => {
    const cat = catalogBlock();
    if (blocksMemo !== undefined && blocksMemo.version === state.version && blocksMemo.catalog === cat)
      return blocksMemo.blocks;
    const blocks = renderSessionBlocks(state, cat.block, (t) => counter.count(t), layout);
    blocksMemo = { version: state.version, catalog: cat, blocks };
    return blocks;
  };
  const total = (): number => measured().reduce((sum, b) => sum + b.tokens, 0) + state.historyTokens;

  const emit = (event: SessionEvent): void => {
    options.onEvent?.(event);
    for (const listener of listeners.get(event.type) ?? []) listener(event);
  };

  const core: SessionCore = {
    state,
    catalog,
    counter,
    visibility,
    skillBudget: options.skillBudget ?? DEFAULT_SKILL_BUDGET,
    ...(options.maxActive === undefined ? {} : { maxActive: options.maxActive }),
    contextWindow,
    threshold: Math.floor(contextWindow * (options.contextThreshold ?? 0.9)),
    maxResources: options.maxResources ?? 50,
    names: () => names,
    systemLayout: () => layout,
    isDoc,
    searchOffered: () => catalogBlock().stats.searchOffered,
    emit,
    total,
  };

  const session: SkillSession = {
    id: state.id,
    namespace: state.namespace,
    placement: state.placement,
    profile,
    catalog,
    counter,
    async init() {
      if (initialized) return [];
      initialized = true;
      const wanted = new Set<string>();
      for (const r of catalog.list()) if (r.active && visibility.forUser(r)) wanted.add(r.name);
      for (const name of options.activeSkills ?? []) wanted.add(name);
      const results: LoadResult[] = [];
      for (const name of wanted) {
        results.push(
          await loadSkill(core, name, { by: "init", toolCallId: `${INIT_LOAD_CALL_PREFIX}${name}` }),
        );
      }
      return results;
    },
    visibleSkills: () => [...visible()],
    userInvocableSkills: () => catalog.list().filter((r) => r.userInvocable && visibility.forUser(r)),
    loadedSkills: () => [...state.skills.keys()],
    loadedSkill(name) {
      const entry = state.skills.get(name);
      if (entry === undefined) return undefined;
      return {
        name,
        record: entry.record,
        ...(entry.args !== undefined ? { args: entry.args } : {}),
        docs: [...entry.docs.keys()].sort(),
        allDocs: entry.allDocs,
        files: entry.files,
        tokens: entry.item.tokens,
      };
    },
    load: (name, loadOptions) => loadSkill(core, name, loadOptions),
    selectDocs: (name, docs, mode, selectOptions) => selectDocs(core, name, docs, mode, selectOptions),
    async listDocs(name) {
      const record = resolveSkill(core, name);
      if ("ok" in record) return record;
      return {
        ok: true,
        name: record.name,
        docs: docPaths(state.skills.get(record.name)?.files ?? (await safeFiles(core, record.name)), isDoc),
      };
    },
    async listFiles(name) {
      const record = resolveSkill(core, name);
      if ("ok" in record) return record;
      return { ok: true, name: record.name, files: await safeFiles(core, record.name) };
    },
    readFile: (name, path, readOptions) => readFile(core, name, path, readOptions),
    unload: (name, unloadOptions) => unloadSkill(core, name, unloadOptions),
    search(query, limit = 10) {
      return catalog
        .search(query, limit + 20)
        .filter((hit) => visibility.forModel(hit.record))
        .slice(0, limit)
        .map((hit) => ({
          name: hit.record.name,
          description: hit.record.description,
          score: hit.score,
          loaded: state.skills.has(hit.record.name),
        }));
    },
    notFound: (name) => notFoundFailure(core, name),
    render() {
      const blocks = measured().map((m) => m.block);
      return {
        system: blocks
          .filter((b) => b.placement === "system")
          .map((b) => b.text)
          .join(""),
        blocks,
      };
    },
    renderSystemPrompt() {
      return measured()
        .filter((m) => m.block.placement === "system")
        .map((m) => m.block.text)
        .join("");
    },
    ledger() {
      const entries: LedgerEntry[] = measured().map((m) => ({
        key: m.block.key,
        kind: m.block.kind,
        ...(m.block.skill !== undefined ? { skill: m.block.skill } : {}),
        placement: m.block.placement,
        tokens: m.tokens,
      }));
      entries.push({ key: "history", kind: "history", placement: "history", tokens: state.historyTokens });
      return {
        counter: counter.name,
        entries,
        total: entries.reduce((sum, e) => sum + e.tokens, 0),
        contextWindow,
        contextWindowKnown,
        threshold: core.threshold,
        catalogBudget,
        catalog: catalogBlock().stats,
      };
    },
    catalogStats: () => catalogBlock().stats,
    searchOffered: () => catalogBlock().stats.searchOffered,
    toolNames: () => names,
    loadCall: (name, args) => ({ toolName: names.load, input: loadInput(name, args) }),
    openingMessages: () =>
      openingMessages(
        state,
        (name) => session.loadCall(name),
        (messages) => session.rewriteHistory(messages),
      ),
    refreshCatalog() {
      epoch += 1;
    },
    rewriteHistory: (messages) =>
      rewriteHistory(messages, state.calls, (id) => state.live.get(id)?.text, names),
    measureHistory(messages) {
      const isLive = (callId: string): boolean =>
        state.calls.get(callId)?.some((c) => state.live.has(c.id)) ?? false;
      const tokens = historyText(messages, isLive).reduce((sum, t) => sum + counter.count(t), 0);
      state.historyTokens = tokens;
      return tokens;
    },
    setHistoryTokens(tokens) {
      state.historyTokens = Math.max(0, Math.floor(tokens));
    },
    rematerialize() {
      if (state.placement === "system" || state.skills.size === 0) return "";
      let text = "Loaded skill context (skills still loaded from earlier in this conversation):\n\n";
      for (const entry of state.skills.values()) {
        text += entry.item.text;
        for (const path of [...entry.docs.keys()].sort()) text += entry.docs.get(path)?.text ?? "";
      }
      return text;
    },
    snapshot: () => snapshotState(state),
    on(type, listener) {
      const set = listeners.get(type) ?? new Set();
      const wrapped = listener as (event: SessionEvent) => void;
      set.add(wrapped);
      listeners.set(type, set);
      return () => {
        set.delete(wrapped);
      };
    },
  };
  return { session, core };
}

function pick(r: { listed: number; shortened: number; bare: number; omitted: number }) {
  return { listed: r.listed, shortened: r.shortened, bare: r.bare, omitted: r.omitted };
}

/** Same records in the same order (identity), cheap enough for 10,000 entries per render. */
function sameRecords(a: readonly SkillRecord[], b: readonly SkillRecord[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
