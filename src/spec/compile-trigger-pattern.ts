/**
 * A `triggerPattern` compiled for a matcher whose work is bounded by the input, not by a clock. The
 * pattern is a JavaScript regular expression (flag `i`, no `u`) restricted to what a finite automaton
 * can run: literals, `.`, classes, `\d \w \s` and their negations, `^ $ \b \B`, groups, `|`, and the
 * quantifiers `* + ? {n,m}` (greedy or lazy: for a yes/no answer they mean the same). It is compiled to
 * a Thompson NFA of at most {@link MAX_TRIGGER_STATES} states and simulated one character at a time, so
 * one match does at most (characters + 1) × states steps whatever the machine's load: a pattern such as
 * `(a+)+$` is as fast as `a+$`. Backreferences and lookaround need backtracking and are refused, with a
 * reason a `validate` diagnostic can print.
 */

/** Most NFA states a pattern may compile to (a counted repeat copies its body). */
export const MAX_TRIGGER_STATES = 500;

/** A pattern ready to match, or the reason it cannot be. */
export type CompiledTriggerPattern =
  | { ok: true; matches(text: string): boolean }
  | { ok: false; reason: string };

// ---- parse: pattern text → tree ------------------------------------------------------------------

/** A set of UTF-16 code units: sorted inclusive ranges, possibly negated. */
interface CharSet {
  ranges: number[][];
  negated: boolean;
}

type Node =
  | { t: "set"; set: CharSet }
  | { t: "assert"; kind: "^" | "$" | "b" | "B" }
  | { t: "seq"; items: Node[] }
  | { t: "alt"; options: Node[] }
  | { t: "repeat"; node: Node; min: number; max: number };

