import { type BodyOpening, bodyOpening } from "./body-opening.js";
import { readSkillHead } from "./read-skill-head.js";
import type { SearchHit, SkillRecord } from "./types.js";

/**
 * Records as the search index reads them: each with its body's `opening` and `headings` (see
 * {@link bodyOpening}), read from its SKILL.md only when the index first asks for them — every record
 * when an index is built, the few it re-ranks when a stored index is loaded. Listing never pays for
 * them. Records that already carry them (memory skills) are used as they are.
 */
export interface SearchableRecords {
  records: SkillRecord[];
  /** The catalog's own record for a hit on one of {@link records}. */
  hit(hit: SearchHit): SearchHit;
}

/**
 * Wraps `records` for the search index (see {@link SearchableRecords}); `textsOf` reads a record's body
 * texts (default: {@link bodyTexts} of its file; the catalog's remembers them per version of the file).
 */
export function searchableRecords(
  records: readonly SkillRecord[],
  textsOf: (record: SkillRecord) => BodyOpening = (record) => bodyTexts(record.location),
): SearchableRecords {
  // Each copy's record and, once read, its body texts, by copy.
  const sources = new Map<SkillRecord, Source>();
  // One prototype for every copy: its getters read the body texts on first use. Copies of one shape
  // (the record's own fields) stay fast objects; accessors defined on each copy made 10,000 of them slow
  // to build and to collect, and so did a hidden per-copy property (~10× a map entry's cost).
  const lazyText = (field: keyof BodyOpening) =>
    function (this: SkillRecord): string {
      const source = sources.get(this)!;
      source.texts ??= textsOf(source.record);
      return source.texts[field];
    };
  const proto = Object.create(Object.prototype, {
    opening: { get: lazyText("opening"), enumerable: false },
    headings: { get: lazyText("headings"), enumerable: false },
  }) as object;
  const wrapped = records.map((record) => {
    if (record.opening !== undefined || record.headings !== undefined || record.dir.startsWith("memory:")) {
      return record;
    }
    const copy = Object.assign(Object.create(proto) as SkillRecord, record);
    sources.set(copy, { record, texts: undefined });
    return copy;
  });
  return {
    records: wrapped,
    hit: (hit) => {
      const record = sources.get(hit.record)?.record;
      return record === undefined ? hit : { ...hit, record };
    },
  };
}

/** A copy's record and, once read, its body texts. */
interface Source {
  record: SkillRecord;
  texts: BodyOpening | undefined;
}

/**
 * The opening and headings of the SKILL.md at `file`, from one head read (the whole file, up to the
 * catalog's size cap, when its frontmatter is longer than a head). A file that cannot be read now has
 * none: search then goes by its frontmatter alone.
 */
export function bodyTexts(file: string): BodyOpening {
  try {
    return bodyOpening(readSkillHead(file).bodyStart ?? "");
  } catch {
    return { opening: "", headings: "" };
  }
}
