import type { SearchWeights } from "./search-index.js";
import type { QueryScoring } from "./search-top-k.js";

/** Added to the score of a skill whose name is the query. */
const NAME_BONUS = 100;

/**
 * How one query scores (the place for a scoring feature): a posting's BM25F contribution (its term's
 * impact, `ImpactTable`, times the term's expansion weight), and a skill's score from their sum —
 * times the coverage bonus, plus the name bonus.
 */
export class QueryScorer implements QueryScoring {
  readonly docs: Int32Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly word: Int32Array;
  readonly weight: Float64Array;
  readonly impacts: Float64Array[];
  /** Documents whose name is the query: they get the name bonus. */
  readonly forced: readonly number[];
  readonly #coverage: number;
  /** What the covered weight is a share of. */
  readonly #share: number;

  constructor(
    docs: Int32Array,
    weights: SearchWeights,
    share: number,
    forced: readonly number[],
    terms: number,
  ) {
    // Plain fields, not parameter properties: benchmarks load this file with Node's type stripping.
    this.forced = forced;
    this.docs = docs;
    this.#coverage = weights.coverage;
    this.#share = share;
    this.start = new Int32Array(terms);
    this.end = new Int32Array(terms);
    this.word = new Int32Array(terms);
    this.weight = new Float64Array(terms);
    this.impacts = [];
  }

  score(sum: number, covered: number, doc: number): number {
    const score = sum * (1 + (this.#coverage * covered) / this.#share);
    return this.forced.length !== 0 && this.forced.includes(doc) ? score + NAME_BONUS : score;
  }
}
