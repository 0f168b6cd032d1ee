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
  const original = new Map<SkillRecord, SkillRecord>();
  // One prototype for every copy: its getters read the body texts on first use. Copies of one shape
  // (the record's own fields plus two hidden ones) stay fast objects; accessors defined on each copy
  // made 10,000 of them slow to build and to collect.
  const proto = Object.create(Object.prototype, {
    opening: { get: lazyText("opening"), enumerable: false },
    headings: { get: lazyText("headings"), enumerable: false },
  }) as object;
  const wrapped = records.map((record) => {
    if (record.opening !== undefined || record.headings !== undefined || record.dir.startsWith("memory:")) {
      return record;
    }
    const copy = Object.assign(Object.create(proto) as SkillRecord, record);
    Object.defineProperty(copy, SOURCE, { value: { record, textsOf, texts: undefined } });
    original.set(copy, record);
    return copy;
  });
  return {
    records: wrapped,
    hit: (hit) => {
      const record = original.get(hit.record);
      return record === undefined ? hit : { ...hit, record };
    },
  };
}

/** Where a copy made by {@link searchableRecords} keeps its record and, once read, its body texts. */
const SOURCE = Symbol("searchable source");

interface Source {
  record: SkillRecord;
  textsOf: (record: SkillRecord) => BodyOpening;
  texts: BodyOpening | undefined;
}

function lazyText(field: keyof BodyOpening): (this: { [SOURCE]: Source }) => string {
  return function (this: { [SOURCE]: Source }): string {
    const source = this[SOURCE];
    source.texts ??= source.textsOf(source.record);
    return source.texts[field];
  };
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
