// Token counting of text hostile to BPE (one long unbroken word) against a floor measured in the same run:
// counting the same number of characters of ordinary prose. Run: npx node bench/token-count.mjs
// Prints one JSON object: milliseconds per count, each hostile case's ratio to the floor, and the longest
// event-loop stall while countAsync counts the 400,000-letter word.
import { monitorEventLoopDelay } from "node:perf_hooks";
import "../scripts/register-ts-sources.mjs";

const { createTokenCounter } = await import("../src/context/token-counter.ts");

const LETTERS = 400_000;

/** Letters from a seeded generator: few pairs repeat, so no cache helps (the tokenizer's worst case). */
function randomWord(length, seed) {
  let x = seed;
  let word = "";
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) & 0x7fffffff;
    word += String.fromCharCode(97 + ((x >> 8) % 26));
  }
  return word;
}

/** Ordinary prose of `length` characters (varied sentences, so it is not all cache hits either). */
function prose(length, seed) {
  const words = randomWord(length, seed).match(/.{1,7}/g) ?? [];
  let text = "";
  for (let i = 0; text.length < length; i++) {
    text += words[i % words.length] + (i % 12 === 11 ? ".\n\n" : " ");
  }
  return text.slice(0, length);
}

/**
 * Best of `runs` timings of one count with a fresh counter (no count cache) in ms. `make(run)` gives a
 * distinct text each run, so the tokenizer's merge cache of an earlier run does not help.
 */
function bestMs(make, runs = 3) {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const counter = createTokenCounter({ cacheSize: 0 });
    const input = make(i);
    const start = performance.now();
    counter.count(input);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

createTokenCounter({ cacheSize: 0 }).count("load the vocabulary first");
const floorMs = bestMs((i) => prose(LETTERS, 10 + i));
const randomWordMs = bestMs((i) => randomWord(LETTERS, 20 + i));
const sameLetterMs = bestMs((i) => String.fromCharCode(97 + i).repeat(LETTERS));
const spacesMs = bestMs((i) => `${" ".repeat(LETTERS - i)}x`);
const word150kMs = bestMs((i) => randomWord(150_000, 30 + i));
const asyncWord = randomWord(LETTERS, 40);

const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
const asyncStart = performance.now();
await createTokenCounter({ cacheSize: 0 }).countAsync(asyncWord);
const asyncMs = performance.now() - asyncStart;
histogram.disable();

const round = (n) => Math.round(n * 10) / 10;
const ratio = (n) => Math.round(n * 1000) / 1000;
process.stdout.write(
  `${JSON.stringify(
    {
      bench: "token-count",
      node: process.version,
      letters: LETTERS,
      floorProseMs: round(floorMs),
      randomWordMs: round(randomWordMs),
      randomWordRatioToFloor: ratio(randomWordMs / floorMs),
      sameLetterWordMs: round(sameLetterMs),
      sameLetterWordRatioToFloor: ratio(sameLetterMs / floorMs),
      spacesRunMs: round(spacesMs),
      spacesRunRatioToFloor: ratio(spacesMs / floorMs),
      randomWord150kMs: round(word150kMs),
      countAsyncRandomWordMs: round(asyncMs),
      countAsyncMaxEventLoopStallMs: round(histogram.max / 1e6),
    },
    null,
    2,
  )}\n`,
);
