/** What a {@link SkillSession} renders (blocks, the system prompt) and what it costs (the token ledger). */
import type { Placement } from "./session-options.js";

/** A piece of context the session renders, measured as one ledger entry. */
export interface ContextBlock {
  /** Stable key, e.g. `catalog`, `skill:pdf`, `doc:pdf/references/a.md`, `read:pdf/SKILL.md#1-40`. */
  key: string;
  kind: "catalog" | "frame" | "skill" | "doc" | "read";
  /** Owning skill (skill, doc, read). */
  skill?: string;
  /** `system`: part of the system prompt; `history`: a tool result in the conversation. */
  placement: Placement;
  text: string;
}

/** Everything the session renders now. `system` is exactly the `system`-placed blocks concatenated. */
export interface RenderedContext {
  system: string;
  blocks: ContextBlock[];
}

/** One line of the token ledger. */
export interface LedgerEntry {
  key: string;
  kind: ContextBlock["kind"] | "history";
  skill?: string;
  placement: Placement;
  tokens: number;
}

/** Tokens per item in context; `total` equals the tokens of what is rendered plus reported history. */
export interface Ledger {
  /** Token counter name, e.g. `o200k_base`. */
  counter: string;
  entries: LedgerEntry[];
  total: number;
  contextWindow: number;
  /** False when the session was created without `contextWindow` (the window above is the 128,000 default). */
  contextWindowKnown: boolean;
  /** Tokens above which content is evicted. */
  threshold: number;
  catalogBudget: number;
  /** Catalog figures: skills listed with full, shortened or no description, and not listed. */
  catalog: CatalogStats;
}

/** How the catalog fared against its budget. */
export interface CatalogStats {
  visible: number;
  listed: number;
  shortened: number;
  bare: number;
  omitted: number;
  tokens: number;
  /** True when `skill_search` should be offered. */
  searchOffered: boolean;
}
