#!/usr/bin/env node
// What one agent step costs the user at 1k / 10k / 50k skills, against its floor measured in the same
// run: a bare AI SDK `streamText` loop with the same mock model (answers instantly), the same host tool
// and the same growing history. The agent is `createSkillAgent` over a real filesystem catalog (generated
// SKILL.md trees, bench/skill-trees.mjs); no store, no executor. Each sample is one turn of STEPS model
// steps (STEPS-1 host tool calls, then text) in a running conversation, followed by one floor turn (its own
// conversation per size). Every size is opened first and the sizes take turns (1k, 10k, 50k, 1k, …), so
// a machine that gets busier or quieter during the run moves every size alike (SEQUENTIAL=1: one size
// after the other, the earlier order, in which the floor itself drifted 0.8–1.6 ms between sizes on a
// shared machine). ROUNDS conversations of WARMUP + TURNS turns each (a new one by `reset()`), their first
// WARMUP turns not kept; once before any size, FLOOR_WARMUP floor turns and as many agent turns over 100
// skills run, so JIT warm-up does not land in the first size. Then, per size: the first turn of a new
// conversation (`reset()` untimed) and a user load (`loadSkill`, the skill unloaded again untimed).
// Prints one JSON line per N: medians of ms per step (agent and floor), the agent/floor ratio, the same floor
// with its tool's schema converted once as the agent converts every tool's (floor_once) and the ratio to it,
// the ratio to the step at the first N, the catalog search a turn makes for its request timed on its own
// after each sample (request_search_ms: once per turn, so STEPS steps share it), the first turn and the
// load, and the load average.
// Beside the agent with no tracer registered (the OpenTelemetry API's no-op: what every user without a provider
// pays), the same agent with a tracer provider exporting to memory (every span recorded, as an operator's
// setup would) is sampled in the same interleaving: traced_step_ms and traced_vs_untraced.
// Usage: npm run build && npx node bench/step.mjs [N ...]   (default 1000 10000 50000; TURNS=20 STEPS=3
// WARMUP=5 ROUNDS=5 MESSAGE="go")
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { asSchema, stepCountIs, streamText } from "ai";
import { createCatalog } from "../dist/catalog/create-catalog.js";
import { createSkillAgent } from "../dist/engine/create-skill-agent.js";
import { instantModel, noop } from "./mock-model.mjs";
import { median, round, skillTree } from "./skill-trees.mjs";

const sizes = process.argv.slice(2).map(Number);
if (sizes.length === 0) sizes.push(1000, 10000, 50000);
const TURNS = Number(process.env.TURNS) || 20;
const STEPS = Number(process.env.STEPS) || 3;
const WARMUP = Number(process.env.WARMUP) || 5;
/** Conversations of WARMUP + TURNS turns per size, each sample kept: more samples, the same history shape. */
const ROUNDS = Number(process.env.ROUNDS) || 5;
/** Sizes one after the other (the order before interleaving); default: every size open, turns interleaved. */
const SEQUENTIAL = process.env.SEQUENTIAL === "1";
/**
 * The user's message of every turn. The default matches no skill, so the request-skills search the agent
 * makes each turn (its catalog does not fit the budget at any size here) finds no postings; a real request
 * ("convert these pdf files to text and deploy the report") scores postings in proportion to the catalog.
 */
const MESSAGE = process.env.MESSAGE ?? "go";
/** Floor turns run once before the first size, so the AI SDK's own warm-up is not in the first floor. */
const FLOOR_WARMUP = 30;

/** A model that calls `noop` until the last step of each turn, then answers; no delay. */
const stepModel = () =>
  instantModel((n) => (n % STEPS < STEPS - 1 ? { toolName: "noop", input: { n } } : undefined));

/**
 * `noop` with its zod schema wrapped once (`asSchema`), as the agent passes every tool (schemaOnce): the
 * bare floor converts the schema to JSON Schema in every step, which the agent does not (~0.12 ms a step).
 */
const noopOnce = { ...noop, inputSchema: asSchema(noop.inputSchema) };

async function floorTurn(model, messages, tool = noop) {
  messages.push({ role: "user", content: MESSAGE });
  const result = streamText({
    model,
    system: "You are a helpful assistant.",
    messages,
    tools: { noop: tool },
    stopWhen: stepCountIs(STEPS),
  });
  await result.consumeStream();
  messages.push(...(await result.response).messages);
}

const empty = fs.mkdtempSync(path.join(os.tmpdir(), "skillrt-step-bench-"));
let base;
{
  const model = stepModel();
  const messages = [];
  const onceModel = stepModel();
  const onceMessages = [];
  for (let t = 0; t < FLOOR_WARMUP; t++) {
    await floorTurn(model, messages);
    await floorTurn(onceModel, onceMessages, noopOnce);
  }
  // And the agent's code, over a small catalog, so the first size is not the one that pays the JIT.
  const agent = await createSkillAgent({
    model: stepModel(),
    catalog: await createCatalog({ roots: [skillTree(100)] }),
    executor: false,
    cwd: empty,
    env: { HOME: empty },
    tools: { noop },
  });
  for (let t = 0; t < FLOOR_WARMUP; t++) await agent.send(MESSAGE);
  await agent.close();
}
/** Spans of the traced agents, kept in memory and dropped after each turn (the bench measures making them). */
const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });

