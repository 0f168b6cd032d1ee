/**
 * A query as the top-k evaluation sees it: posting lists (one per expanded query term, each a range of
 * ascending document numbers in `docs`) and the scoring of their postings. The search index builds one
 * per query; scoring features live behind {@link QueryScoring.contribution}, {@link QueryScoring.score}
 * and their bounds, so the evaluation below never changes when a feature does.
 */
export interface QueryScoring {
  /** Document numbers of every posting; each query term's postings are `docs[start[t]]…docs[end[t] - 1]`, ascending. */
  readonly docs: Int32Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** Per query term: the query word it stands for (0 … `words` - 1); terms of one word are adjacent. */
  readonly word: Int32Array;
  /** Per query term: its weight in the coverage of its word (a word counts once, at its best matching term). */
  readonly weight: Float64Array;
  /** Per query term: an upper bound of {@link contribution} over its postings. */
  readonly bound: Float64Array;
  /** Postings per block of {@link blockBound}: blocks are counted from each query term's first posting. */
  readonly block: number;
  /** An upper bound of {@link contribution} over the block of query term `term` holding `posting`. */
  blockBound(term: number, posting: number): number;
  readonly words: number;
  /** The score one posting (an index into `docs`) of query term `term` adds to its document. */
  contribution(term: number, posting: number): number;
  /**
   * A document's score from its contributions' sum and its covered weight; non-decreasing in both, and
   * at most {@link ceiling} of the same arguments except for the {@link forced} documents.
   */
  score(sum: number, covered: number, doc: number): number;
  /** An upper bound of {@link score} for every document but the forced ones. */
  ceiling(sum: number, covered: number): number;
  /** Documents that may score above the ceiling (a query equal to a skill's name): always evaluated. */
  readonly forced: readonly number[];
}

/** A ranked document. */
export interface Ranked {
  doc: number;
  score: number;
}

/**
 * Relative slack on every bound: a bound is computed by other floating-point operations than the score
 * it bounds, so a document is skipped only when even its bound grown by this cannot reach the k-th score.
 */
const SLACK = 1 + 1e-9;
/** Most postings scored to find a first bar ({@link seedFloor}). */
const SEED = 256;

/**
 * The `k` best documents of any query term's postings, best first, ties by `names` (lower first): the
 * same documents with the same scores as {@link topKExhaustive}. MaxScore document-at-a-time: query
 * terms in ascending order of their bound; once `k` documents are held, the terms whose bounds together
 * cannot reach the k-th score are non-essential — a document found only in them is never looked at —,
 * and a candidate's remaining terms are probed (galloping) only while its bound still can. The score of
 * a document that is kept is summed in query-term order, as the exhaustive evaluation sums it.
 * Allocation is proportional to the number of query terms and `k`, not to the documents.
 */
