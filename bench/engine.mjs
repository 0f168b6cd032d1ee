// Engine overhead per step (the model excluded): 1,000 memory skills, 5 loaded, a mock model that
// answers instantly. Prints { skills, loaded, steps, p50_ms, p95_ms } as JSON.
// Run after `npm run build`: npx node bench/engine.mjs [--skills N] [--loaded N] [--runs N] [--steps N]
import { performance } from "node:perf_hooks";
import { createCatalog } from "../dist/catalog/create-catalog.js";
import { createSkillSession } from "../dist/context/create-skill-session.js";
import { runAgent } from "../dist/engine/run-agent.js";
import { instantModel, noop } from "./mock-model.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const SKILLS = arg("skills", 1000);
const LOADED = arg("loaded", 5);
const RUNS = arg("runs", 30);
const STEPS = arg("steps", 10);

const words = ["pdf", "csv", "image", "deploy", "report", "audit", "translate", "invoice", "chart", "email"];
const memory = Array.from({ length: SKILLS }, (_, i) => ({
  name: `skill-${String(i).padStart(4, "0")}`,
  description: `Handles ${words[i % words.length]} tasks of kind ${i}: use when the user asks about ${words[(i * 7) % words.length]} work.`,
  body: `# Skill ${i}\n\n${"Follow these steps carefully. ".repeat(40)}\n`,
}));
const catalog = await createCatalog({ roots: [], memory });

let options;
try {
  const toolsModule = await import("../dist/tools/create-skill-tools.js");
  options = (session) => toolsModule.createSkillTools(session);
} catch {
  options = (session) => ({ tools: {}, systemPrompt: () => session.renderer.systemPrompt() });
}

const stepsModel = (steps) =>
  instantModel((n) => (n < steps - 1 ? { toolName: "noop", input: { n } } : undefined));

const samples = [];
for (let run = 0; run < RUNS + 3; run++) {
  const session = createSkillSession({ catalog, contextWindow: 200_000 });
  for (let i = 0; i < LOADED; i++) await session.load(memory[i * 17].name, { by: "user" });
  const skillTools = await options(session);
  const starts = [];
  let end = 0;
  await runAgent({
    model: stepsModel(STEPS),
    session,
    skillTools,
    tools: { noop },
    messages: [{ role: "user", content: "go" }],
    maxSteps: STEPS,
    onEvent: (e) => {
      if (e.type === "step-start") starts.push(performance.now());
      if (e.type === "step-end") end = performance.now();
    },
  });
  starts.push(end);
  if (run < 3) continue; // warm-up
  for (let i = 1; i < starts.length; i++) samples.push(starts[i] - starts[i - 1]);
}
samples.sort((a, b) => a - b);
const q = (p) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))];
console.log(
  JSON.stringify({
    skills: SKILLS,
    loaded: LOADED,
    steps: samples.length,
    p50_ms: Number(q(0.5).toFixed(3)),
    p95_ms: Number(q(0.95).toFixed(3)),
  }),
);
