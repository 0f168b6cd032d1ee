import type { Diagnostic } from "../spec/types.js";
import type { CatalogChangeEvent, SkillRecord } from "./types.js";

/** The parts of a catalog state a change event compares. */
export interface ComparableState {
  byName: ReadonlyMap<string, SkillRecord>;
  diagnostics: readonly Diagnostic[];
}

/**
 * What changed between two catalog states, or undefined when nothing did. A skill is `changed` when its
 * record was rebuilt (its SKILL.md was re-read, or it moved). `diagnostics` are the ones that are new
 * in `next` (e.g. the reason a skill just broke); `next.diagnostics` has the full set.
 */
export function diffCatalogStates(
  previous: ComparableState,
  next: ComparableState,
): CatalogChangeEvent | undefined {
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  for (const [name, record] of next.byName) {
    const before = previous.byName.get(name);
    if (before === undefined) added.push(name);
    else if (before !== record) changed.push(name);
  }
  for (const name of previous.byName.keys()) if (!next.byName.has(name)) removed.push(name);
  const known = new Set(previous.diagnostics.map(diagnosticKey));
  const diagnostics = next.diagnostics.filter((d) => !known.has(diagnosticKey(d)));
  const gone = previous.diagnostics.length + diagnostics.length !== next.diagnostics.length;
  if (added.length + changed.length + removed.length + diagnostics.length === 0 && !gone) return undefined;
  return { added: added.sort(), changed: changed.sort(), removed: removed.sort(), diagnostics };
}

function diagnosticKey(d: Diagnostic): string {
  return `${d.code}\u0000${d.path}\u0000${d.line ?? ""}\u0000${d.message}`;
}
