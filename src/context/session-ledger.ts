/** The token ledger of a session: what is in context now, item by item, against its budgets. */

import type { Ledger, LedgerEntry } from "./rendered-context.js";
import type { SessionCore } from "./session-core.js";

/** Tokens per rendered block plus the conversation's `history` entry; `total` is their sum. */
export function sessionLedger(core: SessionCore): Ledger {
  const entries: LedgerEntry[] = core.measured().map((m) => ({
    key: m.block.key,
    kind: m.block.kind,
    ...(m.block.skill !== undefined ? { skill: m.block.skill } : {}),
    placement: m.block.placement,
    tokens: m.tokens,
  }));
  entries.push({ key: "history", kind: "history", placement: "history", tokens: core.state.historyTokens });
  return {
    counter: core.counter.name,
    entries,
    total: entries.reduce((sum, e) => sum + e.tokens, 0),
    contextWindow: core.contextWindow,
    contextWindowKnown: core.contextWindowKnown,
    threshold: core.threshold,
    catalogBudget: core.catalogBudget,
    catalog: core.renderer.catalogStats(),
  };
}
