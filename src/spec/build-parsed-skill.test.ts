import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { coerceMetadata, extrasOf } from "./build-parsed-skill.js";
import { pyStr } from "./py-text.js";
import type { FrontmatterValue } from "./types.js";
import { isSpecField, SPEC_FIELDS } from "./validate-frontmatter.js";

const keyArb = fc.oneof(
  fc.constantFrom(...SPEC_FIELDS, "__proto__", "constructor", "toString", "1", "0", "10", "x", "tags"),
  fc.string({ maxLength: 6 }),
);
const valueArb: fc.Arbitrary<FrontmatterValue> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 5 }) },
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { maxKeys: 2 }),
);
/** Mappings as parsers build them: own data properties, `__proto__` included. */
const mappingArb = fc
  .array(fc.tuple(keyArb, valueArb), { maxLength: 8 })
  .map((entries) => Object.fromEntries(entries) as Record<string, FrontmatterValue>);

describe("extrasOf and coerceMetadata", () => {
  test("equal their Object.fromEntries definitions (key order and a __proto__ key included)", () => {
    fc.assert(
      fc.property(mappingArb, (fm) => {
        const extras = Object.fromEntries(Object.entries(fm).filter(([k]) => !isSpecField(k)));
        expect(extrasOf(fm)).toStrictEqual(extras);
        expect(Object.keys(extrasOf(fm))).toEqual(Object.keys(extras));
        const coerced = Object.fromEntries(Object.entries(fm).map(([k, v]) => [k, pyStr(v)]));
        expect(coerceMetadata(fm)).toStrictEqual(coerced);
        expect(Object.getPrototypeOf(extrasOf(fm))).toBe(Object.prototype);
      }),
      { numRuns: 5_000 },
    );
  });

  test("a __proto__ field stays an own field and does not change the prototype", () => {
    const fm = JSON.parse('{"name":"x","__proto__":{"polluted":"yes"},"tags":"a"}') as Record<
      string,
      FrontmatterValue
    >;
    const extras = extrasOf(fm);
    expect(Object.keys(extras)).toEqual(["__proto__", "tags"]);
    expect(Object.getPrototypeOf(extras)).toBe(Object.prototype);
    expect(Object.keys(coerceMetadata(fm) ?? {})).toEqual(["name", "__proto__", "tags"]);
  });

  test("isSpecField is true exactly for the six spec fields", () => {
    for (const field of SPEC_FIELDS) expect(isSpecField(field)).toBe(true);
    fc.assert(
      fc.property(keyArb, (key) => {
        expect(isSpecField(key)).toBe((SPEC_FIELDS as readonly string[]).includes(key));
      }),
    );
  });
});
