import { tokenize } from "./tokenize.js";
import type { SkillRecord } from "./types.js";

/** Indexed fields, in posting order: name, description, extras, headings, opening. */
export const FIELDS = 5;
/** Counts are stored in 16 bits: a term counted more often in one field counts this often (BM25 has long saturated). */
const MAX_COUNT = 65_535;

/**
 * Plain data of a built index ({@link serializeSearchIndex}): strings and typed arrays (structured-clone
 * safe; the search cache stores the arrays as raw bytes). Postings are grouped by term, documents
 * ascending within a term.
 */
export interface SearchIndexData {
  format: "skillrt-search-index";
  version: 5;
  /** Skill names in document order: the records a loaded index is paired with. */
  names: string[];
  terms: string[];
  /** Term t's postings are `offsets[t]` … `offsets[t + 1] - 1` (terms.length + 1 entries). */
  offsets: Int32Array;
  /** Per posting: its document. */
  docs: Int32Array;
  /** Per posting: the term's count in each field (name, description, extras, headings, opening). */
  counts: Uint16Array;
  /** Per document: each field's length in terms. */
  lengths: Int32Array;
}

/** The stored layout of an index: {@link SearchIndexData} without its header. */
export type Layout = Omit<SearchIndexData, "format" | "version" | "names">;

/** The weighted, length-normalised term frequency of posting `p`: its counts times the field's scale. */
export function fieldTf(docs: Int32Array, counts: Uint16Array, scaled: Float64Array, p: number): number {
  const at = docs[p]! * FIELDS;
  const c = p * FIELDS;
  let tf = 0;
  for (let f = 0; f < FIELDS; f++) {
    const count = counts[c + f]!;
    if (count !== 0) tf += count * scaled[at + f]!;
  }
  return tf;
}

/** Tokenises every record's fields into postings grouped by term (documents ascending). */
export function buildLayout(
  records: readonly SkillRecord[],
  texts: (record: SkillRecord) => [field: number, text: string][],
): Layout {
  const steps = layoutSteps(records, texts);
  let next = steps.next();
  while (next.done !== true) next = steps.next();
  return next.value;
}

/**
 * {@link buildLayout} in slices of about `sliceMs` (default 8) of work, yielding to the event loop between
 * them: a server building the index of 10,000 skills keeps answering meanwhile. Same layout.
 */
export async function buildLayoutAsync(
  records: readonly SkillRecord[],
  texts: (record: SkillRecord) => [field: number, text: string][],
  sliceMs = 8,
): Promise<Layout> {
  const steps = layoutSteps(records, texts);
  let sliceStart = performance.now();
  for (let next = steps.next(); ; next = steps.next()) {
    if (next.done === true) return next.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}

/** The work of {@link buildLayout}, pausing after each record and each few thousand terms packed. */
function* layoutSteps(
  records: readonly SkillRecord[],
  texts: (record: SkillRecord) => [field: number, text: string][],
): Generator<void, Layout, void> {
  const ids = new Map<string, number>();
  const lists: number[][] = [];
  const lengths = new Int32Array(records.length * FIELDS);
  let total = 0;
  for (let doc = 0; doc < records.length; doc++) {
    const record = records[doc]!;
    const tf = new Map<string, number[]>();
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
      lengths[doc * FIELDS + field]! += terms.length;
    };
    for (const [field, text] of texts(record)) addText(text, field);
    for (const [term, counts] of tf) {
      let id = ids.get(term);
      if (id === undefined) {
        id = lists.length;
        ids.set(term, id);
        lists.push([]);
      }
      lists[id]!.push(doc, ...counts);
      total++;
    }
    yield;
  }
  const offsets = new Int32Array(lists.length + 1);
  const docs = new Int32Array(total);
  const counts = new Uint16Array(total * FIELDS);
  let p = 0;
  for (let t = 0; t < lists.length; t++) {
    const list = lists[t]!;
    for (let i = 0; i < list.length; i += 1 + FIELDS, p++) {
      docs[p] = list[i]!;
      for (let f = 0; f < FIELDS; f++) counts[p * FIELDS + f] = Math.min(list[i + 1 + f]!, MAX_COUNT);
    }
    offsets[t + 1] = p;
    if (t % 2048 === 2047) yield;
  }
  return { terms: [...ids.keys()], offsets, docs, counts, lengths };
}
