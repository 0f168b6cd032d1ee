/**
 * The context threshold: when the ledger total passes it, least-recently-used items (skills with their
 * docs and reads, single docs, single reads) are evicted until it fits again, never the protected ones.
 */
import type { SessionCore } from "./session-core.js";
import { evictionOrder, removeItem } from "./session-state.js";

/** What an enforcement pass did. */
export interface BudgetOutcome {
  evicted: string[];
  /** Sentence for the model, `""` when nothing happened. */
  notice: string;
}

/** Evicts LRU items until the total is at or under the threshold; emits `skill-unload` and `budget-evict`. */
export function enforceBudget(core: SessionCore, protect: ReadonlySet<string>): BudgetOutcome {
  let total = core.total();
  if (total <= core.threshold) return { evicted: [], notice: "" };
  const before = total;
  const evicted: string[] = [];
  for (const item of evictionOrder(core.state, protect)) {
    if (total <= core.threshold) break;
    if (!core.state.live.has(item.id)) continue;
    evicted.push(...removeItem(core.state, item));
    if (item.kind === "skill") core.emit({ type: "skill-unload", name: item.skill, reason: "evict" });
    total = core.total();
  }
  if (evicted.length > 0) {
    core.emit({
      type: "budget-evict",
      evicted,
      tokensBefore: before,
      tokensAfter: total,
      threshold: core.threshold,
    });
  }
  const pct = Math.round((total / core.contextWindow) * 100);
  let notice = "";
  if (evicted.length > 0) {
    notice = `To keep the context under ${core.threshold.toLocaleString("en-US")} tokens, these were removed, least recently used first: ${evicted.join(", ")}. Load them again if you need them. Context usage: ${pct}%.`;
  }
  if (total > core.threshold) notice = `${notice}${notice === "" ? "" : " "}The context is ${pct}% full.`;
  return { evicted, notice };
}
