// Measures token counting of a 10 KB markdown body. Run: npx node bench/token-counter.bench.mjs
// Prints one JSON object (µs per count).
import "../scripts/register-ts-sources.mjs";

const { approximateTokenCounter, createTokenCounter } = await import("../src/context/token-counter.ts");

function markdownBody(bytes) {
  const parts = [];
  let i = 0;
  while (parts.join("").length < bytes) {
    i++;
    parts.push(
      `## Step ${i}: process the input\n\nRun \`python scripts/extract.py --page ${i}\` and check the output in ` +
        `\`out/page-${i}.json\`. If a field is missing, read [the reference](references/fields.md#f${i}).\n\n` +
        `- keep tables intact\n- use UTF-8 (naïve café, 日本語)\n\n\`\`\`bash\nls -la out/ | grep page-${i}\n\`\`\`\n\n`,
    );
  }
  return parts.join("").slice(0, bytes);
}

function perCall(fn, iterations) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn(i);
  return Number(process.hrtime.bigint() - start) / 1000 / iterations;
}

const body = markdownBody(10 * 1024);
const t0 = process.hrtime.bigint();
const counter = createTokenCounter();
const tokens = counter.count(body); // first call loads the o200k vocabulary
const firstCallMs = Number(process.hrtime.bigint() - t0) / 1e6;

const uncached = createTokenCounter({ cacheSize: 0 });
uncached.count(body);
// Distinct strings defeat the cache: the uncached cost of a real count.
const variants = Array.from({ length: 200 }, (_, i) => `${body}\n<!-- ${i} -->`);
const uncachedUs = perCall((i) => uncached.count(variants[i % variants.length]), 200);
const cachedUs = perCall(() => counter.count(body), 10_000);
// A new string object with the same content (a re-rendered body) pays one hash + compare, not a count.
const copies = Array.from({ length: 1000 }, () => [...body].join(""));
const cachedCopyUs = perCall((i) => counter.count(copies[i]), 1000);
const approxUs = perCall(() => approximateTokenCounter.count(body), 100_000);
const cl100k = createTokenCounter({ encoding: "cl100k_base", cacheSize: 0 });
cl100k.count(body);
const cl100kUs = perCall((i) => cl100k.count(variants[i % variants.length]), 200);

process.stdout.write(
  `${JSON.stringify(
    {
      bench: "token-counter",
      node: process.version,
      bodyBytes: Buffer.byteLength(body),
      tokensO200k: tokens,
      firstCallIncludingVocabularyLoadMs: Math.round(firstCallMs),
      o200kUncachedUsPerCount: Math.round(uncachedUs),
      o200kCachedUsPerCount: Number(cachedUs.toFixed(2)),
      o200kCachedEqualCopyUsPerCount: Number(cachedCopyUs.toFixed(2)),
      cl100kUncachedUsPerCount: Math.round(cl100kUs),
      approximateUsPerCount: Number(approxUs.toFixed(3)),
    },
    null,
    2,
  )}\n`,
);
