/**
 * `createSkillSession`: the disclosure state of one conversation × namespace, assembled from its parts:
 * the operations (`session-operations.ts`, bound to one {@link SessionCore}), the renderer
 * (`create-session-renderer.ts`) and the history-placement message shaper (`create-history-shaper.ts`).
 */
import { randomUUID } from "node:crypto";
import type { Catalog, SkillRecord } from "../catalog/types.js";
import { DEFAULT_NAMESPACE } from "../store/session-store.js";
import { createHistoryShaper } from "./create-history-shaper.js";
import { createSessionRenderer, sameRecords } from "./create-session-renderer.js";
import { trackLoadMode } from "./load-mode.js";
import type { SessionCore } from "./session-core.js";
import type { SessionEvent } from "./session-event.js";
import { bindOperations } from "./session-operations.js";
import type { SkillSessionOptions } from "./session-options.js";
import { sessionProfile } from "./session-profile.js";
import { createSessionState, type SessionState } from "./session-state.js";
import type { SkillSession } from "./skill-session.js";
import { createSkillVisibility } from "./skill-visibility.js";
import { createTokenCounter } from "./token-counter.js";
import { unmetRequirements } from "./unmet-requirements.js";

/** Default context window when none is configured. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;
/** Default per-skill body budget in tokens. */
export const DEFAULT_SKILL_BUDGET = 8_000;
/** Catalog budget (tokens) when the context window is unknown. */
export const DEFAULT_CATALOG_BUDGET = 2_000;

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
  { initialized = false }: { initialized?: boolean } = {},
): { session: SkillSession; core: SessionCore } {
  const { catalog } = options;
  const counter = options.tokenCounter ?? createTokenCounter();
  const profile = sessionProfile(options.profile, {
    ...(options.runTool === undefined ? {} : { run: options.runTool }),
    ...(options.catalogFormat === undefined ? {} : { catalogFormat: options.catalogFormat }),
    ...(options.systemLayout === undefined ? {} : { systemLayout: options.systemLayout }),
    ...(options.skillTools === undefined ? {} : { skillTools: options.skillTools }),
    ...(options.loadMode === undefined ? {} : { loadMode: options.loadMode }),
    ...(options.maxLoadedSkills === undefined ? {} : { maxLoadedSkills: options.maxLoadedSkills }),
  });
  const contextWindowKnown = options.contextWindow !== undefined;
  const contextWindow = options.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  // Issue 3: 1% of the context window; 2,000 tokens when the window is unknown.
  const catalogBudget =
    options.catalogBudget ?? (contextWindowKnown ? Math.floor(contextWindow * 0.01) : DEFAULT_CATALOG_BUDGET);
  const visibility = createSkillVisibility({ allow: options.allow, deny: options.deny });
  const visible = visibleSkillsMemo(catalog, (r) => visibility.forModel(r));
  const { renderer, measured } = createSessionRenderer({
    state,
    counter,
    profile,
    visible,
    catalogBudget,
    searchThreshold: options.searchThreshold ?? 100,
    ...(options.preamble === undefined ? {} : { preamble: options.preamble }),
    ...(options.maxOverviewSkills === undefined ? {} : { maxOverviewSkills: options.maxOverviewSkills }),
    unmet: unmetRequirements(options),
  });
  const listeners = new Map<string, Set<(event: SessionEvent) => void>>();

  const core: SessionCore = {
    state,
    catalog,
    counter,
    profile,
    visibility,
    visible,
    renderer,
    measured,
    skillBudget: options.skillBudget ?? DEFAULT_SKILL_BUDGET,
    ...(options.maxActive === undefined ? {} : { maxActive: options.maxActive }),
    ...(options.skillEnv === undefined ? {} : { skillEnv: options.skillEnv }),
    ...(options.requirementsEnv === undefined ? {} : { requirementsEnv: options.requirementsEnv }),
    ...(options.preRender === undefined ? {} : { preRender: options.preRender }),
    ...(options.skillRunDir === undefined ? {} : { skillRunDir: options.skillRunDir }),
    contextWindow,
    contextWindowKnown,
    catalogBudget,
    threshold: Math.floor(contextWindow * (options.contextThreshold ?? 0.9)),
    maxResources: options.maxResources ?? 50,
    activeSkills: options.activeSkills ?? [],
    initialized,
    emit(event) {
      options.onEvent?.(event);
      for (const listener of listeners.get(event.type) ?? []) listener(event);
    },
    total: () => measured().reduce((sum, b) => sum + b.tokens, 0) + state.historyTokens,
  };

  const session: SkillSession = {
    id: state.id,
    namespace: state.namespace,
    placement: state.placement,
    profile,
    catalog,
    counter,
    ...bindOperations(core),
    renderer,
    history: createHistoryShaper(state, profile, counter),
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
  trackLoadMode(session);
  return { session, core };
}

/**
 * The records the model may see, recomputed only when the catalog's list changes: the same array while the
 * catalog's revision stays (a step's cost does not grow with the catalog), else when its records differ.
 */
function visibleSkillsMemo(
  catalog: Catalog,
  forModel: (record: SkillRecord) => boolean,
): () => readonly SkillRecord[] {
  let memo:
    | { revision: number | undefined; list: readonly SkillRecord[]; visible: SkillRecord[] }
    | undefined;
  const verdicts = new WeakMap<SkillRecord, boolean>();
  return () => {
    const revision = catalog.revision?.();
    if (memo !== undefined && revision !== undefined && memo.revision === revision) return memo.visible;
    const records = catalog.list();
    if (memo !== undefined && sameRecords(memo.list, records)) {
      memo.revision = revision;
      return memo.visible;
    }
    const visible = records.filter((r) => {
      let v = verdicts.get(r);
      if (v === undefined) {
        v = forModel(r);
        verdicts.set(r, v);
      }
      return v;
    });
    memo = { revision, list: records, visible };
    return visible;
  };
}
