/**
 * A query as the top-k evaluation sees it: posting lists (one per expanded query term, each a range of
 * ascending document numbers in `docs`) and the scoring of their postings. The search index builds one
 * per query; scoring features live behind {@link QueryScoring.contribution} and {@link QueryScoring.score},
 * so the evaluation below never changes when a feature does.
 */
export interface QueryScoring {
  /** Document numbers of every posting; each query term's postings are `docs[start[t]]…docs[end[t] - 1]`, ascending. */
  readonly docs: Int32Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** Per query term: the query word it stands for (0 … words - 1); terms of one word are adjacent. */
  readonly word: Int32Array;
  /** Per query term: its weight in the coverage of its word (a word counts once, at its best matching term). */
  readonly weight: Float64Array;
  /** The score one posting (an index into `docs`) of query term `term` adds to its document. */
  contribution(term: number, posting: number): number;
  /** A document's score from its contributions' sum and its covered weight. */
  score(sum: number, covered: number, doc: number): number;
}

/** A ranked document. */
export interface Ranked {
  doc: number;
  score: number;
}

/** Per-document accumulators of {@link topK}, all zero between queries. */
interface Scratch {
  sums: Float64Array;
  covered: Float64Array;
  best: Float64Array;
  seen: Int32Array;
  touched: Uint8Array;
}

// One set of accumulators per index (its `names` array), reused by every query: allocating and zeroing
// five arrays of `n` entries per query cost more than a short query's postings (~0.6 ms at 50,000
// skills, paid by every agent turn's request-skills search); a query now clears only what it touched.
const scratchOf = new WeakMap<readonly string[], Scratch>();

function scratchFor(names: readonly string[], n: number): Scratch {
  let scratch = scratchOf.get(names);
  if (scratch === undefined || scratch.touched.length < n) {
    scratch = {
      sums: new Float64Array(n),
      covered: new Float64Array(n),
      best: new Float64Array(n),
      seen: new Int32Array(n),
      touched: new Uint8Array(n),
    };
    scratchOf.set(names, scratch);
  }
  return scratch;
}

/**
 * The `k` best documents of any query term's postings, best first, ties by `names` (lower first): every
 * posting of every query term scored, term by term. Exhaustive on purpose: a query takes milliseconds
 * (about 6 at 50,000 skills on a quiet machine) of a `skill_search` call in a turn that waits on its
 * model; the MaxScore/block-max pruning this replaced (~380 lines) saved under 1 ms at 10,000 skills.
 * Its work is the postings', not the catalog's size: the accumulators are kept per `names` (one index).
 */
export function topK(q: QueryScoring, k: number, names: readonly string[], n: number): Ranked[] {
  const { sums, covered, best, seen, touched } = scratchFor(names, n);
  const list: number[] = [];
  try {
    for (let t = 0; t < q.start.length; t++) {
      const stamp = q.word[t]! + 1;
      const weight = q.weight[t]!;
      for (let p = q.start[t]!; p < q.end[t]!; p++) {
        const doc = q.docs[p]!;
        if (touched[doc] === 0) {
          touched[doc] = 1;
          list.push(doc);
        }
        sums[doc] = sums[doc]! + q.contribution(t, p);
        if (seen[doc] !== stamp) {
          seen[doc] = stamp;
          best[doc] = weight;
          covered[doc] = covered[doc]! + weight;
        } else if (weight > best[doc]!) {
          covered[doc] = covered[doc]! + weight - best[doc]!;
          best[doc] = weight;
        }
      }
    }
    const heap = new TopHeap(k, names);
    for (const doc of list) heap.offer(doc, q.score(sums[doc]!, covered[doc]!, doc));
    return heap.sorted();
  } finally {
    for (const doc of list) {
      sums[doc] = 0;
      covered[doc] = 0;
      best[doc] = 0;
      seen[doc] = 0;
      touched[doc] = 0;
    }
  }
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
