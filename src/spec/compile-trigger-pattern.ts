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

import {
  type CharSet,
  parseTriggerPattern,
  type TriggerNode,
  TriggerPatternRefused,
} from "./parse-trigger-pattern.js";

/** Most NFA states a pattern may compile to (a counted repeat copies its body). */
export const MAX_TRIGGER_STATES = 500;

/** A pattern ready to match, or the reason it cannot be. */
export type CompiledTriggerPattern =
  | { ok: true; matches(text: string): boolean }
  | { ok: false; reason: string };

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
      throw new TriggerPatternRefused(
        `it needs more than ${MAX_TRIGGER_STATES} automaton states (shorten counted repeats)`,
      );
    }
    this.states.push(state);
    return this.states.length - 1;
  }

  /** Compiles `node` so that it continues to state `next`; returns its entry state. */
  build(node: TriggerNode, next: number): number {
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
    const tree = parseTriggerPattern(pattern);
    const builder = new Builder();
    const match = builder.add({ op: Op.Match, out: -1, out2: -1 });
    start = builder.build(tree, match);
    states = builder.states;
  } catch (error) {
    if (error instanceof TriggerPatternRefused) return { ok: false, reason: error.message };
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
