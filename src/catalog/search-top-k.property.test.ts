import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type QueryScoring, type Ranked, topK } from "./search-top-k.js";

/** A query over `n` documents: terms with their postings (ascending documents, one impact each). */
interface Query {
  n: number;
  terms: { word: number; weight: number; postings: [doc: number, impact: number][] }[];
  forced: number[];
}

function scoring(query: Query): QueryScoring {
  const docs: number[] = [];
  const start: number[] = [];
  const end: number[] = [];
  for (const term of query.terms) {
    start.push(docs.length);
    docs.push(...term.postings.map(([doc]) => doc));
    end.push(docs.length);
  }
  return {
    docs: Int32Array.from(docs),
    start: Int32Array.from(start),
    end: Int32Array.from(end),
    word: Int32Array.from(query.terms.map((t) => t.word)),
    weight: Float64Array.from(query.terms.map((t) => t.weight)),
    impacts: query.terms.map((t) => Float64Array.from(t.postings.map(([, impact]) => impact))),
    score: (sum, covered, doc) => sum * (1 + covered / 3) + (query.forced.includes(doc) ? 100 : 0),
  };
}

/** The plain reading of the ranking: per document, its terms in query order; every document sorted. */
function reference(query: Query, q: QueryScoring, k: number, names: readonly string[]): Ranked[] {
  const docs = new Map<number, { sum: number; covered: number; best: Map<number, number> }>();
  query.terms.forEach((term, t) => {
    for (const [doc, impact] of term.postings) {
      const acc = docs.get(doc) ?? { sum: 0, covered: 0, best: new Map<number, number>() };
      docs.set(doc, acc);
      acc.sum = acc.sum + q.weight[t]! * impact;
      const best = acc.best.get(term.word);
      if (best === undefined) acc.covered = acc.covered + term.weight;
      acc.best.set(term.word, Math.max(best ?? 0, term.weight));
    }
  });
  return [...docs]
    .map(([doc, acc]) => ({ doc, score: q.score(acc.sum, acc.covered, doc) }))
    .sort((a, b) => b.score - a.score || (names[a.doc]! < names[b.doc]! ? -1 : 1))
    .slice(0, k);
}

/** Queries over up to 3,000 documents (blocks of 1,024 and a partial last one), words of 1–3 terms. */
const queries = fc
  .record({
    n: fc.integer({ min: 1, max: 3000 }),
    words: fc.array(fc.array(fc.double({ min: 0.1, max: 1, noNaN: true }), { minLength: 1, maxLength: 3 }), {
      minLength: 1,
      maxLength: 4,
    }),
    density: fc.double({ min: 0.001, max: 0.9, noNaN: true }),
    seed: fc.integer(),
    forced: fc.array(fc.nat(), { maxLength: 2 }),
  })
  .map(({ n, words, density, seed, forced }): Query => {
    let state = seed >>> 0 || 1;
    const random = () => {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      return state / 2 ** 32;
    };
    const terms: Query["terms"] = [];
    words.forEach((weights, word) => {
      // Weights never rise within a word (QueryScoring.word).
      for (const weight of [...weights].sort((a, b) => b - a)) {
        const postings: [number, number][] = [];
        // Impacts from a few values, so that equal scores (ties broken by name) occur.
        for (let doc = 0; doc < n; doc++)
          if (random() < density) postings.push([doc, 1 + Math.floor(random() * 4)]);
        terms.push({ word, weight, postings });
      }
    });
    return { n, terms, forced: forced.map((f) => f % n) };
  });

describe("topK", () => {
  it("ranks as scoring every document's terms in query order and sorting all of them would", () => {
    fc.assert(
      fc.property(queries, fc.integer({ min: 0, max: 30 }), (query, k) => {
        const names = Array.from(
          { length: query.n },
          (_, i) => `skill-${String((i * 7919) % 100_003).padStart(6, "0")}`,
        );
        const q = scoring(query);
        expect(topK(q, k, names, query.n)).toEqual(reference(query, q, k, names));
      }),
      { numRuns: 200, seed: 22 },
    );
  });

  it("leaves nothing behind for the next query", () => {
    const names = Array.from({ length: 2000 }, (_, i) => `s${i}`);
    const query: Query = {
      n: 2000,
      terms: [
        {
          word: 0,
          weight: 1,
          postings: [
            [5, 2],
            [1500, 3],
          ],
        },
      ],
      forced: [],
    };
    const first = topK(scoring(query), 5, names, 2000);
    const again = topK(scoring(query), 5, names, 2000);
    expect(again).toEqual(first);
    expect(first.map((r) => r.doc)).toEqual([1500, 5]);
  });
});
