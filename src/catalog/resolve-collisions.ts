import type { Diagnostic } from "../spec/types.js";
import type { SkillRecord } from "./types.js";

/** A usable skill and its precedence: lower `rank` wins; equal ranks keep input (sorted path) order. */
export interface RankedRecord {
  record: SkillRecord;
  rank: number;
}

/** What {@link resolveCollisions} returns. */
export interface ResolvedNames {
  /** The winners, sorted by name. */
  records: SkillRecord[];
  /** The winners by name. */
  byName: Map<string, SkillRecord>;
  /** A plugin skill served under its short name, by its qualified name (`plugin:skill` → `skill`). */
  aliases: Map<string, string>;
  /** A short name only plugin skills of several plugins claim: the qualified names to choose from. */
  ambiguous: Map<string, string[]>;
  diagnostics: Diagnostic[];
}

/** The qualified name of a plugin's skill: `plugin:skill`. */
export function qualifiedName(plugin: string, name: string): string {
  return `${plugin}:${name}`;
}

/**
 * Picks one skill per name: the lowest rank wins (scope, then root order), then the first in input
 * order (sorted path order within a root). Every loser is reported as a warning naming both paths
 * (`name-shadowed` across scopes, `name-duplicate` within one); none is dropped silently.
 *
 * A plugin's skill (`record.plugin`) keeps its short name while no other skill claims it (its qualified
 * name `plugin:skill` is then an alias); when another does, it is served as `plugin:skill` instead of
 * shadowing or being shadowed, so same-name skills of different plugins are all reachable. A short name
 * left to plugin skills only is ambiguous: looking it up offers their qualified names.
 */
export function resolveCollisions(candidates: readonly RankedRecord[]): ResolvedNames {
  // Array.prototype.sort is stable: equal ranks keep input order.
  const first = candidates[0]?.rank;
  let ordered = candidates.every((c) => c.rank === first)
    ? candidates
    : [...candidates].sort((a, b) => a.rank - b.rank);
  const aliases = new Map<string, string>();
  const ambiguous = new Map<string, string[]>();
  if (ordered.some((c) => c.record.plugin !== undefined)) ordered = qualify(ordered, aliases, ambiguous);
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
  for (const [short, names] of ambiguous) {
    if (winners.has(short)) ambiguous.delete(short);
    else ambiguous.set(short, [...new Set(names)].filter((name) => winners.has(name)).sort());
  }
  const records = [...winners.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { records, byName: winners, aliases, ambiguous, diagnostics };
}

/**
 * The candidates with every plugin skill whose short name another skill also claims renamed to its
 * qualified name (a copy of its record), in the same order; fills `aliases` for the plugin skills
 * that keep their short name and `ambiguous` with the qualified names per short name.
 */
function qualify(
  ordered: readonly RankedRecord[],
  aliases: Map<string, string>,
  ambiguous: Map<string, string[]>,
): RankedRecord[] {
  const claims = new Map<string, number>();
  for (const { record } of ordered) claims.set(record.name, (claims.get(record.name) ?? 0) + 1);
  return ordered.map((candidate) => {
    const { record } = candidate;
    if (record.plugin === undefined) return candidate;
    const qualified = qualifiedName(record.plugin, record.name);
    if (claims.get(record.name) === 1) {
      aliases.set(qualified, record.name);
      return candidate;
    }
    ambiguous.set(record.name, [...(ambiguous.get(record.name) ?? []), qualified]);
    return { record: { ...record, name: qualified }, rank: candidate.rank };
  });
}
