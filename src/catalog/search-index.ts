import type { FrontmatterValue } from "../spec/types.js";
import { tokenize } from "./tokenize.js";
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

const NAME_BOOST = 3;
const EXTRAS_BOOST = 1;
const K1 = 1.2;
const B = 0.75;
/** Weight of a prefix match (`kube` → `kubernetes`) relative to an exact term match. */
const PREFIX_WEIGHT = 0.5;

/**
 * A BM25F index over skill records: name (boosted ×3), description, and the {@link SEARCHED_EXTRAS}.
 * Build cost is one tokenisation per record; build it lazily, on the first search.
 */
export class SearchIndex {
  readonly #records: SkillRecord[];
  /** term → flat [doc, weightedTf, doc, weightedTf, …] (small integers: cheap to build and hold). */
  readonly #postings = new Map<string, number[]>();
  readonly #lengths: number[] = [];
  readonly #avgLength: number;

  constructor(records: readonly SkillRecord[]) {
    this.#records = [...records];
    let total = 0;
    this.#records.forEach((record, doc) => {
      const tf = new Map<string, number>();
      let length = 0;
      const add = (text: string, boost: number) => {
        for (const term of tokenize(text)) {
          tf.set(term, (tf.get(term) ?? 0) + boost);
          length += boost;
        }
      };
      add(record.name, NAME_BOOST);
      add(record.description, 1);
      for (const key of SEARCHED_EXTRAS) {
        const value = record.extras[key];
        if (value !== undefined) add(flatten(value), EXTRAS_BOOST);
      }
      for (const [term, count] of tf) {
        let list = this.#postings.get(term);
        if (list === undefined) {
          list = [];
          this.#postings.set(term, list);
        }
        list.push(doc, count);
      }
      this.#lengths.push(length);
      total += length;
    });
    this.#avgLength = this.#records.length === 0 ? 1 : total / this.#records.length || 1;
  }

  /**
   * Best matches first (ties broken by name), at most `limit` (default 10). Query terms that match no
   * indexed term exactly fall back to prefix matches at half weight. A query equal to a skill's name
   * ranks that skill first. An empty query returns no hits.
   */
  search(query: string, limit = 10): SearchHit[] {
    const scores = new Map<number, number>();
    const n = this.#records.length;
    for (const term of new Set(tokenize(query))) {
      const exact = this.#postings.get(term);
      const matches: [string, number][] = exact !== undefined ? [[term, 1]] : this.#prefixMatches(term);
      for (const [match, weight] of matches) {
        const list = this.#postings.get(match) ?? [];
        const df = list.length / 2;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        for (let i = 0; i < list.length; i += 2) {
          const doc = list[i]!;
          const tf = list[i + 1]!;
          const norm = tf + K1 * (1 - B + (B * (this.#lengths[doc] ?? 0)) / this.#avgLength);
          scores.set(doc, (scores.get(doc) ?? 0) + weight * idf * ((tf * (K1 + 1)) / norm));
        }
      }
    }
    const wanted = query.trim().toLowerCase();
    const hits: SearchHit[] = [];
    for (const [doc, score] of scores) {
      const record = this.#records[doc]!;
      hits.push({ record, score: record.name.toLowerCase() === wanted ? score + 100 : score });
    }
    hits.sort((a, b) => b.score - a.score || (a.record.name < b.record.name ? -1 : 1));
    return hits.slice(0, Math.max(0, limit));
  }

  #prefixMatches(term: string): [string, number][] {
    if (term.length < 3) return [];
    const out: [string, number][] = [];
    for (const candidate of this.#postings.keys()) {
      if (candidate.startsWith(term)) out.push([candidate, PREFIX_WEIGHT]);
    }
    return out;
  }
}

function flatten(value: FrontmatterValue): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(flatten).join(" ");
  return Object.values(value).map(flatten).join(" ");
}
