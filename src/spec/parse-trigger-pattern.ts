/**
 * The parser of a `triggerPattern` (a JavaScript regular expression read as `new RegExp(pattern, "i")`
 * reads it, without `u`) into the tree `compileTriggerPattern` turns into an automaton. What only
 * backtracking can run — backreferences, lookahead, lookbehind — is refused with the reason.
 */

/** A set of UTF-16 code units: sorted inclusive ranges, possibly negated. */
export interface CharSet {
  ranges: number[][];
  negated: boolean;
}

/** A parsed pattern: character sets, assertions, sequences, alternatives and counted repeats. */
export type TriggerNode =
  | { t: "set"; set: CharSet }
  | { t: "assert"; kind: "^" | "$" | "b" | "B" }
  | { t: "seq"; items: TriggerNode[] }
  | { t: "alt"; options: TriggerNode[] }
  | { t: "repeat"; node: TriggerNode; min: number; max: number };

/**
 * A pattern the bounded matcher cannot run; the message says why. Internal: `compileTriggerPattern` turns
 * it into its `reason`, so it never reaches a caller.
 */
export class TriggerPatternRefused extends Error {}

const DIGIT = [[0x30, 0x39]];
const WORD = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_END = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

/** The complement of sorted, non-overlapping ranges over the code units. */
function complement(ranges: number[][]): number[][] {
  const out: number[][] = [];
  let next = 0;
  for (const [lo, hi] of ranges as [number, number][]) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= 0xffff) out.push([next, 0xffff]);
  return out;
}

class Parser {
  private i = 0;
  private readonly src: string;
  constructor(src: string) {
    this.src = src;
  }

  parse(): TriggerNode {
    const node = this.alternation();
    if (this.i < this.src.length) throw new TriggerPatternRefused(`unmatched ')' at character ${this.i + 1}`);
    return node;
  }

  private peek(): string | undefined {
    return this.src[this.i];
  }

