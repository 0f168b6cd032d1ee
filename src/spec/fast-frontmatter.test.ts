import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseDocument } from "yaml";
import { fastFrontmatter } from "./fast-frontmatter.js";
import { parseFrontmatterYaml } from "./parse-frontmatter-yaml.js";

/** What the `yaml` library returns with the failsafe schema, or `"error"`. */
function yamlFailsafe(text: string): unknown {
  const doc = parseDocument(text, { schema: "failsafe", uniqueKeys: true });
  return doc.errors.length > 0 ? "error" : doc.toJS();
}

const keyArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("name", "description", "license", "metadata", "tags", "version") },
  fc.constantFrom(
    "name",
    "description",
    "license",
    "metadata",
    "allowed-tools",
    "when_to_use",
    "a.b",
    "1",
    "x",
  ),
  fc.stringMatching(/^[a-z_][a-z0-9_-]{0,5}$/),
  fc.constantFrom("__proto__", "-x", "a b", '"q"', "k:"),
);
const chars = fc.constantFrom(
  ...[..."abcxyz ABC019-_.,:;#'\"[]{}()*&!|>%@`?/\\\té€😀\u00a0\u3000\u0085\r=+~<"],
  "\u2028",
  "\ufeff",
);
const safeChars = fc.constantFrom(...[..."abcxyz ABC019-_.,()é€😀'\""]);
const textArb = fc.oneof(
  { weight: 5, arbitrary: fc.array(safeChars, { maxLength: 14 }).map((a) => a.join("")) },
  { weight: 1, arbitrary: fc.array(chars, { maxLength: 14 }).map((a) => a.join("")) },
);
const escapeArb = fc.constantFrom(
  "\\n",
  "\\t",
  "\\\\",
  '\\"',
  "\\/",
  "\\0",
  "\\x41",
  "\\xZZ",
  "\\u00e9",
  "\\ud800",
  "\\U0001F600",
  "\\U00110000",
  "\\N",
  "\\_",
  "\\e",
  "\\q",
  "\\ ",
  "\\",
);
const trailArb = fc.constantFrom("", "", "", "", "  ", " # note", "#x", " x", "  #");

const plainArb = textArb;
const singleArb = fc
  .tuple(fc.array(fc.oneof(textArb, fc.constant("''")), { maxLength: 3 }), trailArb)
  .map(([parts, trail]) => `'${parts.join("").replace(/'(?!')/g, "''")}'${trail}`);
const doubleArb = fc
  .tuple(fc.array(fc.oneof(textArb, escapeArb), { maxLength: 4 }), trailArb)
  .map(([parts, trail]) => `"${parts.join("").replace(/"/g, "")}"${trail}`);
/** A flow list: mostly plain items, sometimes empty items, quotes, nesting, comments or text after it. */
const flowArb = fc
  .tuple(
    fc.array(fc.oneof({ weight: 4, arbitrary: textArb }, fc.constantFrom("", " ", "[x]", "'q'", "a: b")), {
      maxLength: 4,
    }),
    fc.constantFrom(", ", ",", " , "),
    fc.constantFrom("", "", "", " ", ",", " # c", " x", "]"),
  )
  .map(([items, sep, trail]) => `[${items.join(sep)}]${trail}`);
const scalarArb = fc.oneof({ weight: 3, arbitrary: plainArb }, singleArb, doubleArb);

const indentArb = fc.constantFrom("", " ", "  ", "  ", "  ", "  ", "   ", "    ", "      ");
const noisyBlockArb = fc
  .tuple(
    fc.constantFrom("|", "|-", ">", ">-", "|+", ">+", "|2", "| # c", ">-  ", "|x"),
    fc.array(fc.tuple(indentArb, fc.oneof(textArb, fc.constant(""), fc.constant("# not a comment"))), {
      maxLength: 6,
    }),
  )
  .map(([header, lines]) => [header, ...lines.map(([i, t]) => i + t)]);

type Entry = { key: string; lines: string[] };

/** A nested value: a scalar, a block scalar's lines (header first), or a deeper map's or list's lines. */
type NestedValue = string | string[] | { deeper: string[] };