export function topK(q: QueryScoring, k: number, names: readonly string[]): Ranked[] {
  const terms = q.start.length;
  const { docs, end } = q;
  const heap = new TopHeap(k, names);
  const contributions = new Float64Array(terms);
  const hit = new Int32Array(terms);
  const pos = Int32Array.from(q.start);
  for (const doc of q.forced) {
    let found = false;
    for (let t = 0; t < terms; t++) {
      const at = seek(docs, q.start[t]!, end[t]!, doc);
      if (at < end[t]! && docs[at] === doc) {
        found = true;
        contributions[t] = q.contribution(t, at);
        hit[t] = -1;
      } else hit[t] = 0;
    }
    if (found) heap.offer(doc, exactScore(q, contributions, hit, -1, doc));
  }
  // Query terms by ascending bound, with the summed bounds and covered weights of each prefix.
  const order = Array.from({ length: terms }, (_, t) => t).sort((a, b) => q.bound[a]! - q.bound[b]! || a - b);
  const boundBelow = new Float64Array(terms + 1);
  const coverBelow = new Float64Array(terms + 1);
  const best = new Float64Array(q.words);
  for (let i = 0; i < terms; i++) {
    const t = order[i]!;
    const w = q.word[t]!;
    boundBelow[i + 1] = boundBelow[i]! + q.bound[t]!;
    const gain = Math.max(0, q.weight[t]! - best[w]!);
    best[w] = best[w]! + gain;
    coverBelow[i + 1] = coverBelow[i]! + gain;
  }
  // A first bar before k documents are held: documents in document order can be weak for long (skills
  // sort by name, and the strong ones may all come last).
  const floor = seedFloor(q, k, names, contributions, hit);
  const bar = () => (heap.full ? Math.max(heap.threshold, floor) : floor);
  // order[0 … essential - 1]: the non-essential terms.
  let essential = 0;
  const reachable = (i: number) => q.ceiling(boundBelow[i]!, coverBelow[i]!) * SLACK >= bar();
  const wordBest = new Float64Array(q.words);
  const wordSeen = new Int32Array(q.words);
  let stamp = 0;
  for (;;) {
    while (essential < terms && !reachable(essential + 1)) essential++;
    let doc = 2 ** 31;
    for (let i = essential; i < terms; i++) {
      const t = order[i]!;
      if (pos[t]! < end[t]! && docs[pos[t]!]! < doc) doc = docs[pos[t]!]!;
    }
    if (doc === 2 ** 31) break;
    // Block-max: the essential postings from `doc` up to `until` all lie in their terms' current blocks;
    // when even those blocks' bounds cannot reach the bar, the whole range is skipped.
    let blockSum = boundBelow[essential]!;
    let until = 2 ** 31;
    for (let i = essential; i < terms; i++) {
      const t = order[i]!;
      const at = pos[t]!;
      if (at >= end[t]!) continue;
      blockSum += q.blockBound(t, at);
      const last =
        Math.min(q.start[t]! + (Math.floor((at - q.start[t]!) / q.block) + 1) * q.block, end[t]!) - 1;
      if (docs[last]! < until) until = docs[last]!;
    }
    if (q.ceiling(blockSum, coverBelow[terms]!) * SLACK < bar()) {
      for (let i = essential; i < terms; i++) {
        const t = order[i]!;
        pos[t] = seek(docs, pos[t]!, end[t]!, until + 1);
      }
      continue;
    }
    stamp++;
    let sum = 0;
    let covered = 0;
    for (let i = essential; i < terms; i++) {
      const t = order[i]!;
      const at = pos[t]!;
      if (at >= end[t]! || docs[at] !== doc) continue;
      pos[t] = at + 1;
      const c = q.contribution(t, at);
      contributions[t] = c;
      hit[t] = stamp;
      sum += c;
      covered += cover(q, t, stamp, wordSeen, wordBest);
    }
    if (q.forced.includes(doc)) continue;
    let candidate = true;
    for (let i = essential - 1; i >= 0; i--) {
      if (
        heap.full &&
        q.ceiling(sum + boundBelow[i + 1]!, covered + coverBelow[i + 1]!) * SLACK < heap.threshold
      ) {
        candidate = false;
        break;
      }
      const t = order[i]!;
      const at = seek(docs, pos[t]!, end[t]!, doc);
      pos[t] = at;
      if (at >= end[t]! || docs[at] !== doc) continue;
      pos[t] = at + 1;
      const c = q.contribution(t, at);
      contributions[t] = c;
      hit[t] = stamp;
      sum += c;
      covered += cover(q, t, stamp, wordSeen, wordBest);
    }
    if (candidate) heap.offer(doc, exactScore(q, contributions, hit, stamp, doc));
  }
  return heap.sorted();
}

/**
 * A score the k-th best document reaches for sure: the k-th best exact score among documents of the
 * query term with the highest bound (a spread sample of at most {@link SEED} of its postings) — real
 * scores of real documents, so the final k-th score is at least as high. -Infinity when the sample
 * holds fewer than k documents.
 */
