/**
 * A query as the top-k evaluation sees it: posting lists (one per expanded query term, each a range of
 * ascending document numbers in `docs`) and the scoring of their postings. The search index builds one
 * per query; scoring features live in its impacts and {@link QueryScoring.score}, so the evaluation below
 * never changes when a feature does.
 */
export interface QueryScoring {
  /** Document numbers of every posting; each query term's postings are `docs[start[t]]…docs[end[t] - 1]`, ascending. */
  readonly docs: Int32Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  /**
   * Per query term: the query word it stands for (0 … words - 1). Terms of one word are adjacent, the
   * best-weighted first (weights never rise within a word).
   */
  readonly word: Int32Array;
  /**
   * Per query term: its weight, the factor of its impacts and what it adds to the covered weight (a word
   * counts once, at its best matching term).
   */
  readonly weight: Float64Array;
  /**
   * Per query term: its term's impacts, one per posting from `start`. What posting `p` of term `t` adds to
   * its document is `weight[t] * impacts[t][p - start[t]]`.
   */
  readonly impacts: readonly Float64Array[];
  /** A document's score from its contributions' sum and its covered weight. */
  score(sum: number, covered: number, doc: number): number;
}

/** A ranked document. */
export interface Ranked {
  doc: number;
  score: number;
}

/** Documents scored together: their accumulators stay in the processor's nearest cache. */
const BLOCK = 1024;
/** Per document of the block, side by side: its sum and its covered weight. */
const blockAcc = new Float64Array(2 * BLOCK);
/** Per document of the block: 1 + the query word it last matched; 0: not matched by this query. */
const blockSeen = new Int32Array(BLOCK);

/**
 * The `k` best documents of any query term's postings, best first, ties by `names` (lower first): every
 * posting of every query term scored. Exhaustive on purpose: every agent turn over a catalog that does
 * not fit its budget searches it for the user's request, and an everyday request's words have postings
 * in most of 50,000 skills, too evenly for pruning to skip many. Instead the documents are taken in blocks
 * of {@link BLOCK}: each term's postings in the block are added into accumulators that stay in cache, and
 * a posting costs a multiply-add (its impact, precomputed per term). About 129,000 postings at 50,000
 * skills: 6.3 ms term by term over catalog-sized arrays, about 0.75 ms with impacts and blocks at idle.
 * Each document's sum is added in query-term order, as one term-by-term pass would.
 */
export function topK(q: QueryScoring, k: number, names: readonly string[], n: number): Ranked[] {
  // Locals: V8 re-checks a module binding on every use, and cannot keep q's fields in registers.
  const { docs, start, end, word, weight: weights, impacts: allImpacts } = q;
  const acc = blockAcc;
  const seen = blockSeen;
  const terms = start.length;
  const cursor = Int32Array.from(start);
  const heap = new TopHeap(k, names);
  let floor = heap.floor;
  for (let base = 0; base < n; base += BLOCK) {
    for (let t = 0; t < terms; t++) {
      const stamp = word[t]! + 1;
      const weight = weights[t]!;
      const impacts = allImpacts[t]!;
      const from = start[t]!;
      const to = end[t]!;
      let p = cursor[t]!;
      if (t === 0 || word[t - 1] !== word[t]) {
        // A word's first term is its best: it covers the word in every document it is in.
        for (; p < to; p++) {
          const doc = docs[p]! - base;
          if (doc >= BLOCK) break;
          acc[2 * doc] = acc[2 * doc]! + weight * impacts[p - from]!;
          acc[2 * doc + 1] = acc[2 * doc + 1]! + weight;
          seen[doc] = stamp;
        }
      } else {
        for (; p < to; p++) {
          const doc = docs[p]! - base;
          if (doc >= BLOCK) break;
          acc[2 * doc] = acc[2 * doc]! + weight * impacts[p - from]!;
          if (seen[doc] !== stamp) {
            seen[doc] = stamp;
            acc[2 * doc + 1] = acc[2 * doc + 1]! + weight;
          }
        }
      }
      cursor[t] = p;
    }
    const size = Math.min(BLOCK, n - base);
    for (let doc = 0; doc < size; doc++) {
      if (seen[doc] === 0) continue;
      const score = q.score(acc[2 * doc]!, acc[2 * doc + 1]!, base + doc);
      if (score >= floor) {
        heap.offer(base + doc, score);
        floor = heap.floor;
      }
      acc[2 * doc] = 0;
      acc[2 * doc + 1] = 0;
      seen[doc] = 0;
    }
  }
  return heap.sorted();
}

/** The best `k` (document, score) pairs offered, worst at the root; ties broken by name (lower first). */
class TopHeap {
  readonly #k: number;
  readonly #names: readonly string[];
  readonly #docs: Int32Array;
  readonly #scores: Float64Array;
  #size = 0;

  constructor(k: number, names: readonly string[]) {
    this.#k = k;
    this.#names = names;
    this.#docs = new Int32Array(k);
    this.#scores = new Float64Array(k);
  }

  /** No score below this can enter: the worst held score once `k` are held, else -Infinity. */
  get floor(): number {
    return this.#size < this.#k || this.#k === 0 ? Number.NEGATIVE_INFINITY : this.#scores[0]!;
  }

  offer(doc: number, score: number): void {
    if (this.#size < this.#k) {
      let i = this.#size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.#better(this.#scores[parent]!, this.#docs[parent]!, score, doc)) break;
        this.#docs[i] = this.#docs[parent]!;
        this.#scores[i] = this.#scores[parent]!;
        i = parent;
      }
      this.#docs[i] = doc;
      this.#scores[i] = score;
      return;
    }
    if (this.#k === 0 || !this.#better(score, doc, this.#scores[0]!, this.#docs[0]!)) return;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.#k) break;
      const right = child + 1;
      if (
        right < this.#k &&
        this.#better(this.#scores[child]!, this.#docs[child]!, this.#scores[right]!, this.#docs[right]!)
      )
        child = right;
      if (!this.#better(score, doc, this.#scores[child]!, this.#docs[child]!)) break;
      this.#docs[i] = this.#docs[child]!;
      this.#scores[i] = this.#scores[child]!;
      i = child;
    }
    this.#docs[i] = doc;
    this.#scores[i] = score;
  }

  /** Whether (a, docA) ranks before (b, docB). */
  #better(a: number, docA: number, b: number, docB: number): boolean {
    return a > b || (a === b && this.#names[docA]! < this.#names[docB]!);
  }

  /** The held pairs, best first. */
  sorted(): Ranked[] {
    const out: Ranked[] = [];
    for (let i = 0; i < this.#size; i++) out.push({ doc: this.#docs[i]!, score: this.#scores[i]! });
    return out.sort((a, b) =>
      this.#better(a.score, a.doc, b.score, b.doc)
        ? -1
        : this.#better(b.score, b.doc, a.score, a.doc)
          ? 1
          : 0,
    );
  }
}
