import { fieldTexts } from "./search-field-texts.js";
import { idiomTerms } from "./search-idioms.js";
import { ImpactTable } from "./search-impacts.js";
import { buildLayout, buildLayoutAsync, FIELDS, type Layout } from "./search-layout.js";
import { adjacentPairs, adjacentWords, hasHash, recordPairs } from "./search-pairs.js";
import { QueryScorer } from "./search-query-scorer.js";
import { SYNONYMS } from "./search-synonyms.js";
import { topK } from "./search-top-k.js";
import { agentForms, tokenize } from "./tokenize.js";
import type { SearchHit, SkillRecord } from "./types.js";

export { SEARCHED_EXTRAS } from "./search-field-texts.js";
export type { SearchIndexData } from "./search-layout.js";

/** Ranking parameters; the defaults were fitted on the dev split of `bench/selection` (see its README). */
export interface SearchWeights {
  /** Field weights of BM25F: name, description, extras, the body's headings and its opening prose. */
  name: number;
  description: number;
  extras: number;
  headings: number;
  opening: number;
  /** Length normalisation per field (0 = none, 1 = full). */
  bName: number;
  bDescription: number;
  bExtras: number;
  bHeadings: number;
  bOpening: number;
  k1: number;
  /** Weight of a query word's synonyms ({@link SYNONYMS}) relative to the word itself. */
  synonym: number;
  /** Weight of a query word's agent-noun relatives (`reviewer` → `review`, `build` → `builder`; see {@link agentForms}). */
  agent: number;
  /** Weight of the words an everyday phrasing stands for (`look over` → review; see {@link idiomTerms}). */
  idiom: number;
  /** Weight of prefix matches (`kube` → `kubernetes`) for a query word no skill uses. */
  prefix: number;
  /** Bonus for covering more of the query's words: score × (1 + coverage × share covered). */
  coverage: number;
  /**
   * Bonus for the query's adjacent word pairs found adjacent in a skill's text:
   * score × (1 + phrase × share of pairs found), applied to the best {@link RERANK} skills.
   */
  phrase: number;
}

export const DEFAULT_SEARCH_WEIGHTS: SearchWeights = {
  name: 3,
  description: 1,
  extras: 1,
  headings: 0.3,
  opening: 0.3,
  bName: 0.5,
  bDescription: 0.75,
  bExtras: 0.75,
  bHeadings: 0.75,
  bOpening: 0.75,
  k1: 1.2,
  synonym: 0.35,
  agent: 0.5,
  idiom: 0.35,
  prefix: 0.5,
  coverage: 1,
  phrase: 0.5,
};

/** How many of the best skills the phrase bonus re-ranks. */
const RERANK = 20;
/** How many records' pair hashes a search index keeps (about 1 KB each). */
const PAIR_CACHE = 2_000;
/** Most prefix expansions of one query word (the commonest are kept). */
const MAX_PREFIX = 12;

/**
 * A BM25F index over skill records: name, description, the {@link SEARCHED_EXTRAS}, the body's headings
 * and opening as separately weighted fields, synonym expansion of the query ({@link SYNONYMS}), prefix
 * matches for unknown words, a bonus for covering more of the query and one for its adjacent word
 * pairs. Build cost is one tokenisation per record; the catalog builds it lazily, on the first search,
 * and a cache can keep it with {@link serializeSearchIndex} / {@link loadSearchIndex}. A query scores
 * every posting of its terms ({@link topK}).
 */
export class SearchIndex {
  readonly #records: SkillRecord[];
  readonly #names: string[];
  readonly #ids: Map<string, number>;
  readonly #layout: Layout;
  readonly #weights: SearchWeights;
  /** Per document and field: the field's weight over its BM25 length normalisation. */
  readonly #scaled: Float64Array;
  /** What each term's postings add to a score, computed on the term's first query. */
  readonly #impacts: ImpactTable;
  #sortedTerms: string[] | undefined;
  #byName: Map<string, number[]> | undefined;
  readonly #pairCache = new Map<SkillRecord, { fields: number; hashes: Int32Array }>();