function seedFloor(
  q: QueryScoring,
  k: number,
  names: readonly string[],
  contributions: Float64Array,
  hit: Int32Array,
): number {
  const terms = q.start.length;
  if (k === 0 || terms < 2) return Number.NEGATIVE_INFINITY;
  let top = 0;
  for (let t = 1; t < terms; t++) if (q.bound[t]! > q.bound[top]!) top = t;
  const df = q.end[top]! - q.start[top]!;
  if (df < k) return Number.NEGATIVE_INFINITY;
  const step = Math.ceil(df / SEED);
  const seeds = new TopHeap(k, names);
  // The sample is ascending: every term's cursor only moves forward.
  const pos = Int32Array.from(q.start);
  for (let p = q.start[top]!; p < q.end[top]!; p += step) {
    const doc = q.docs[p]!;
    for (let t = 0; t < terms; t++) {
      const at = seek(q.docs, pos[t]!, q.end[t]!, doc);
      pos[t] = at;
      if (at < q.end[t]! && q.docs[at] === doc) {
        contributions[t] = q.contribution(t, at);
        hit[t] = -2;
      } else hit[t] = 0;
    }
    seeds.offer(doc, exactScore(q, contributions, hit, -2, doc));
  }
  return seeds.full ? seeds.threshold : Number.NEGATIVE_INFINITY;
}

/**
 * The reference evaluation: every posting of every query term scored, term by term, then the best `k`.
 * What {@link topK} must equal; kept for tests and the benchmark's comparison.
 */
export function topKExhaustive(q: QueryScoring, k: number, names: readonly string[], n: number): Ranked[] {
  const sums = new Float64Array(n);
  const covered = new Float64Array(n);
  const best = new Float64Array(n);
  const seen = new Int32Array(n);
  const touched = new Uint8Array(n);
  const list: number[] = [];
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
}

/**
 * The covered weight that query term `t` adds to the document being scored (its word's best weight so
 * far, per `stamp`): an upper-bound bookkeeping for pruning, not the exact sum.
 */
function cover(q: QueryScoring, t: number, stamp: number, seen: Int32Array, best: Float64Array): number {
  const w = q.word[t]!;
  const weight = q.weight[t]!;
  if (seen[w] !== stamp) {
    seen[w] = stamp;
    best[w] = weight;
    return weight;
  }
  if (weight <= best[w]!) return 0;
  const gain = weight - best[w]!;
  best[w] = weight;
  return gain;
}

/**
 * A document's score from the contributions marked with `stamp`, summed and covered in query-term order
 * with the same operations as {@link topKExhaustive}: the same number to the last bit.
 */
function exactScore(
  q: QueryScoring,
  contributions: Float64Array,
  hit: Int32Array,
  stamp: number,
  doc: number,
): number {
  let sum = 0;
  let covered = 0;
  let word = -1;
  let best = 0;
  for (let t = 0; t < hit.length; t++) {
    if (hit[t] !== stamp) continue;
    sum = sum + contributions[t]!;
    const weight = q.weight[t]!;
    if (q.word[t] !== word) {
      word = q.word[t]!;
      best = weight;
      covered = covered + weight;
    } else if (weight > best) {
      covered = covered + weight - best;
      best = weight;
    }
  }
  return q.score(sum, covered, doc);
}

/** The first index in `docs[from … to - 1]` (ascending) holding `doc` or more; `to` if none. */
function seek(docs: Int32Array, from: number, to: number, doc: number): number {
  if (from >= to || docs[from]! >= doc) return from;
  // Gallop to a range that holds the answer, then bisect it.
  let lo = from;
  let step = 1;
  let hi = from + 1;
  while (hi < to && docs[hi]! < doc) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  if (hi > to) hi = to;
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < doc) lo = mid;
    else hi = mid;
  }
  return hi;
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

  get full(): boolean {
    return this.#size === this.#k;
  }

  /** The k-th best score (the worst held); meaningful once {@link full}. */
  get threshold(): number {
    return this.#scores[0]!;
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
