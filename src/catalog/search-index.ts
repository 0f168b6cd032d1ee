import type { FrontmatterValue } from "../spec/types.js";
import { idiomTerms } from "./search-idioms.js";
import { BLOCK, buildLayout, FIELDS, fieldTf, type Layout } from "./search-layout.js";
import { SYNONYMS } from "./search-synonyms.js";
import { type QueryScoring, topK, topKExhaustive } from "./search-top-k.js";
import { agentForms, tokenize } from "./tokenize.js";
import type { SearchHit, SkillRecord } from "./types.js";

export type { SearchIndexData } from "./search-layout.js";

/** Extras (frontmatter keys) that are searched besides name and description. */
export const SEARCHED_EXTRAS = [
  "when_to_use",
  "when-to-use",
  "whenToUse",
  "tags",
  "keywords",
  "triggers",
  "category",
  "aliases",
];

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
/** Added to the score of a skill whose name is the query. */
const NAME_BONUS = 100;

/**
 * A BM25F index over skill records: name, description, the {@link SEARCHED_EXTRAS}, the body's headings
 * and opening as separately weighted fields, synonym expansion of the query ({@link SYNONYMS}), prefix
 * matches for unknown words, a bonus for covering more of the query and one for its adjacent word
 * pairs. Build cost is one tokenisation per record; the catalog builds it lazily, on the first search,
 * and a cache can keep it with {@link serializeSearchIndex} / {@link loadSearchIndex}. A query looks
 * only at the postings that can change its top results ({@link topK}).
 */
export class SearchIndex {
  readonly #records: SkillRecord[];
  readonly #names: string[];
  readonly #ids: Map<string, number>;
  readonly #layout: Layout;
  readonly #weights: SearchWeights;
  /** Per document and field: the field's weight over its BM25 length normalisation. */
  readonly #scaled: Float64Array;
  /** Whether every weight is finite and non-negative, which the bounds of the pruned evaluation assume. */
  readonly #prunable: boolean;
  /** Per term: its first block in the layout's `blocks` (terms.length + 1 entries). */
  readonly #firstBlock: Int32Array;
  /** Per term: the largest of its blocks' bounds; NaN until a query needs it. */
  readonly #bounds: Float64Array;
  #sortedTerms: string[] | undefined;
  #byName: Map<string, number[]> | undefined;
  readonly #pairCache = new Map<SkillRecord, { fields: number; hashes: Int32Array }>();

