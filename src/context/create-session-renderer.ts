/**
 * The renderer of a session: the catalog (preamble + L1 list under its budget) and the loaded content in
 * its placement, as measured blocks. Pure over the session state: the same state renders the same bytes.
 * In `history` placement the catalog is frozen until {@link SessionRenderer.refreshCatalog}, so the system
 * prompt stays byte-identical while skills load (provider prompt caches keep hitting).
 */
import type { SkillRecord } from "../catalog/types.js";
import { createCatalogTokenCache, renderCatalog } from "./render-catalog.js";
import { renderPreamble } from "./render-preamble.js";
import { type MeasuredBlock, renderSessionBlocks } from "./render-session-context.js";
import { renderTrpcOverview } from "./render-trpc-overview.js";
import type { CatalogStats } from "./rendered-context.js";
import type { SessionProfile } from "./session-profile.js";
import type { SessionRenderer } from "./session-renderer.js";
import type { SessionState } from "./session-state.js";
import type { TokenCounter } from "./token-counter.js";
import { trpcCapabilityGuidance, trpcToolingGuidance } from "./trpc-guidance.js";

/** What the renderer reads. */
export interface SessionRendererInput {
  state: SessionState;
  counter: TokenCounter;
  profile: SessionProfile;
  /** Skills the model may see, in catalog order. */
  visible(): readonly SkillRecord[];
  /** Tokens for preamble + catalog. */
  catalogBudget: number;
  /** `skill_search` is offered above this many visible skills. */
  searchThreshold: number;
  /** Replaces the default preamble (`""`: none). */
  preamble?: string;
  /** trpc profile: most skills its overview lists with descriptions (`WithMaxOverviewSkills`). Default: as many as the budget holds. */
  maxOverviewSkills?: number;
  /** What an ineligible skill lacks, marked in its catalog entry (`renderCatalog`'s `unmet`). */
  unmet?: (record: SkillRecord) => string | undefined;
}

/** The renderer with the measured blocks the ledger and the budget read. */
export interface SessionRendering {
  renderer: SessionRenderer;
  /** Every rendered block with its tokens (memoised per state version and catalog). */
  measured(): MeasuredBlock[];
}

interface CatalogMemo {
  list: readonly SkillRecord[];
  key: string;
  block: MeasuredBlock | undefined;
  stats: CatalogStats;
}

const EMPTY_STATS: CatalogStats = {
  visible: 0,
  listed: 0,
  shortened: 0,
  bare: 0,
  omitted: 0,
  tokens: 0,
  searchOffered: false,
};