  private alternation(): TriggerNode {
    const options = [this.sequence()];
    while (this.peek() === "|") {
      this.i++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { t: "alt", options };
  }

  private sequence(): TriggerNode {
    const items: TriggerNode[] = [];
    for (let c = this.peek(); c !== undefined && c !== "|" && c !== ")"; c = this.peek()) {
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    return { t: "seq", items };
  }

  private quantified(atom: TriggerNode): TriggerNode {
    let node = atom;
    for (;;) {
      const c = this.peek();
      let min: number;
      let max: number;
      if (c === "*") [min, max] = [0, Number.POSITIVE_INFINITY];
      else if (c === "+") [min, max] = [1, Number.POSITIVE_INFINITY];
      else if (c === "?") [min, max] = [0, 1];
      else if (c === "{") {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
        if (m === null) return node; // a `{` that is no quantifier is a literal (JS without `u`)
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === "" ? Number.POSITIVE_INFINITY : Number(m[3]);
        if (max < min) throw new TriggerPatternRefused(`numbers out of order in {${m[1]},${m[3]}}`);
        this.i += m[0].length - 1;
      } else return node;
      this.i++;
      if (this.peek() === "?") this.i++; // lazy: the same yes/no answer
      node = { t: "repeat", node, min, max };
    }
  }

  private atom(): TriggerNode {
    const c = this.src[this.i++]!;
    switch (c) {
      case "(":
        return this.group();
      case ".":
        return { t: "set", set: { ranges: LINE_END, negated: true } };
      case "^":
        return { t: "assert", kind: "^" };
      case "$":
        return { t: "assert", kind: "$" };
      case "[":
        return { t: "set", set: this.charClass() };
      case "\\":
        return this.escape();
      case "*":
      case "+":
      case "?":
        throw new TriggerPatternRefused(`nothing to repeat at character ${this.i}`);
      default: {
        const code = c.charCodeAt(0);
        return { t: "set", set: { ranges: [[code, code]], negated: false } };
      }
    }
  }

  private group(): TriggerNode {
    if (this.src.startsWith("?:", this.i)) this.i += 2;
    else if (this.src.startsWith("?<", this.i) && /^\?<[A-Za-z_$][\w$]*>/.test(this.src.slice(this.i))) {
      this.i = this.src.indexOf(">", this.i) + 1; // a named group captures, which a yes/no match ignores
    } else if (/^\?(=|!|<=|<!)/.test(this.src.slice(this.i))) {
      throw new TriggerPatternRefused("lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported");
    } else if (this.peek() === "?") throw new TriggerPatternRefused(`invalid group at character ${this.i}`);
    const inner = this.alternation();
    if (this.peek() !== ")") throw new TriggerPatternRefused("unterminated group: a '(' has no ')'");
    this.i++;
    return inner;
  }

  /** An escape outside a class. */
  private escape(): TriggerNode {
    const c = this.src[this.i];
    if (c === undefined) throw new TriggerPatternRefused("'\\' at end of pattern");
    if (c === "b" || c === "B") {
      this.i++;
      return { t: "assert", kind: c };
    }
    if (c === "k" && this.src[this.i + 1] === "<") {
      throw new TriggerPatternRefused("backreferences (\\k<name>) are not supported");
    }
    return { t: "set", set: this.escapeSet(false) };
  }

  /** `\x` as a set of characters (inside or outside a class). */
  private escapeSet(inClass: boolean): CharSet {
    const c = this.src[this.i++]!;
    const single = (code: number): CharSet => ({ ranges: [[code, code]], negated: false });
    switch (c) {
      case "d":
        return { ranges: DIGIT, negated: false };
      case "D":
        return { ranges: DIGIT, negated: true };
      case "w":
        return { ranges: WORD, negated: false };
      case "W":
        return { ranges: WORD, negated: true };
      case "s":
        return { ranges: SPACE, negated: false };
      case "S":
        return { ranges: SPACE, negated: true };
      case "t":
        return single(9);
      case "n":
        return single(10);
      case "v":
        return single(11);
      case "f":
        return single(12);
      case "r":
        return single(13);
      case "b":
        return single(8); // only reached inside a class, where \b is a backspace
      case "0":
        if (/[0-9]/.test(this.src[this.i] ?? ""))
          throw new TriggerPatternRefused("octal escapes are not supported");
        return single(0);
      case "x": {
        const hex = /^[0-9a-fA-F]{2}/.exec(this.src.slice(this.i));
        if (hex === null) return single(0x78);
        this.i += 2;
        return single(Number.parseInt(hex[0], 16));
      }
      case "u": {
        const hex = /^[0-9a-fA-F]{4}/.exec(this.src.slice(this.i));
        if (hex === null) return single(0x75);
        this.i += 4;
        return single(Number.parseInt(hex[0], 16));
      }
      case "c": {
        const letter = this.src[this.i];
        if (letter !== undefined && /[A-Za-z]/.test(letter)) {
          this.i++;
          return single(letter.charCodeAt(0) % 32);
        }
        if (inClass) throw new TriggerPatternRefused("'\\c' without a letter is not supported in a class");
        this.i--; // outside a class `\c` is a literal backslash followed by `c`
        return single(0x5c);
      }
      default:
        if (/[1-9]/.test(c)) {
          throw new TriggerPatternRefused(
            inClass ? "octal escapes are not supported" : "backreferences (\\1 … \\9) are not supported",
          );
        }
        return single(c.charCodeAt(0));
    }
  }

  private charClass(): CharSet {
    const negated = this.peek() === "^";
    if (negated) this.i++;
    const ranges: number[][] = [];
    for (;;) {
      const c = this.src[this.i];
      if (c === undefined) throw new TriggerPatternRefused("unterminated character class: a '[' has no ']'");
      if (c === "]") {
        this.i++;
        break;
      }
      const lo = this.classAtom();
      if (this.peek() === "-" && this.src[this.i + 1] !== "]" && this.src[this.i + 1] !== undefined) {
        this.i++;
        const hi = this.classAtom();
        const a = single(lo);
        const b = single(hi);
        if (a !== undefined && b !== undefined) ranges.push([a, b]);
        else ranges.push(...flatten(lo), [0x2d, 0x2d], ...flatten(hi)); // `[\w-x]`: the '-' is a literal
        continue;
      }
      ranges.push(...flatten(lo));
    }
    return { ranges: normalize(ranges), negated };

    function single(set: CharSet): number | undefined {
      const r = set.ranges[0];
      return !set.negated && set.ranges.length === 1 && r !== undefined && r[0] === r[1] ? r[0] : undefined;
    }
    function flatten(set: CharSet): number[][] {
      return set.negated ? complement(normalize(set.ranges)) : set.ranges;
    }
  }

  private classAtom(): CharSet {
    const c = this.src[this.i++]!;
    if (c === "\\") {
      if (this.src[this.i] === undefined) throw new TriggerPatternRefused("'\\' at end of pattern");
      return this.escapeSet(true);
    }
    const code = c.charCodeAt(0);
    return { ranges: [[code, code]], negated: false };
  }
}

/** Sorted, merged copy of `ranges`. */
function normalize(ranges: number[][]): number[][] {
  const sorted = [...ranges].sort((a, b) => a[0]! - b[0]!);
  const out: number[][] = [];
  for (const [lo, hi] of sorted as [number, number][]) {
    const last = out[out.length - 1];
    if (last !== undefined && lo <= last[1]! + 1) last[1] = Math.max(last[1]!, hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** The tree of `pattern`; throws {@link TriggerPatternRefused} for what the automaton cannot run. */
export function parseTriggerPattern(pattern: string): TriggerNode {
  return new Parser(pattern).parse();
}
