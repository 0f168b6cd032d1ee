import type { FrontmatterValue } from "../spec/types.js";
import { idiomTerms } from "./search-idioms.js";
import { SYNONYMS } from "./search-synonyms.js";
import { agentForms, tokenize } from "./tokenize.js";
import type { SearchHit, SkillRecord } from "./types.js";

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

/** Indexed fields, in posting order. */
const FIELDS = 5;
/** Numbers per posting: the document, then its term frequency in each field. */
export const STRIDE = 1 + FIELDS;
/** How many of the best skills the phrase bonus re-ranks. */
const RERANK = 20;
/** How many records' pair hashes a search index keeps (about 1 KB each). */
const PAIR_CACHE = 2_000;
/** Most prefix expansions of one query word (the commonest are kept). */
const MAX_PREFIX = 12;

/** Plain data of a built index ({@link serializeSearchIndex}); JSON-safe. */
export interface SearchIndexData {
  format: "skillrt-search-index";
  version: 2;
  /** Skill names in document order: the records a loaded index is paired with. */
  names: string[];
  terms: string[];
  /** Per term: flat [doc, tf per field (name, description, extras, headings, opening), …]. */
  postings: number[][];
  /** Flat field lengths (name, description, extras, headings, opening) per document. */
  lengths: number[];
}

/**
 * A BM25F index over skill records: name, description and the {@link SEARCHED_EXTRAS} as separately
 * weighted fields, synonym expansion of the query
 * ({@link SYNONYMS}), prefix matches for unknown words, and a bonus for covering more of the query.
 * Build cost is one tokenisation per record; the catalog builds it lazily, on the first search, and a
 * cache can keep it with {@link serializeSearchIndex} / {@link loadSearchIndex}.
 */
export class SearchIndex {
  readonly #records: SkillRecord[];
  readonly #postings: Map<string, number[]>;
  readonly #lengths: number[];
  readonly #avg: number[];
  readonly #weights: SearchWeights;
  /** Per document and field: the field's weight over its BM25 length normalisation. */
  readonly #scaled: Float64Array;
  #sortedTerms: string[] | undefined;
  readonly #pairCache = new Map<SkillRecord, Int32Array>();
  #scratch: Scratch | undefined;