/** The lines of nested `key: value` items at indentation `ind`. */
function nestedLines(ind: string, items: [string, NestedValue][]): string[] {
  return items.flatMap(([ik, v]) =>
    typeof v === "string"
      ? [`${ind}${ik}: ${v}`]
      : Array.isArray(v)
        ? [`${ind}${ik}: ${v[0]}`, ...v.slice(1).map((l) => ind + l)]
        : [`${ind}${ik}:`, ...v.deeper.map((l) => ind + l)],
  );
}

/**
 * A value nested one level deeper under a `key:` (its lines relative to the key's indentation): a block
 * list or a map, `levels` deep at most; noisy ones vary the indentation (same as the key's, less, mixed).
 */
function deeperArb(
  key: fc.Arbitrary<string>,
  scalar: fc.Arbitrary<string>,
  noisy: boolean,
  levels: number,
): fc.Arbitrary<{ deeper: string[] }> {
  const sub = noisy ? fc.constantFrom("", " ", "  ", "  ", "  ", "    ") : fc.constant("  ");
  const list = fc
    .tuple(
      sub,
      fc.array(fc.oneof({ weight: 4, arbitrary: scalar }, fc.constant("")), { minLength: 1, maxLength: 3 }),
    )
    .map(([i, items]) => ({ deeper: items.map((v) => `${i}-${v === "" ? "" : ` ${v}`}`) }));
  if (levels <= 1) return list;
  const value: fc.Arbitrary<NestedValue> = fc.oneof(
    { weight: 3, arbitrary: scalar },
    deeperArb(key, scalar, noisy, levels - 1),
  );
  const map = fc
    .tuple(
      sub,
      fc.uniqueArray(fc.tuple(key, value), {
        minLength: 1,
        maxLength: 3,
        selector: ([k]) => (noisy ? Math.random() : k),
      }),
    )
    .map(([i, items]) => ({ deeper: nestedLines(i, items) }));
  return fc.oneof(list, map);
}