/** Builds the renderer of one session. */
export function createSessionRenderer(input: SessionRendererInput): SessionRendering {
  const { state, counter, profile } = input;
  const names = profile.toolNames;
  const tokenCache = createCatalogTokenCache();
  let epoch = 0;
  let request = "";

  let catalogMemo: CatalogMemo | undefined;
  const catalogBlock = (): CatalogMemo => {
    const records = input.visible();
    const trpc = profile.trpcTools !== undefined;
    // History placement keeps the catalog byte-stable across loads, except where the format states what is
    // active (AWorld's active_status, rebuilt on every call by its SkillsNeuron).
    const followsLoads = state.placement === "system" || profile.catalogFormat === "aworld";
    const base = followsLoads ? `v${state.version}|e${epoch}` : `e${epoch}`;
    // trpc ranks its overview for each request (its system prompt changes with the user's message).
    const key = trpc ? `${base}|r${request}` : base;
    if (catalogMemo !== undefined && catalogMemo.key === key && sameRecords(catalogMemo.list, records))
      return catalogMemo;
    if (records.length === 0) {
      catalogMemo = { list: records, key, block: undefined, stats: EMPTY_STATS };
      return catalogMemo;
    }
    if (profile.trpcTools !== undefined) {
      catalogMemo = trpcCatalog(records, key, profile.trpcTools);
      return catalogMemo;
    }
    const fixedPreamble = input.preamble;
    const preambleCost = counter.count(fixedPreamble ?? renderPreamble(names, { searchOffered: true }));
    const rendered = renderCatalog({
      records,
      format: profile.catalogFormat,
      budget: Math.max(0, input.catalogBudget - preambleCost),
      counter,
      cache: tokenCache,
      loaded: new Set(state.skills.keys()),
      usage: state.usage,
      ...(names.search !== undefined ? { searchTool: names.search } : {}),
      ...(input.unmet === undefined ? {} : { unmet: input.unmet }),
    });
    const searchOffered =
      rendered.omitted + rendered.shortened + rendered.bare > 0 || records.length > input.searchThreshold;
    const text = (fixedPreamble ?? renderPreamble(names, { searchOffered })) + rendered.text;
    const tokens = counter.count(text);
    const block: MeasuredBlock = {
      block: { key: "catalog", kind: "catalog", placement: "system", text },
      tokens,
    };
    const { listed, shortened, bare, omitted } = rendered;
    const stats: CatalogStats = {
      visible: records.length,
      listed,
      shortened,
      bare,
      omitted,
      tokens,
      searchOffered,
    };
    catalogMemo = { list: records, key, block, stats };
    return catalogMemo;
  };

  /** trpc's overview; without a cap it lists as many skills with descriptions as the catalog budget holds. */
  const trpcCatalog = (
    records: readonly SkillRecord[],
    key: string,
    flags: NonNullable<SessionProfile["trpcTools"]>,
  ): CatalogMemo => {
    let cap = input.maxOverviewSkills;
    if (cap === undefined) {
      const guidance =
        input.preamble === undefined
          ? `${trpcCapabilityGuidance(flags)}${trpcToolingGuidance(flags)}`
          : `${input.preamble}\n\n`;
      let spent = counter.count(`Available skills:\n${guidance}`);
      cap = 0;
      for (const r of records) {
        spent += counter.count(`- ${r.name}: ${r.description}\n`);
        if (spent > input.catalogBudget) break;
        cap += 1;
      }
      if (cap === records.length) cap = 0;
      else cap = Math.max(cap, 1);
    }
    // The session's preamble is trpc's guidance switch: "" leaves the guidance out, a text replaces it.
    const overview = renderTrpcOverview({
      records,
      request,
      cap,
      flags,
      ...(input.preamble === undefined ? {} : { guidance: input.preamble }),
    });
    const tokens = counter.count(overview.text);
    const searchOffered = overview.truncated > 0 || records.length > input.searchThreshold;
    return {
      list: records,
      key,
      block: { block: { key: "catalog", kind: "catalog", placement: "system", text: overview.text }, tokens },
      stats: {
        visible: records.length,
        listed: overview.listed + overview.truncated,
        shortened: 0,
        bare: overview.truncated,
        omitted: 0,
        tokens,
        searchOffered,
      },
    };
  };

  let blocksMemo: { version: number; catalog: CatalogMemo; blocks: MeasuredBlock[] } | undefined;
  const measured = (): MeasuredBlock[] => {
    const cat = catalogBlock();
    if (blocksMemo !== undefined && blocksMemo.version === state.version && blocksMemo.catalog === cat)
      return blocksMemo.blocks;
    const blocks = renderSessionBlocks(state, cat.block, (t) => counter.count(t), profile.systemLayout);
    blocksMemo = { version: state.version, catalog: cat, blocks };
    return blocks;
  };
  // The same blocks give the same string object: the loop asks for the system prompt before every step,
  // and a string it has seen before is not copied, hashed (the token counter's cache) or compared again.
  let promptMemo: { blocks: MeasuredBlock[]; text: string } | undefined;
  const systemPrompt = (): string => {
    const blocks = measured();
    if (promptMemo?.blocks !== blocks) {
      const text = blocks
        .filter((m) => m.block.placement === "system")
        .map((m) => m.block.text)
        .join("");
      promptMemo = { blocks, text };
    }
    return promptMemo.text;
  };

  const renderer: SessionRenderer = {
    render: () => {
      const blocks = measured().map((m) => m.block);
      return { system: systemPrompt(), blocks };
    },
    systemPrompt,
    catalogStats: () => catalogBlock().stats,
    searchOffered: () => catalogBlock().stats.searchOffered,
    refreshCatalog() {
      epoch += 1;
    },
    request: () => request,
    setRequest(text) {
      request = text;
    },
  };
  return { renderer, measured };
}

/** Same records in the same order (identity), cheap enough for 10,000 entries per render. */
export function sameRecords(a: readonly SkillRecord[], b: readonly SkillRecord[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