/** One size: its catalog, agent and floor conversation, and the samples taken. */
async function openSize(n) {
  const catalog = await createCatalog({ roots: [skillTree(n)] });
  const options = {
    model: stepModel(),
    catalog,
    executor: false,
    cwd: empty,
    env: { HOME: empty },
    tools: { noop },
  };
  const agent = await createSkillAgent(options);
  const traced = await createSkillAgent({ ...options, model: stepModel(), tracerProvider });
  return {
    n,
    catalog,
    names: catalog.list().map((r) => r.name),
    agent,
    traced,
    tracedMs: [],
    floorModel: stepModel(),
    floorMessages: [],
    onceModel: stepModel(),
    onceMessages: [],
    agentMs: [],
    floorMs: [],
    onceMs: [],
    searchMs: [],
  };
}

/**
 * Resolves once the work a turn left queued has run: a result's promises can resolve while the AI SDK still
 * replays the finished stream for a getter (`response`, `text`), and that work would otherwise be timed in
 * whichever turn comes next (the floor's after the agent's, and the other way round).
 */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** From the second round on: a new conversation for the agent (`reset()`) and for the floor. */
async function newConversation(size, round) {
  if (round === 0) return;
  await size.agent.reset();
  await size.traced.reset();
  size.floorMessages = [];
  size.onceMessages = [];
}

/** One agent turn, one floor turn and one schema-once floor turn of `size`; kept unless `t` is a warm-up turn. */
async function sampleTurn(size, t) {
  let start = performance.now();
  await size.agent.send(MESSAGE);
  await settled();
  const a = performance.now() - start;
  start = performance.now();
  await floorTurn(size.floorModel, size.floorMessages);
  await settled();
  const f = performance.now() - start;
  start = performance.now();
  await floorTurn(size.onceModel, size.onceMessages, noopOnce);
  await settled();
  const o = performance.now() - start;
  start = performance.now();
  await size.traced.send(MESSAGE);
  await settled();
  const traced = performance.now() - start;
  spans.reset();
  // The catalog search each agent turn makes for its request (as the session asks: 5 + 20 hits), alone.
  start = performance.now();
  await size.catalog.search(MESSAGE, 25);
  const s = performance.now() - start;
  if (t < WARMUP) return;
  size.searchMs.push(s);
  size.agentMs.push(a / STEPS);
  size.tracedMs.push(traced / STEPS);
  size.floorMs.push(f / STEPS);
  size.onceMs.push(o / STEPS);
}

/** The first turn of a new conversation and a user load, then the size's JSON line. */
async function finishSize(size) {
  const { agent, names, n } = size;
  const firstMs = [];
  const loadMs = [];
  for (let t = 0; t < 5; t++) {
    await agent.reset();
    let start = performance.now();
    await agent.send(MESSAGE);
    firstMs.push(performance.now() - start);
    const name = names[(t * 7919) % names.length];
    start = performance.now();
    const outcome = await agent.loadSkill(name);
    loadMs.push(performance.now() - start);
    if (!outcome.ok) throw new Error(`loadSkill ${name}: ${outcome.message}`);
    await agent.unloadSkill(name);
  }
  await agent.close();
  await size.traced.close();
  const step = median(size.agentMs);
  base ??= step;
  process.stdout.write(
    `${JSON.stringify({
      n,
      steps_per_turn: STEPS,
      turns: TURNS,
      rounds: ROUNDS,
      interleaved: !SEQUENTIAL,
      message: MESSAGE,
      agent_step_ms: round(step, 3),
      floor_step_ms: round(median(size.floorMs), 3),
      step_vs_floor: round(step / median(size.floorMs)),
      floor_once_step_ms: round(median(size.onceMs), 3),
      step_vs_floor_once: round(step / median(size.onceMs)),
      step_vs_first_n: round(step / base),
      traced_step_ms: round(median(size.tracedMs), 3),
      traced_vs_untraced: round(median(size.tracedMs) / step),
      request_search_ms: round(median(size.searchMs), 3),
      first_turn_ms: round(median(firstMs)),
      load_skill_ms: round(median(loadMs)),
      load: round(os.loadavg()[0]),
    })}\n`,
  );
}

if (SEQUENTIAL) {
  for (const n of sizes) {
    const size = await openSize(n);
    for (let r = 0; r < ROUNDS; r++) {
      await newConversation(size, r);
      for (let t = 0; t < WARMUP + TURNS; t++) await sampleTurn(size, t);
    }
    await finishSize(size);
  }
} else {
  const open = [];
  for (const n of sizes) open.push(await openSize(n));
  for (let r = 0; r < ROUNDS; r++) {
    for (const size of open) await newConversation(size, r);
    for (let t = 0; t < WARMUP + TURNS; t++) for (const size of open) await sampleTurn(size, t);
  }
  for (const size of open) await finishSize(size);
}
fs.rmSync(empty, { recursive: true, force: true });