/** One top-level entry: a key line plus its continuation lines (values built from `scalar`). */
function entryArb(
  key: fc.Arbitrary<string>,
  scalar: fc.Arbitrary<string>,
  blockArb: fc.Arbitrary<string[]>,
  noisy: boolean,
): fc.Arbitrary<Entry> {
  const nestedKey = noisy ? keyArb : fc.stringMatching(/^[a-z][a-z0-9_-]{0,6}$/);
  const entries: fc.WeightedArbitrary<Entry>[] = [
    { weight: 4, arbitrary: fc.tuple(key, scalar).map(([k, v]) => ({ key: k, lines: [`${k}: ${v}`] })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(key, blockArb)
        .map(([k, [h, ...rest]]) => ({ key: k, lines: [`${k}: ${h}`, ...rest] })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          key,
          noisy ? indentArb : fc.constant("  "),
          fc.uniqueArray(
            fc.tuple(
              nestedKey,
              fc.oneof({ weight: 3, arbitrary: scalar }, blockArb, deeperArb(nestedKey, scalar, noisy, 2)),
            ),
            {
              maxLength: 4,
              selector: ([k]) => (noisy ? Math.random() : k),
            },
          ),
        )
        .map(([k, ind, items]) => ({ key: k, lines: [`${k}:`, ...nestedLines(ind, items)] })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          key,
          noisy ? indentArb : fc.constantFrom("", "  "),
          fc.array(fc.oneof(scalar, fc.constant("")), { maxLength: 4 }),
        )
        .map(([k, ind, items]) => ({
          key: k,
          lines: [`${k}:`, ...items.map((v) => `${ind}-${v === "" ? "" : ` ${v}`}`)],
        })),
    },
  ];
  // A plain scalar wrapped over indented lines (blank lines between), on the key's line or from the next.
  const lineText = noisy ? textArb : cleanText;
  entries.push({
    weight: 2,
    arbitrary: fc
      .tuple(
        key,
        fc.oneof({ weight: 3, arbitrary: lineText }, fc.constant("")),
        fc.array(
          fc.tuple(
            noisy ? indentArb : fc.constantFrom("  ", "  ", "    "),
            fc.oneof({ weight: 4, arbitrary: lineText }, fc.constant("")),
          ),
          { minLength: 1, maxLength: 5 },
        ),
      )
      .map(([k, head, rest]) => ({
        key: k,
        lines: [
          head === "" ? `${k}:` : `${k}: ${head}`,
          ...rest.map(([i, t]) => (t === "" && !noisy ? "" : i + t)),
        ],
      })),
  });
  if (noisy) {
    const line = (l: fc.Arbitrary<string>) => ({
      weight: 1,
      arbitrary: l.map((x) => ({ key: "", lines: [x] })),
    });
    entries.push(
      line(fc.tuple(keyArb, textArb).map(([k, v]) => `${k}:${v}`)),
      line(fc.tuple(indentArb, textArb).map(([i, t]) => `${i}# ${t}`)),
      line(fc.tuple(indentArb, textArb).map(([i, t]) => i + t)),
      line(indentArb),
    );
  } else {
    entries.push({
      weight: 1,
      arbitrary: fc.constantFrom("# comment", "").map((l) => ({ key: "", lines: [l] })),
    });
  }
  return fc.oneof(...entries);
}

const cleanKey = fc.oneof(
  fc.constantFrom("name", "description", "license", "metadata", "allowed-tools", "tags", "version"),
  fc.stringMatching(/^[a-z][a-z0-9_-]{0,6}$/),
);
const cleanText = fc.array(safeChars, { maxLength: 20 }).map((a) => a.join(""));
const cleanBlockArb = fc
  .tuple(
    fc.constantFrom("|", "|-", ">", ">-"),
    fc.array(
      fc.oneof(
        { weight: 4, arbitrary: cleanText.map((t) => `  ${t}`) },
        fc.constant(""),
        fc.constant("    x"),
      ),
      {
        maxLength: 5,
      },
    ),
  )
  .map(([header, lines]) => [header, ...lines]);
const cleanScalar = fc.oneof(
  { weight: 3, arbitrary: cleanText },
  cleanText.map((t) => `'${t.replace(/'/g, "''")}'`),
  cleanText.map((t) => `"${t.replace(/"/g, '\\"')}"`),
);
/** Clean values plus one-line flow lists of plain items (what lenient mode's fast path also reads). */
const cleanScalarOrFlow = fc.oneof(
  { weight: 3, arbitrary: cleanScalar },
  fc
    .array(fc.stringMatching(/^[a-z][a-z0-9 _.()-]{0,8}[a-z0-9]$/), { maxLength: 4 })
    .map((items) => `[${items.join(", ")}]`),
);

/** Frontmatter texts: clean entries (mostly accepted) or noisy ones (mostly not), values from `clean`. */
function frontmatterOf(clean: fc.Arbitrary<string>, noisy: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.oneof(
        {
          weight: 3,
          arbitrary: fc.uniqueArray(entryArb(cleanKey, clean, cleanBlockArb, false), {
            minLength: 1,
            maxLength: 7,
            selector: (e) => e.key || Math.random(),
          }),
        },
        {
          weight: 2,
          arbitrary: fc.array(entryArb(keyArb, noisy, noisyBlockArb, true), { minLength: 1, maxLength: 7 }),
        },
      ),
      fc.boolean(),
    )
    .map(([entries, newline]) => entries.flatMap((e) => e.lines).join("\n") + (newline ? "\n" : ""));
}

const frontmatterArb = frontmatterOf(cleanScalar, scalarArb);
const frontmatterWithFlowsArb = frontmatterOf(cleanScalarOrFlow, fc.oneof(scalarArb, flowArb));