class Refused extends Error {}

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

  parse(): Node {
    const node = this.alternation();
    if (this.i < this.src.length) throw new Refused(`unmatched ')' at character ${this.i + 1}`);
    return node;
  }

  private peek(): string | undefined {
    return this.src[this.i];
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.peek() === "|") {
      this.i++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { t: "alt", options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    for (let c = this.peek(); c !== undefined && c !== "|" && c !== ")"; c = this.peek()) {
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    return { t: "seq", items };
  }

  private quantified(atom: Node): Node {
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
        if (max < min) throw new Refused(`numbers out of order in {${m[1]},${m[3]}}`);
        this.i += m[0].length - 1;
      } else return node;
      this.i++;
      if (this.peek() === "?") this.i++; // lazy: the same yes/no answer
      node = { t: "repeat", node, min, max };
    }
  }

  private atom(): Node {
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
        throw new Refused(`nothing to repeat at character ${this.i}`);
      default: {
        const code = c.charCodeAt(0);
        return { t: "set", set: { ranges: [[code, code]], negated: false } };
      }
    }
  }

  private group(): Node {
    if (this.src.startsWith("?:", this.i)) this.i += 2;
    else if (this.src.startsWith("?<", this.i) && /^\?<[A-Za-z_$][\w$]*>/.test(this.src.slice(this.i))) {
      this.i = this.src.indexOf(">", this.i) + 1; // a named group captures, which a yes/no match ignores
    } else if (/^\?(=|!|<=|<!)/.test(this.src.slice(this.i))) {
      throw new Refused("lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported");
    } else if (this.peek() === "?") throw new Refused(`invalid group at character ${this.i}`);
    const inner = this.alternation();
    if (this.peek() !== ")") throw new Refused("unterminated group: a '(' has no ')'");
    this.i++;
    return inner;
  }

  /** An escape outside a class. */
  private escape(): Node {
    const c = this.src[this.i];
    if (c === undefined) throw new Refused("'\\' at end of pattern");
    if (c === "b" || c === "B") {
      this.i++;
      return { t: "assert", kind: c };
    }
    if (c === "k" && this.src[this.i + 1] === "<") {
      throw new Refused("backreferences (\\k<name>) are not supported");
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
        if (/[0-9]/.test(this.src[this.i] ?? "")) throw new Refused("octal escapes are not supported");
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
        if (inClass) throw new Refused("'\\c' without a letter is not supported in a class");
        this.i--; // outside a class `\c` is a literal backslash followed by `c`
        return single(0x5c);
      }
      default:
        if (/[1-9]/.test(c)) {
          throw new Refused(
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
      if (c === undefined) throw new Refused("unterminated character class: a '[' has no ']'");
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
      if (this.src[this.i] === undefined) throw new Refused("'\\' at end of pattern");
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

// ---- case folding (the `i` flag without `u`: ECMAScript's Canonicalize) ----------------------------

function canonicalize(code: number): number {
  const upper = String.fromCharCode(code).toUpperCase();
  if (upper.length !== 1) return code;
  const u = upper.charCodeAt(0);
  return code >= 128 && u < 128 ? code : u;
}

/** A test for one code unit: an ASCII table plus the ranges, with case folding applied. */
function compileSet(set: CharSet): (code: number) => boolean {
  const ranges = set.ranges;
  const inRanges = (code: number): boolean => {
    for (const r of ranges) if (code >= r[0]! && code <= r[1]!) return true;
    return false;
  };
  // Under `i` a character matches when any character of the set has its canonical form.
  const canon = new Set<number>();
  let small = 0;
  for (const r of ranges) small += r[1]! - r[0]! + 1;
  if (small <= 4096) for (const r of ranges) for (let c = r[0]!; c <= r[1]!; c++) canon.add(canonicalize(c));
  const folded = (code: number): boolean => {
    if (inRanges(code)) return true;
    if (small <= 4096) return canon.has(canonicalize(code));
    const ch = String.fromCharCode(code);
    const lower = ch.toLowerCase();
    const upper = ch.toUpperCase();
    return (
      (lower.length === 1 &&
        canonicalize(lower.charCodeAt(0)) === canonicalize(code) &&
        inRanges(lower.charCodeAt(0))) ||
      (upper.length === 1 &&
        canonicalize(upper.charCodeAt(0)) === canonicalize(code) &&
        inRanges(upper.charCodeAt(0)))
    );
  };
  const ascii = new Uint8Array(128);
  for (let c = 0; c < 128; c++) ascii[c] = folded(c) !== set.negated ? 1 : 0;
  return (code) => (code < 128 ? ascii[code] === 1 : folded(code) !== set.negated);
}

// ---- compile: tree → NFA ----------------------------------------------------------------------------

const Op = { Char: 0, Split: 1, Assert: 2, Match: 3 } as const;
type Op = (typeof Op)[keyof typeof Op];

interface State {
  op: Op;
  test?: (code: number) => boolean;
  kind?: "^" | "$" | "b" | "B";
  out: number;
  out2: number;
}

class Builder {
  readonly states: State[] = [];

  add(state: State): number {
    if (this.states.length >= MAX_TRIGGER_STATES) {
      throw new Refused(
        `it needs more than ${MAX_TRIGGER_STATES} automaton states (shorten counted repeats)`,
      );
    }
    this.states.push(state);
    return this.states.length - 1;
  }

  /** Compiles `node` so that it continues to state `next`; returns its entry state. */
  build(node: Node, next: number): number {
    switch (node.t) {
      case "set":
        return this.add({ op: Op.Char, test: compileSet(node.set), out: next, out2: -1 });
      case "assert":
        return this.add({ op: Op.Assert, kind: node.kind, out: next, out2: -1 });
      case "seq": {
        let entry = next;
        for (let k = node.items.length - 1; k >= 0; k--) entry = this.build(node.items[k]!, entry);
        return entry;
      }
      case "alt": {
        let entry = this.build(node.options[node.options.length - 1]!, next);
        for (let k = node.options.length - 2; k >= 0; k--) {
          const option = this.build(node.options[k]!, next);
          entry = this.add({ op: Op.Split, out: option, out2: entry });
        }
        return entry;
      }
      case "repeat": {
        let entry = next;
        if (node.max === Number.POSITIVE_INFINITY) {
          // A loop: split → body → back to the split, or on to `next`.
          const split = this.add({ op: Op.Split, out: -1, out2: next });
          this.states[split]!.out = this.build(node.node, split);
          entry = split;
        } else {
          for (let k = node.min; k < node.max; k++) {
            const body = this.build(node.node, entry);
            entry = this.add({ op: Op.Split, out: body, out2: next });
          }
        }
        for (let k = 0; k < node.min; k++) entry = this.build(node.node, entry);
        return entry;
      }
    }
  }
}

const isWord = (code: number): boolean =>
  (code >= 0x30 && code <= 0x39) ||
  (code >= 0x41 && code <= 0x5a) ||
  code === 0x5f ||
  (code >= 0x61 && code <= 0x7a);

/** Compiles `pattern` (as `new RegExp(pattern, "i")` reads it) for the bounded matcher. */
export function compileTriggerPattern(pattern: string): CompiledTriggerPattern {
  try {
    new RegExp(pattern, "i");
  } catch (error) {
    return { ok: false, reason: `it is not a valid regular expression (${(error as Error).message})` };
  }
  let states: State[];
  let start: number;
  try {
    const tree = new Parser(pattern).parse();
    const builder = new Builder();
    const match = builder.add({ op: Op.Match, out: -1, out2: -1 });
    start = builder.build(tree, match);
    states = builder.states;
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.message };
    throw error;
  }
  const n = states.length;
  // Two state lists and a generation mark per state: a state is added once per position.
  let current = new Int32Array(n);
  let following = new Int32Array(n);
  const mark = new Int32Array(n);
  let generation = 0;
  const stack = new Int32Array(n);

  return {
    ok: true,
    matches(text: string): boolean {
      let count = 0;
      let nextCount = 0;
      // Adds `from` and what it reaches without reading a character at `pos` to `list`; true on a match.
      const close = (from: number, pos: number, list: Int32Array, size: number): number => {
        let top = 0;
        if (mark[from] === generation) return size;
        mark[from] = generation;
        stack[top++] = from;
        while (top > 0) {
          const s = stack[--top]!;
          const state = states[s]!;
          switch (state.op) {
            case Op.Match:
              return -1;
            case Op.Char:
              list[size++] = s;
              break;
            case Op.Split:
              // Push out2 first so out is explored first (order does not change a yes/no answer).
              if (mark[state.out2] !== generation) {
                mark[state.out2] = generation;
                stack[top++] = state.out2;
              }
              if (mark[state.out] !== generation) {
                mark[state.out] = generation;
                stack[top++] = state.out;
              }
              break;
            case Op.Assert: {
              const before = pos > 0 ? text.charCodeAt(pos - 1) : -1;
              const after = pos < text.length ? text.charCodeAt(pos) : -1;
              let pass: boolean;
              if (state.kind === "^") pass = pos === 0;
              else if (state.kind === "$") pass = pos === text.length;
              else {
                const boundary = (before >= 0 && isWord(before)) !== (after >= 0 && isWord(after));
                pass = state.kind === "b" ? boundary : !boundary;
              }
              if (pass && mark[state.out] !== generation) {
                mark[state.out] = generation;
                stack[top++] = state.out;
              }
              break;
            }
          }
        }
        return size;
      };
      generation++;
      if (generation > 0x3fffffff) {
        mark.fill(0);
        generation = 1;
      }
      count = close(start, 0, current, 0);
      if (count < 0) return true;
      for (let pos = 0; pos < text.length; pos++) {
        const code = text.charCodeAt(pos);
        generation++;
        nextCount = 0;
        for (let k = 0; k < count; k++) {
          const state = states[current[k]!]!;
          if (state.test!(code)) {
            nextCount = close(state.out, pos + 1, following, nextCount);
            if (nextCount < 0) return true;
          }
        }
        // The search is unanchored: a match may also start at the next position.
        nextCount = close(start, pos + 1, following, nextCount);
        if (nextCount < 0) return true;
        [current, following] = [following, current];
        count = nextCount;
      }
      return false;
    },
  };
}
