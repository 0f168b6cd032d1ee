import type { SearchWeights } from "./search-index.js";
import { fieldTf, type Layout } from "./search-layout.js";
import type { QueryScoring } from "./search-top-k.js";

/** Added to the score of a skill whose name is the query. */
const NAME_BONUS = 100;

/**
 * How one query scores (the place for a scoring feature): a posting's BM25F contribution (its weighted,
 * length-normalised term frequency, saturated, times the term's idf and expansion weight), and a
 * skill's score from their sum — times the coverage bonus, plus the name bonus.
 */
export class QueryScorer implements QueryScoring {
  readonly docs: Int32Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly word: Int32Array;
  readonly weight: Float64Array;
  readonly idf: Float64Array;
  readonly words: number;
  /** Documents whose name is the query: they get the name bonus. */
  readonly forced: readonly number[];
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
    this.#scaled = scaled;
    this.#k1 = weights.k1;
    this.#k1p1 = weights.k1 + 1;
    this.#coverage = weights.coverage;
    this.#share = share;
    this.start = new Int32Array(terms);
    this.end = new Int32Array(terms);
    this.word = new Int32Array(terms);
    this.weight = new Float64Array(terms);
    this.idf = new Float64Array(terms);
  }

  /** BM25's saturation of term frequency `tf`, times `idf`. */
  saturate(idf: number, tf: number): number {
    return (idf * (tf * this.#k1p1)) / (tf + this.#k1);
  }

  contribution(term: number, posting: number): number {
    return this.saturate(this.idf[term]!, fieldTf(this.docs, this.#counts, this.#scaled, posting));
  }

  score(sum: number, covered: number, doc: number): number {
    const score = sum * (1 + (this.#coverage * covered) / this.#share);
    return this.forced.includes(doc) ? score + NAME_BONUS : score;
  }
}
