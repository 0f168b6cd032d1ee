import { SearchIndex, type SearchIndexData, type SearchWeights, STRIDE } from "./search-index.js";
import type { SkillRecord } from "./types.js";

/**
 * The plain, JSON-safe data of a built search index (terms, postings, field lengths, and the skill
 * names it was built over), for a persistent cache. Pair it with the same records on load.
 */
export function serializeSearchIndex(index: SearchIndex): SearchIndexData {
  const { postings, lengths } = index.parts();
  return {
    format: "skillrt-search-index",
    version: 2,
    names: index.records.map((record) => record.name),
    terms: [...postings.keys()],
    postings: [...postings.values()].map((list) => [...list]),
    lengths: [...lengths],
  };
}

/**
 * An index from {@link serializeSearchIndex}'s data and the records it was built over (same names in the
 * same order, e.g. the catalog's `list()`). Returns undefined when the data is not an index of this
 * version or does not match `records` — the caller then builds a fresh `SearchIndex`.
 */
export function loadSearchIndex(
  data: unknown,
  records: readonly SkillRecord[],
  weights: Partial<SearchWeights> = {},
): SearchIndex | undefined {
  if (!isIndexData(data)) return undefined;
  const n = records.length;
  if (data.names.length !== n || data.lengths.length !== n * (STRIDE - 1)) return undefined;
  for (let i = 0; i < n; i++) if (data.names[i] !== records[i]!.name) return undefined;
  if (data.terms.length !== data.postings.length) return undefined;
  const postings = new Map<string, number[]>();
  for (let t = 0; t < data.terms.length; t++) {
    const list = data.postings[t]!;
    if (!Array.isArray(list) || list.length % STRIDE !== 0) return undefined;
    for (let p = 0; p < list.length; p += STRIDE) {
      const doc = list[p];
      if (!Number.isInteger(doc) || (doc as number) < 0 || (doc as number) >= n) return undefined;
    }
    postings.set(data.terms[t]!, list);
  }
  return new SearchIndex(records, weights, { postings, lengths: data.lengths });
}

function isIndexData(data: unknown): data is SearchIndexData {
  if (typeof data !== "object" || data === null) return false;
  const d = data as Record<string, unknown>;
  return (
    d.format === "skillrt-search-index" &&
    d.version === 2 &&
    Array.isArray(d.names) &&
    Array.isArray(d.terms) &&
    Array.isArray(d.postings) &&
    Array.isArray(d.lengths) &&
    d.lengths.every((x) => typeof x === "number" && x >= 0)
  );
}
