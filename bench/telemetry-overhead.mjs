#!/usr/bin/env node
// What spans cost an agent step, in one process and interleaved turn by turn so a busy machine moves every
// variant alike: the agent with no tracer registered (the OpenTelemetry API's no-op, what every user without
// a provider runs), the same agent with a tracer provider recording every span into an in-memory exporter,
// and — with BASE_DIST=/path/to/dist of another build (e.g. the commit before spans, `npx tsc -p
// tsconfig.build.json` in an export of it) — that build's agent, so "no tracer" is compared with the code
// before spans existed. Each turn is STEPS model steps (STEPS-1 calls of a host tool, then text) over N
// skills; ROUNDS conversations of WARMUP + TURNS turns, the warm-up turns not kept. Prints one JSON line:
// medians of ms per step and the ratios.
// Usage: npm run build && npx node bench/telemetry-overhead.mjs [N]   (default 1000; TURNS=30 STEPS=3
// WARMUP=10 ROUNDS=5 BASE_DIST=…)
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { createCatalog } from "../dist/catalog/create-catalog.js";
import { createSkillAgent } from "../dist/engine/create-skill-agent.js";
import { instantModel, noop } from "./mock-model.mjs";
import { median, round, skillTree } from "./skill-trees.mjs";

const n = Number(process.argv[2]) || 1000;
const TURNS = Number(process.env.TURNS) || 30;
const STEPS = Number(process.env.STEPS) || 3;
const WARMUP = Number(process.env.WARMUP) || 10;
const ROUNDS = Number(process.env.ROUNDS) || 5;
const BASE_DIST = process.env.BASE_DIST;

const stepModel = () =>
  instantModel((i) => (i % STEPS < STEPS - 1 ? { toolName: "noop", input: { n: i } } : undefined));
const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const catalog = await createCatalog({ roots: [skillTree(n)] });
const options = () => ({ model: stepModel(), catalog, executor: false, tools: { noop } });

const variants = [
  { name: "untraced", agent: await createSkillAgent(options()), ms: [] },
  { name: "traced", agent: await createSkillAgent({ ...options(), tracerProvider }), ms: [] },
];
if (BASE_DIST !== undefined) {
  const base = await import(pathToFileURL(path.resolve(BASE_DIST, "engine/create-skill-agent.js")).href);
  const baseCatalog = await import(pathToFileURL(path.resolve(BASE_DIST, "catalog/create-catalog.js")).href);
  const agent = await base.createSkillAgent({
    ...options(),
    catalog: await baseCatalog.createCatalog({ roots: [skillTree(n)] }),
  });
  variants.push({ name: "base", agent, ms: [] });
}

let spansPerTurn = 0;
for (let r = 0; r < ROUNDS; r++) {
  for (const v of variants) await v.agent.reset();
  for (let t = 0; t < WARMUP + TURNS; t++) {
    for (const v of variants) {
      const start = performance.now();
      await v.agent.send("go");
      await new Promise((resolve) => setImmediate(resolve));
      const ms = performance.now() - start;
      if (v.name === "traced") {
        spansPerTurn = spans.getFinishedSpans().length;
        spans.reset();
      }
      if (t >= WARMUP) v.ms.push(ms / STEPS);
    }
  }
}
for (const v of variants) await v.agent.close();
const step = Object.fromEntries(variants.map((v) => [v.name, median(v.ms)]));
process.stdout.write(
  `${JSON.stringify({
    n,
    steps_per_turn: STEPS,
    samples: TURNS * ROUNDS,
    untraced_step_ms: round(step.untraced, 3),
    traced_step_ms: round(step.traced, 3),
    traced_vs_untraced: round(step.traced / step.untraced),
    spans_per_turn: spansPerTurn,
    ...(step.base === undefined
      ? {}
      : { base_step_ms: round(step.base, 3), untraced_vs_base: round(step.untraced / step.base) }),
    load: round(os.loadavg()[0]),
  })}\n`,
);
