import { type CatalogState, type ScanInput, type ScannedSkill, scanSkillAgain } from "./scan-catalog.js";
import type { CatalogChangeEvent, SkillRecord } from "./types.js";

/**
 * Applies edits of the SKILL.md files of `dirs` to `state` in place, touching only those skills: each
 * file is looked at again (re-read when its identity changed) and its record replaced where it is
 * served (the sorted record list and the by-name map). That is all that can change when every edited
 * skill was usable and still is, under the same name: precedence, collisions and the catalog's
 * diagnostics stay as they were. Returns the change event (undefined when nothing served changed), or
 * `false`, with `state` untouched, when an edit changed a name or made a skill usable or broken — the
 * caller then assembles the state afresh ({@link rescanSkillFiles}). For folders whose listings are
 * unchanged (the caller checks that, see `affectedSkillDirs`).
 */
export function updateSkillFiles(
  input: ScanInput,
  state: CatalogState,
  dirs: Iterable<string>,
): CatalogChangeEvent | undefined | false {
  const readAt = Date.now();
  const updates: [dir: string, before: ScannedSkill, after: ScannedSkill][] = [];
  for (const dir of dirs) {
    const before = state.scanned.get(dir);
    if (before === undefined) continue;
    const after = scanSkillAgain(input, dir, before, readAt);
    if (after === before) continue;
    if (before.record === undefined || after.record === undefined) return false;
    if (after.record.name !== before.record.name) return false;
    // A plugin's skill may be served under its qualified name: assembling afresh names it again.
    if (before.record.plugin !== undefined) return false;
    updates.push([dir, before, after]);
  }
  const changed: string[] = [];
  for (const [dir, before, after] of updates) {
    state.scanned.set(dir, after);
    const old = before.record as SkillRecord;
    const record = after.record as SkillRecord;
    // A record kept (file touched, not changed), or one shadowed by another skill's: nothing served changes.
    if (record === old || state.byName.get(old.name) !== old) continue;
    state.byName.set(record.name, record);
    const at = indexOfRecord(state.records, old);
    if (at >= 0) state.records[at] = record;
    changed.push(record.name);
  }
  if (changed.length === 0) return undefined;
  return { added: [], changed: changed.sort(), removed: [], diagnostics: [] };
}

/** Where `record` is in `records` (sorted by name, one record per name), or -1. */
function indexOfRecord(records: readonly SkillRecord[], record: SkillRecord): number {
  let low = 0;
  let high = records.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const name = records[mid]!.name;
    if (name === record.name) return records[mid] === record ? mid : -1;
    if (name < record.name) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}