  constructor(records: readonly SkillRecord[], weights: Partial<SearchWeights> = {}, built?: Layout) {
    this.#records = [...records];
    this.#names = this.#records.map((record) => record.name);
    this.#weights = { ...DEFAULT_SEARCH_WEIGHTS, ...weights };
    const layout = built ?? buildLayout(this.#records, fieldTexts);
    this.#ids = new Map(layout.terms.map((term, t) => [term, t]));
    const avg = averages(layout.lengths, this.#records.length);
    const fields = fieldWeights(this.#weights);
    this.#scaled = new Float64Array(layout.lengths.length);
    for (let i = 0; i < layout.lengths.length; i++) {
      const f = i % FIELDS;
      this.#scaled[i] = fields[f]! / norm(fields[FIELDS + f]!, layout.lengths[i]!, avg[f]!);
    }
    this.#layout = layout;
    this.#impacts = new ImpactTable(layout, this.#scaled, this.#weights.k1, this.#records.length);
  }

  /**
   * Builds an index as the constructor does, yielding to the event loop every few milliseconds (tokenising
   * 10,000 skills and reading their bodies' openings takes about a second): the same index, without a stall.
   */
  static async build(
    records: readonly SkillRecord[],
    weights: Partial<SearchWeights> = {},
  ): Promise<SearchIndex> {
    const copy = [...records];
    const layout = await buildLayoutAsync(copy, fieldTexts);
    // The packing that ends the layout and this index's set-up are tasks of their own, apart from the
    // first query (and whatever its caller does next).
    await new Promise<void>((resolve) => setImmediate(resolve));
    const index = new SearchIndex(copy, weights, layout);
    await index.prepare();
    return index;
  }

  /**
   * @internal Makes the lookups the first query would otherwise make (skills by name, the sorted terms of
   * prefix matches), each a task of its own: the first search is then only the query's work.
   */
  async prepare(): Promise<void> {
    const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
    await tick();
    this.#namedDocs("");
    await tick();
    this.#sortedTerms ??= [...this.#layout.terms].sort();
    await tick();
  }

  /** The records this index was built over, in document order. */
  get records(): readonly SkillRecord[] {
    return this.#records;
  }

  /**
   * Best matches first (ties broken by name), at most `limit` (default 10). A query equal to a skill's
   * name ranks that skill first. An empty query returns no hits.
   */
  search(query: string, limit = 10): SearchHit[] {
    return this.#search(query, limit);
  }

  #search(query: string, limit: number): SearchHit[] {
    const sequence = tokenize(query);
    const words = [...new Set(sequence)];
    const n = this.#records.length;
    const w = this.#weights;
    // Terms an everyday phrasing stands for join the query's words at their own weight.
    const idioms = w.idiom > 0 ? idiomTerms(query).filter((term) => !words.includes(term)) : [];
    if (words.length + idioms.length === 0 || n === 0 || limit <= 0) return [];
    const pairs = adjacentPairs(sequence);
    // With phrases to look for, a wider first cut is re-ranked by them.
    const cut = pairs.size > 0 && w.phrase > 0 ? Math.max(limit, RERANK) : limit;
    const scoring = this.#scoring(words, idioms, query.trim().toLowerCase());
    const pairTerms = adjacentWords(sequence).map(([a, b]) => [this.#ids.get(a), this.#ids.get(b)] as const);
    const ranked = topK(scoring, cut, this.#names, n);
    let top: SearchHit[] = ranked.map(({ doc, score }) => ({ record: this.#records[doc]!, score }));
    if (cut > limit) {
      const reranked: SearchHit[] = [];
      for (const [i, hit] of top.entries()) {
        // A text holds a pair only if its field holds both words: the postings say which fields can,
        // and only their texts are tokenised.
        const doc = ranked[i]!.doc;
        let fields = 0;
        for (const [a, b] of pairTerms)
          if (a !== undefined && b !== undefined) fields |= this.#fieldsOf(a, doc) & this.#fieldsOf(b, doc);
        let found = 0;
        if (fields !== 0) {
          const hashes = this.#pairsOf(hit.record, fields);
          for (const pair of pairs) if (hasHash(hashes, pair)) found++;
        }
        const score = found === 0 ? hit.score : hit.score * (1 + (w.phrase * found) / pairs.size);
        insertTop(reranked, { record: hit.record, score }, limit);
      }
      top = reranked;
    }
    return top;
  }

  /**
   * The query's terms — each word (then each idiom term), its prefix matches, agent-noun forms and
   * synonyms — and how they score.
   */
  #scoring(words: readonly string[], idioms: readonly string[], wanted: string): QueryScorer {
    const w = this.#weights;
    const { offsets } = this.#layout;
    const terms: number[] = [];
    const wordOf: number[] = [];
    const weights: number[] = [];
    [...words, ...idioms].forEach((word, i) => {
      const expansions: [string, number][] = [];
      const own = i < words.length ? 1 : w.idiom;
      if (this.#ids.has(word)) expansions.push([word, own]);
      else if (own === 1) for (const match of this.#prefixMatches(word)) expansions.push([match, w.prefix]);
      for (const form of agentForms(word)) {
        if (!words.includes(form) && this.#ids.has(form)) expansions.push([form, own * w.agent]);
      }
      for (const synonym of SYNONYMS.get(word) ?? []) {
        if (!words.includes(synonym) && this.#ids.has(synonym)) expansions.push([synonym, own * w.synonym]);
      }
      // A word's best-weighted term first (see QueryScoring.word); stable, so the defaults keep this order.
      expansions.sort((a, b) => b[1] - a[1]);
      for (const [term, weight] of expansions) {
        terms.push(this.#ids.get(term)!);
        wordOf.push(i);
        weights.push(weight);
      }
    });
    const scorer = new QueryScorer(
      this.#layout.docs,
      w,
      // Coverage is the share of the query's own words; idiom terms add to it, not to the whole.
      Math.max(1, words.length),
      this.#namedDocs(wanted),
      terms.length,
    );
    terms.forEach((term, q) => {
      scorer.start[q] = offsets[term]!;
      scorer.end[q] = offsets[term + 1]!;
      scorer.word[q] = wordOf[q]!;
      scorer.weight[q] = weights[q]!;
      scorer.impacts.push(this.#impacts.of(term));
    });
    return scorer;
  }

  /** The documents whose lowercased name is `wanted`. */
  #namedDocs(wanted: string): number[] {
    if (this.#byName === undefined) {
      this.#byName = new Map();
      this.#names.forEach((name, doc) => {
        const key = name.toLowerCase();
        const docs = this.#byName!.get(key);
        if (docs === undefined) this.#byName!.set(key, [doc]);
        else docs.push(doc);
      });
    }
    return this.#byName.get(wanted) ?? [];
  }

  /** The fields (bit f for field f) in which term t occurs in document `doc`; 0 when it does not. */
  #fieldsOf(t: number, doc: number): number {
    const { offsets, docs, counts } = this.#layout;
    let lo = offsets[t]!;
    let hi = offsets[t + 1]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (docs[mid]! < doc) lo = mid + 1;
      else hi = mid;
    }
    if (lo >= offsets[t + 1]! || docs[lo] !== doc) return 0;
    let fields = 0;
    for (let f = 0; f < FIELDS; f++) if (counts[lo * FIELDS + f] !== 0) fields |= 1 << f;
    return fields;
  }

  /**
   * The pair hashes of a record's texts in `fields` (bit f for field f), kept for the records searches
   * rank high (at most {@link PAIR_CACHE}).
   */
  #pairsOf(record: SkillRecord, fields: number): Int32Array {
    let cached = this.#pairCache.get(record);
    if (cached === undefined || (cached.fields & fields) !== fields) {
      if (this.#pairCache.size >= PAIR_CACHE) this.#pairCache.clear();
      const all = fields | (cached?.fields ?? 0);
      cached = { fields: all, hashes: recordPairs(record, all) };
      this.#pairCache.set(record, cached);
    }
    return cached.hashes;
  }

  /** Indexed words starting with `term` (3+ letters), the most common first, at most {@link MAX_PREFIX}. */
  #prefixMatches(term: string): string[] {
    if (term.length < 3) return [];
    this.#sortedTerms ??= [...this.#layout.terms].sort();
    const sorted = this.#sortedTerms;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! < term) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < sorted.length && sorted[i]!.startsWith(term); i++) out.push(sorted[i]!);
    if (out.length <= MAX_PREFIX) return out;
    const { offsets } = this.#layout;
    const df = (t: string) => {
      const id = this.#ids.get(t)!;
      return offsets[id + 1]! - offsets[id]!;
    };
    return out.sort((a, b) => df(b) - df(a)).slice(0, MAX_PREFIX);
  }

  /** @internal The stored layout, for {@link serializeSearchIndex}. */
  parts(): Layout {
    return this.#layout;
  }
}

/** Field weights, then length normalisations (name … opening). */
function fieldWeights(w: SearchWeights): number[] {
  return [
    w.name,
    w.description,
    w.extras,
    w.headings,
    w.opening,
    w.bName,
    w.bDescription,
    w.bExtras,
    w.bHeadings,
    w.bOpening,
  ];
}

/** Keeps `top` the best `limit` hits, best first (ties by name). */
function insertTop(top: SearchHit[], hit: SearchHit, limit: number): void {
  const better = (a: SearchHit, b: SearchHit) =>
    a.score > b.score || (a.score === b.score && a.record.name < b.record.name);
  if (top.length === limit && !better(hit, top[limit - 1]!)) return;
  let i = top.length === limit ? limit - 1 : top.length;
  while (i > 0 && better(hit, top[i - 1]!)) {
    top[i] = top[i - 1]!;
    i--;
  }
  top[i] = hit;
}

function norm(b: number, length: number, avg: number): number {
  return 1 - b + (b * length) / avg;
}

function averages(lengths: ArrayLike<number>, n: number): number[] {
  const sums = new Array<number>(FIELDS).fill(0);
  for (let i = 0; i < lengths.length; i++) sums[i % FIELDS] = (sums[i % FIELDS] ?? 0) + (lengths[i] ?? 0);
  return sums.map((sum) => (n === 0 ? 1 : sum / n || 1));
}
