/**
 * `filterCatalog`: a child's view of a parent catalog — only the skills whose name matches the allowlist
 * (names or globs). Nothing is scanned or read again: records, bodies, files and search come from the
 * parent, so a subagent built from its parent's parts costs no filesystem work.
 */
import picomatch from "picomatch";
import { SkillNotFoundError } from "../errors/skill-not-found-error.js";
import { closestNames } from "./closest-names.js";
import type { Catalog, CatalogChangeEvent, SearchHit, SkillRecord } from "./types.js";

/**
 * The skills of `parent` whose name matches one of `allow` (exact names or globs: `pdf-*`, `{a,b}`). A name
 * outside the allowlist is unknown to the view: `get` gives undefined, `load` and `files` throw
 * `SkillNotFoundError` naming the closest allowed names, `readFile` answers `unknown-skill`. `refresh`
 * re-scans the parent; `watch` reports the parent's changes to allowed skills only.
 */
export function filterCatalog(parent: Catalog, allow: readonly string[]): Catalog {
  const matches = allow.length === 0 ? () => false : picomatch([...allow]);
  const allowed = (record: SkillRecord | undefined): record is SkillRecord =>
    record !== undefined && matches(record.name);
  const names = (): string[] => parent.list().flatMap((r) => (matches(r.name) ? [r.name] : []));
  const mustAllow = (name: string): void => {
    if (!allowed(parent.get(name)))
      throw new SkillNotFoundError({ name, closest: closestNames(name, names()) });
  };
  return {
    list: () => parent.list().filter(allowed),
    get: (name) => {
      const record = parent.get(name);
      return allowed(record) ? record : undefined;
    },
    diagnostics: () => parent.diagnostics(),
    async load(name) {
      mustAllow(name);
      return parent.load(name);
    },
    async files(name) {
      mustAllow(name);
      return parent.files(name);
    },
    async readFile(name, path, range) {
      if (!allowed(parent.get(name)))
        return { kind: "unknown-skill", name, closest: closestNames(name, names()) };
      return parent.readFile(name, path, range);
    },
    async search(query, limit = 10) {
      if (limit <= 0) return [];
      // Widen the parent's top-k until `limit` allowed hits are found or the parent has no more.
      const total = parent.list().length;
      for (let wanted = limit; ; wanted *= 4) {
        const hits = await parent.search(query, wanted);
        const kept: SearchHit[] = hits.filter((hit) => matches(hit.record.name));
        if (kept.length >= limit || hits.length < wanted || wanted >= total) return kept.slice(0, limit);
      }
    },
    closest: (name, limit = 3) => closestNames(name, names(), limit),
    refresh: () => parent.refresh(),
    // The allowed names change only when the parent's records do.
    ...(parent.revision === undefined ? {} : { revision: () => parent.revision?.() ?? 0 }),
    watch(listener) {
      return parent.watch((event) => {
        const keep = (list: string[]) => list.filter((name) => matches(name));
        const scoped: CatalogChangeEvent = {
          added: keep(event.added),
          changed: keep(event.changed),
          removed: keep(event.removed),
          diagnostics: event.diagnostics,
        };
        if (scoped.added.length + scoped.changed.length + scoped.removed.length > 0) listener(scoped);
      });
    },
  };
}