describe("fastFrontmatter", () => {
  test("whenever it accepts, the result deep-equals yaml (failsafe) and strict mode accepts it too", () => {
    let accepted = 0;
    let total = 0;
    fc.assert(
      fc.property(frontmatterArb, (text) => {
        total++;
        const fast = fastFrontmatter(text);
        if (fast === undefined) return;
        accepted++;
        expect(fast).toStrictEqual(yamlFailsafe(text));
        const strict = parseFrontmatterYaml(text, true);
        expect(strict).toMatchObject({ ok: true, value: fast });
      }),
      { numRuns: 20_000 },
    );
    // The generator must exercise the accepting side, not only bail-outs.
    expect(accepted / total).toBeGreaterThan(0.3);
  });

  test("with flow lists allowed, whenever it accepts, value and flow offsets equal the full lenient parse", () => {
    let withFlows = 0;
    fc.assert(
      fc.property(frontmatterWithFlowsArb, (text) => {
        const flows: number[] = [];
        const fast = fastFrontmatter(text, text, 0, flows);
        if (fast === undefined) return;
        if (flows.length > 0) {
          withFlows++;
          expect(fastFrontmatter(text)).toBeUndefined(); // without the option, flow lists bail out
        }
        expect(parseFrontmatterYaml(text, false)).toStrictEqual({
          ok: true,
          value: fast,
          flowOffsets: flows,
          duplicateKeys: [],
          collectionKeys: [],
        });
      }),
      { numRuns: 20_000 },
    );
    expect(withFlows).toBeGreaterThan(500);
  });

  test("reading the frontmatter inside the whole file gives what reading its slice gives", () => {
    const around = fc.constantFrom("", "---\n", "<!-- x -->\n---\n", "x", "  ", "\n");
    const after = fc.constantFrom("", "---\n", "---\n# Body\n- a\n  b: c\n", "\n  x", " y", "\tz");
    fc.assert(
      fc.property(frontmatterArb, around, after, (yaml, before, rest) => {
        const text = before + yaml + rest;
        expect(fastFrontmatter(yaml, text, before.length)).toStrictEqual(fastFrontmatter(yaml));
        const inFile: number[] = [];
        const alone: number[] = [];
        expect(fastFrontmatter(yaml, text, before.length, inFile)).toStrictEqual(
          fastFrontmatter(yaml, yaml, 0, alone),
        );
        expect(inFile).toStrictEqual(alone);
      }),
      { numRuns: 10_000 },
    );
  });

  test("parses the constructs real skills use", () => {
    const text = [
      "name: pdf-tools",
      "# comment",
      "description: >-",
      "  Extracts text",
      "  from PDFs.",
      "",
      "  Second paragraph.",
      "license: 'It''s MIT'",
      'compatibility: "Python 3.11+ \\u00e9"',
      "literal: |",
      "  line 1",
      "    indented",
      "",
      "metadata:",
      "  author: acme",
      '  version: "1.0"',
      "  raw: 1.0",
      "allowed-tools:",
      "  - Read",
      "  - Bash(git:*)",
      "empty:",
      "",
    ].join("\n");
    expect(fastFrontmatter(text)).toStrictEqual({
      name: "pdf-tools",
      description: "Extracts text from PDFs.\nSecond paragraph.",
      license: "It's MIT",
      compatibility: "Python 3.11+ é",
      literal: "line 1\n  indented\n",
      metadata: { author: "acme", version: "1.0", raw: "1.0" },
      "allowed-tools": ["Read", "Bash(git:*)"],
      empty: "",
    });
  });

  test("folds plain values wrapped over indented lines as YAML does", () => {
    const text = [
      "name: wrapped",
      "description: React composition patterns that scale. Use when",
      "  refactoring components with boolean props,   ",
      "    or designing C# APIs.",
      "",
      "  Second paragraph.",
      "",
      "",
      "  Third.",
      "",
      "summary:",
      "  Starts on the next line",
      "  and goes on.",
      "homepage: https://example.com/x#readme",
      "",
    ].join("\n");
    const expected = {
      name: "wrapped",
      description:
        "React composition patterns that scale. Use when refactoring components with boolean props, or designing C# APIs.\nSecond paragraph.\n\nThird.",
      summary: "Starts on the next line and goes on.",
      homepage: "https://example.com/x#readme",
    };
    expect(fastFrontmatter(text)).toStrictEqual(expected);
    expect(yamlFailsafe(text)).toStrictEqual(expected);
  });

  test.each([
    ["flow list", "allowed-tools: [Read, Write]"],
    ["anchor", "name: &a x"],
    ["a continuation line starting with an indicator", "description: one\n  - two"],
    ["a comment line inside a wrapped value", "description: one\n  # two\n  three"],
    ["a wrapped value holding a mapping indicator", "description: one\n  two: three"],
    ["a comment after a wrapped line", "description: one\n  two # three"],
    ["tab", "name:\tx"],
    ["comment in value", "description: a # b"],
    ["unquoted colon", "description: Use when: asked"],
    ["keep chomping", "d: |+\n  x\n"],
    ["duplicate key", "name: a\nname: b"],
    ["CRLF", "name: a\r\n"],
    ["nothing", "# only a comment\n"],
  ])("bails out on %s", (_label, text) => {
    expect(fastFrontmatter(text)).toBeUndefined();
  });
});