  constructor(
    records: readonly SkillRecord[],
    weights: Partial<SearchWeights> = {},
    built?: { postings: Map<string, number[]>; lengths: number[] },
  ) {
    this.#records = [...records];
    this.#weights = { ...DEFAULT_SEARCH_WEIGHTS, ...weights };
    if (built !== undefined) {
      this.#postings = built.postings;
      this.#lengths = built.lengths;
    } else {
      this.#postings = new Map();
      this.#lengths = [];
      for (let doc = 0; doc < this.#records.length; doc++) this.#add(this.#records[doc]!, doc);
    }
    this.#avg = averages(this.#lengths, this.#records.length);
    const w = this.#weights;
    const fields: [number, number][] = [
      [w.name, w.bName],
      [w.description, w.bDescription],
      [w.extras, w.bExtras],
      [w.headings, w.bHeadings],
      [w.opening, w.bOpening],
    ];
    this.#scaled = new Float64Array(this.#lengths.length);
    for (let i = 0; i < this.#lengths.length; i++) {
      const [weight, b] = fields[i % FIELDS]!;
      this.#scaled[i] = weight / norm(b, this.#lengths[i]!, this.#avg[i % FIELDS]!);
    }
  }

  #add(record: SkillRecord, doc: number): void {
    const tf = new Map<string, number[]>();
    const lengths = new Array<number>(FIELDS).fill(0);
    const addText = (text: string, field: number) => {
      const terms = tokenize(text);
      for (const term of terms) {
        let counts = tf.get(term);
        if (counts === undefined) {
          counts = new Array<number>(FIELDS).fill(0);
          tf.set(term, counts);
        }
        counts[field]!++;
      }
      lengths[field]! += terms.length;
    };
    addText(record.name, 0);
    addText(record.description, 1);
    for (const key of SEARCHED_EXTRAS) {
      const value = record.extras[key];
      if (value !== undefined) addText(flatten(value), 2);
    }
    if (record.headings !== undefined) addText(record.headings, 3);
    if (record.opening !== undefined) addText(record.opening, 4);
    for (const [term, counts] of tf) {
      let list = this.#postings.get(term);
      if (list === undefined) {
        list = [];
        this.#postings.set(term, list);
      }
      list.push(doc, ...counts);
    }
    this.#lengths.push(...lengths);
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
    const sequence = tokenize(query);
    const words = [...new Set(sequence)];
    const n = this.#records.length;
    const w = this.#weights;
    // Terms an everyday phrasing stands for join the query's words at their own weight.
    const idioms = w.idiom > 0 ? idiomTerms(query).filter((term) => !words.includes(term)) : [];
    if (words.length + idioms.length === 0 || n === 0 || limit <= 0) return [];
    const scratch = this.#scratchFor(n);
    const { scores, covered, best, seen, touched } = scratch;
    [...words, ...idioms].forEach((word, stamp) => {
      const expansions: [string, number][] = [];
      const own = stamp < words.length ? 1 : w.idiom;
      if (this.#postings.has(word)) expansions.push([word, own]);
      else if (own === 1) for (const match of this.#prefixMatches(word)) expansions.push([match, w.prefix]);
      for (const form of agentForms(word)) {
        if (!words.includes(form) && this.#postings.has(form)) expansions.push([form, own * w.agent]);
      }
      for (const synonym of SYNONYMS.get(word) ?? []) {
        if (!words.includes(synonym) && this.#postings.has(synonym))
          expansions.push([synonym, own * w.synonym]);
      }
      for (const [term, weight] of expansions) {
        const list = this.#postings.get(term)!;
        const df = list.length / STRIDE;
        const idf = weight * Math.log(1 + (n - df + 0.5) / (df + 0.5));
        for (let p = 0; p < list.length; p += STRIDE) {
          const doc = list[p]!;
          const tf = this.#fieldTf(list, p);
          if (scores[doc] === 0) touched.push(doc);
          scores[doc] = scores[doc]! + (idf * (tf * (w.k1 + 1))) / (tf + w.k1);
          // Coverage counts each query word once per skill, at the weight of its best match.
          if (seen[doc] !== stamp + 1) {
            seen[doc] = stamp + 1;
            best[doc] = weight;
            covered[doc] = covered[doc]! + weight;
          } else if (weight > best[doc]!) {
            covered[doc] = covered[doc]! + weight - best[doc]!;
            best[doc] = weight;
          }
        }
      }
    });
    const wanted = query.trim().toLowerCase();
    const pairs = adjacentPairs(sequence);
    // With phrases to look for, a wider first cut is re-ranked by them.
    const cut = pairs.size > 0 && w.phrase > 0 ? Math.max(limit, RERANK) : limit;
    let top: SearchHit[] = [];
    for (const doc of touched) {
      const record = this.#records[doc]!;
      let score = scores[doc]! * (1 + (w.coverage * covered[doc]!) / Math.max(1, words.length));
      if (record.name.toLowerCase() === wanted) score += 100;
      scores[doc] = 0;
      covered[doc] = 0;
      seen[doc] = 0;
      insertTop(top, { record, score }, cut);
    }
    touched.length = 0;
    if (cut > limit) {
      const ranked: SearchHit[] = [];
      for (const hit of top) {
        const hashes = this.#pairsOf(hit.record);
        let found = 0;
        for (const pair of pairs) if (hasHash(hashes, pair)) found++;
        const score = found === 0 ? hit.score : hit.score * (1 + (w.phrase * found) / pairs.size);
        insertTop(ranked, { record: hit.record, score }, limit);
      }
      top = ranked;
    }
    return top;
  }

  /** A record's pair hashes, kept for the records searches rank high (at most {@link PAIR_CACHE}). */
  #pairsOf(record: SkillRecord): Int32Array {
    let hashes = this.#pairCache.get(record);
    if (hashes === undefined) {
      if (this.#pairCache.size >= PAIR_CACHE) this.#pairCache.clear();
      hashes = recordPairs(record);
      this.#pairCache.set(record, hashes);
    }
    return hashes;
  }

  /** Per-document accumulators, reused across searches (reset through `touched`). */
  #scratchFor(n: number): Scratch {
    if (this.#scratch === undefined || this.#scratch.scores.length !== n) {
      this.#scratch = {
        scores: new Float64Array(n),
        covered: new Float64Array(n),
        best: new Float64Array(n),
        seen: new Int32Array(n),
        touched: [],
      };
    }
    return this.#scratch;
  }

  /** The weighted, length-normalised term frequency of the posting at `list[p]` (doc, then one tf per field). */
  #fieldTf(list: readonly number[], p: number): number {
    const at = list[p]! * FIELDS;
    const scaled = this.#scaled;
    let tf = 0;
    for (let f = 0; f < FIELDS; f++) {
      const count = list[p + 1 + f]!;
      if (count !== 0) tf += count * scaled[at + f]!;
    }
    return tf;
  }

  /** Indexed words starting with `term` (3+ letters), the most common first, at most {@link MAX_PREFIX}. */
  #prefixMatches(term: string): string[] {
    if (term.length < 3) return [];
    this.#sortedTerms ??= [...this.#postings.keys()].sort();
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
    const df = (t: string) => this.#postings.get(t)?.length ?? 0;
    return out.sort((a, b) => df(b) - df(a)).slice(0, MAX_PREFIX);
  }

  /** @internal Raw parts for {@link serializeSearchIndex}. */
  parts(): { postings: ReadonlyMap<string, number[]>; lengths: readonly number[] } {
    return { postings: this.#postings, lengths: this.#lengths };
  }
}

interface Scratch {
  scores: Float64Array;
  covered: Float64Array;
  best: Float64Array;
  seen: Int32Array;
  touched: number[];
}

/** The query's adjacent term pairs ("cross validation", "threat model"), as hashes ({@link pairHash}). */
function adjacentPairs(sequence: readonly string[]): Set<number> {
  const pairs = new Set<number>();
  for (let i = 1; i < sequence.length; i++)
    if (sequence[i - 1] !== sequence[i]) pairs.add(pairHash(sequence[i - 1]!, sequence[i]!));
  return pairs;
}

/** The adjacent term pairs of a record's searched texts, as sorted hashes ({@link pairHash}). */
function recordPairs(record: SkillRecord): Int32Array {
  const hashes: number[] = [];
  const add = (text: string | undefined) => {
    if (text === undefined) return;
    const terms = tokenize(text);
    for (let i = 1; i < terms.length; i++) hashes.push(pairHash(terms[i - 1]!, terms[i]!));
  };
  add(record.name);
  add(record.description);
  for (const key of SEARCHED_EXTRAS) {
    const value = record.extras[key];
    if (value !== undefined) add(flatten(value));
  }
  add(record.headings);
  add(record.opening);
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

function averages(lengths: readonly number[], n: number): number[] {
  const sums = new Array<number>(FIELDS).fill(0);
  for (let i = 0; i < lengths.length; i++) sums[i % FIELDS] = (sums[i % FIELDS] ?? 0) + (lengths[i] ?? 0);
  return sums.map((sum) => (n === 0 ? 1 : sum / n || 1));
}

function flatten(value: FrontmatterValue): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(flatten).join(" ");
  return Object.values(value).map(flatten).join(" ");
}
