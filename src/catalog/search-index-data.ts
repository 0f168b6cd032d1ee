import { SearchIndex, type SearchIndexData, type SearchWeights } from "./search-index.js";
import { FIELDS } from "./search-layout.js";
import type { SkillRecord } from "./types.js";

/**
 * The plain data of a built search index (terms, postings grouped by term, field lengths, and the skill
 * names it was built over) for a persistent cache: strings and typed arrays,
 * structured-clone safe. Pair it with the same records on load. The arrays are the index's own: treat
 * them as read-only.
 */
export function serializeSearchIndex(index: SearchIndex): SearchIndexData {
  const { terms, offsets, docs, counts, lengths } = index.parts();
  return {
    format: "skillrt-search-index",
    version: 5,
    names: index.records.map((record) => record.name),
    terms: [...terms],
    offsets,
    docs,
    counts,
    lengths,
  };
}

/**
 * An index from {@link serializeSearchIndex}'s data and the records it was built over (same names in the
 * same order, e.g. the catalog's `list()`). Returns undefined when the data is not an index of this
 * version or does not match `records` (names, array sizes, a posting's document out of range or out of
 * order) — the caller then builds a fresh `SearchIndex`. The index ranks under `weights` (default: the
 * default weights); the stored data does not depend on them.
 */
export function loadSearchIndex(
  data: unknown,
  records: readonly SkillRecord[],
  weights: Partial<SearchWeights> = {},
): SearchIndex | undefined {
  if (!isIndexData(data)) return undefined;
  const n = records.length;
  const { terms, offsets, docs, counts, lengths } = data;
  if (data.names.length !== n || lengths.length !== n * FIELDS) return undefined;
  for (let i = 0; i < n; i++) if (data.names[i] !== records[i]!.name) return undefined;
  const t = terms.length;
  if (offsets.length !== t + 1 || counts.length !== docs.length * FIELDS) return undefined;
  if (offsets[0] !== 0 || offsets[t] !== docs.length) return undefined;
  if (new Set(terms).size !== t) return undefined;
  for (let term = 0; term < t; term++) {
    const from = offsets[term]!;
    const to = offsets[term + 1]!;
    if (to < from) return undefined;
    let last = -1;
    for (let p = from; p < to; p++) {
      const doc = docs[p]!;
      if (doc <= last || doc >= n) return undefined;
      last = doc;
    }
  }
  for (let i = 0; i < lengths.length; i++) if (lengths[i]! < 0) return undefined;
  return new SearchIndex(records, weights, { terms, offsets, docs, counts, lengths });
}

function isIndexData(data: unknown): data is SearchIndexData {
  if (typeof data !== "object" || data === null) return false;
  const d = data as Record<string, unknown>;
  return (
    d.format === "skillrt-search-index" &&
    d.version === 5 &&
    Array.isArray(d.names) &&
    d.names.every((x) => typeof x === "string") &&
    Array.isArray(d.terms) &&
    d.terms.every((x) => typeof x === "string") &&
    d.offsets instanceof Int32Array &&
    d.docs instanceof Int32Array &&
    d.counts instanceof Uint16Array &&
    d.lengths instanceof Int32Array
  );
}
