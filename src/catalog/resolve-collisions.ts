import type { Diagnostic } from "../spec/types.js";
import type { SkillRecord } from "./types.js";

/** A usable skill and its precedence: lower `rank` wins; equal ranks keep input (sorted path) order. */
export interface RankedRecord {
  record: SkillRecord;
  rank: number;
}

/**
 * Picks one skill per name: the lowest rank wins (scope, then root order), then the first in input
 * order (sorted path order within a root). Every loser is reported as a warning naming both paths
 * (`name-shadowed` across scopes, `name-duplicate` within one); none is dropped silently. Returns the winners sorted by name.
 */
export function resolveCollisions(candidates: readonly RankedRecord[]): {
  records: SkillRecord[];
  /** The winners by name. */
  byName: Map<string, SkillRecord>;
  diagnostics: Diagnostic[];
} {
  // Array.prototype.sort is stable: equal ranks keep input order.
  const first = candidates[0]?.rank;
  const ordered = candidates.every((c) => c.rank === first)
    ? candidates
    : [...candidates].sort((a, b) => a.rank - b.rank);
  const winners = new Map<string, SkillRecord>();
  const diagnostics: Diagnostic[] = [];
  for (const { record } of ordered) {
    const winner = winners.get(record.name);
    if (winner === undefined) {
      winners.set(record.name, record);
      continue;
    }
    const why =
      winner.scope === record.scope
        ? `both are in the ${record.scope} scope; the first in root and path order wins`
        : `${winner.scope} skills take precedence over ${record.scope} skills`;
    diagnostics.push({
      // Same scope: two skills claim one name (`name-duplicate`); across scopes: precedence (`name-shadowed`).
      code: winner.scope === record.scope ? "name-duplicate" : "name-shadowed",
      severity: "warning",
      message: `Skill '${record.name}' at ${record.location} is shadowed by the skill of the same name at ${winner.location} (${why}). Rename one of them (the frontmatter \`name\` and its folder) to use both.`,
      path: record.location,
    });
  }
  const records = [...winners.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { records, byName: winners, diagnostics };
}