  constructor(records: readonly SkillRecord[], weights: Partial<SearchWeights> = {}, built?: Layout) {
    this.#records = [...records];
    this.#names = this.#records.map((record) => record.name);
    this.#weights = { ...DEFAULT_SEARCH_WEIGHTS, ...weights };
    const w = this.#weights;
    this.#prunable = Object.values(w).every((x) => Number.isFinite(x) && x >= 0) && w.k1 > 0;
    const layout = built ?? buildLayout(this.#records, fieldTexts);
    this.#ids = new Map(layout.terms.map((term, t) => [term, t]));
    const avg = averages(layout.lengths, this.#records.length);
    const fields = fieldWeights(w);
    this.#scaled = new Float64Array(layout.lengths.length);
    for (let i = 0; i < layout.lengths.length; i++) {
      const f = i % FIELDS;
      this.#scaled[i] = fields[f]! / norm(fields[FIELDS + f]!, layout.lengths[i]!, avg[f]!);
    }
    const current =
      layout.boundWeights.length === fields.length && layout.boundWeights.every((x, i) => x === fields[i]);
    // Bounds stored under other field weights are recomputed, term by term, when a query needs them.
    this.#layout = current
      ? layout
      : { ...layout, blocks: new Float64Array(layout.blocks.length).fill(Number.NaN), boundWeights: fields };
    const terms = layout.terms.length;
    this.#firstBlock = new Int32Array(terms + 1);
    for (let t = 0; t < terms; t++)
      this.#firstBlock[t + 1] =
        this.#firstBlock[t]! + Math.ceil((layout.offsets[t + 1]! - layout.offsets[t]!) / BLOCK);
    this.#bounds = new Float64Array(terms).fill(Number.NaN);
    if (built === undefined) for (let t = 0; t < terms; t++) this.#bound(t);
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
    return this.#search(query, limit, false);
  }

  /**
   * @internal {@link search} scoring every posting of the query's terms: the reference its pruned
   * evaluation equals (tests, `bench/search.mjs`).
   */
  searchExhaustive(query: string, limit = 10): SearchHit[] {
    return this.#search(query, limit, true);
  }

  #search(query: string, limit: number, exhaustive: boolean): SearchHit[] {
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
    const ranked =
      exhaustive || !this.#prunable
        ? topKExhaustive(scoring, cut, this.#names, n)
        : topK(scoring, cut, this.#names);
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
    const n = this.#records.length;
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
      for (const [term, weight] of expansions) {
        terms.push(this.#ids.get(term)!);
        wordOf.push(i);
        weights.push(weight);
      }
    });
    const scorer = new QueryScorer(
      this.#layout,
      this.#scaled,
      w,
      words.length + idioms.length,
      // Coverage is the share of the query's own words; idiom terms add to it, not to the whole.
      Math.max(1, words.length),
      this.#namedDocs(wanted),
      terms.length,
    );
    terms.forEach((term, q) => {
      const df = offsets[term + 1]! - offsets[term]!;
      const idf = weights[q]! * Math.log(1 + (n - df + 0.5) / (df + 0.5));
      scorer.start[q] = offsets[term]!;
      scorer.end[q] = offsets[term + 1]!;
      scorer.word[q] = wordOf[q]!;
      scorer.weight[q] = weights[q]!;
      scorer.idf[q] = idf;
      scorer.bound[q] = scorer.saturate(idf, this.#bound(term));
      scorer.firstBlock[q] = this.#firstBlock[term]!;
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

  /**
   * Term t's largest weighted, length-normalised term frequency: the largest of its blocks' (computed
   * from the postings first when they were stored under other weights).
   */
  #bound(t: number): number {
    if (!Number.isNaN(this.#bounds[t]!)) return this.#bounds[t]!;
    const { blocks, offsets, docs, counts } = this.#layout;
    const first = this.#firstBlock[t]!;
    const last = this.#firstBlock[t + 1]!;
    if (first < last && Number.isNaN(blocks[first]!)) {
      for (let b = first; b < last; b++) {
        const from = offsets[t]! + (b - first) * BLOCK;
        const to = Math.min(from + BLOCK, offsets[t + 1]!);
        let max = 0;
        for (let p = from; p < to; p++) max = Math.max(max, fieldTf(docs, counts, this.#scaled, p));
        blocks[b] = max;
      }
    }
    let max = 0;
    for (let b = first; b < last; b++) max = Math.max(max, blocks[b]!);
    this.#bounds[t] = max;
    return max;
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

  /** @internal The stored layout, every bound computed, for {@link serializeSearchIndex}. */
  parts(): Layout {
    for (let t = 0; t < this.#layout.terms.length; t++) this.#bound(t);
    return this.#layout;
  }
}

/**
 * How one query scores (the place for a scoring feature): a posting's BM25F contribution (its weighted,
 * length-normalised term frequency, saturated, times the term's idf and expansion weight), and a
 * skill's score from their sum — times the coverage bonus, plus the name bonus. {@link topK} prunes
 * with `bound` (per term, from the index's stored maxima) and {@link QueryScorer.ceiling}.
 */
class QueryScorer implements QueryScoring {
  readonly docs: Int32Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly word: Int32Array;
  readonly weight: Float64Array;
  readonly bound: Float64Array;
  readonly idf: Float64Array;
  readonly words: number;
  readonly forced: readonly number[];
  /** Per query term: its term's first block in `#blocks`. */
  readonly firstBlock: Int32Array;
  readonly block = BLOCK;
  readonly #blocks: Float64Array;
  readonly #counts: Uint16Array;
  readonly #scaled: Float64Array;
  readonly #k1: number;
  readonly #k1p1: number;
  readonly #coverage: number;
  /** What the covered weight is a share of. */
  readonly #share: number;

  constructor(
    layout: Layout,
    scaled: Float64Array,
    weights: SearchWeights,
    words: number,
    share: number,
    forced: readonly number[],
    terms: number,
  ) {
    // Plain fields, not parameter properties: benchmarks load this file with Node's type stripping.
    this.words = words;
    this.forced = forced;
    this.docs = layout.docs;
    this.#counts = layout.counts;
    this.#blocks = layout.blocks;
    this.#scaled = scaled;
    this.#k1 = weights.k1;
    this.#k1p1 = weights.k1 + 1;
    this.#coverage = weights.coverage;
    this.#share = share;
    this.start = new Int32Array(terms);
    this.end = new Int32Array(terms);
    this.word = new Int32Array(terms);
    this.weight = new Float64Array(terms);
    this.bound = new Float64Array(terms);
    this.idf = new Float64Array(terms);
    this.firstBlock = new Int32Array(terms);
  }

  /** BM25's saturation of term frequency `tf`, times `idf`. */
  saturate(idf: number, tf: number): number {
    return (idf * (tf * this.#k1p1)) / (tf + this.#k1);
  }

  contribution(term: number, posting: number): number {
    return this.saturate(this.idf[term]!, fieldTf(this.docs, this.#counts, this.#scaled, posting));
  }

  blockBound(term: number, posting: number): number {
    const block = this.firstBlock[term]! + (((posting - this.start[term]!) / BLOCK) | 0);
    return this.saturate(this.idf[term]!, this.#blocks[block]!);
  }

  score(sum: number, covered: number, doc: number): number {
    const score = this.ceiling(sum, covered);
    return this.forced.includes(doc) ? score + NAME_BONUS : score;
  }

  ceiling(sum: number, covered: number): number {
    return sum * (1 + (this.#coverage * covered) / this.#share);
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

/** The query's adjacent term pairs ("cross validation", "threat model"), as hashes ({@link pairHash}). */
function adjacentPairs(sequence: readonly string[]): Set<number> {
  return new Set(adjacentWords(sequence).map(([a, b]) => pairHash(a, b)));
}

/** The query's adjacent pairs of different terms. */
function adjacentWords(sequence: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 1; i < sequence.length; i++)
    if (sequence[i - 1] !== sequence[i]) pairs.push([sequence[i - 1]!, sequence[i]!]);
  return pairs;
}

/** The adjacent term pairs of a record's searched texts, as sorted hashes ({@link pairHash}). */
function recordPairs(record: SkillRecord, fields: number): Int32Array {
  const hashes: number[] = [];
  const add = (text: string) => {
    const terms = tokenize(text);
    for (let i = 1; i < terms.length; i++) hashes.push(pairHash(terms[i - 1]!, terms[i]!));
  };
  for (const [, text] of fieldTexts(record, fields)) add(text);
  return Int32Array.from(new Set(hashes)).sort();
}

/** A 32-bit FNV-1a hash of the pair `a b`. */
function pairHash(a: string, b: string): number {
  let h = 0x811c9dc5;
  const text = `${a} ${b}`;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** Whether sorted `hashes` holds `hash`. */
function hasHash(hashes: Int32Array, hash: number): boolean {
  let lo = 0;
  let hi = hashes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (hashes[mid]! < hash) lo = mid + 1;
    else hi = mid;
  }
  return lo < hashes.length && hashes[lo] === hash;
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

/** A record's searched texts with their field (0 name, 1 description, 2 extras, 3 headings, 4 opening), of the fields in `fields` (bit f for field f; all by default). */
function fieldTexts(record: SkillRecord, fields = 0b11111): [field: number, text: string][] {
  const texts: [number, string][] = [];
  if (fields & 1) texts.push([0, record.name]);
  if (fields & 2) texts.push([1, record.description]);
  if (fields & 4) {
    for (const key of SEARCHED_EXTRAS) {
      const value = record.extras[key];
      if (value !== undefined) texts.push([2, flatten(value)]);
    }
  }
  // Only touched when asked for: a record may read them from its file (see searchableRecords).
  if (fields & 8 && record.headings !== undefined) texts.push([3, record.headings]);
  if (fields & 16 && record.opening !== undefined) texts.push([4, record.opening]);
  return texts;
}

function flatten(value: FrontmatterValue): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(flatten).join(" ");
  return Object.values(value).map(flatten).join(" ");
}
