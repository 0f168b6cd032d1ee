/**
 * Generated memory skills for catalog tests and `bench/catalog.mjs`: `skill-00000`, `skill-00001`, … with
 * two-sentence descriptions built from a small vocabulary, each naming a unique `project zeta<i>`.
 */
import type { MemorySkill } from "../../catalog/types.js";

const WORDS = [
  "parse",
  "invoice",
  "chart",
  "render",
  "audit",
  "deploy",
  "translate",
  "summarise",
  "index",
  "backup",
  "schedule",
  "encrypt",
];

/** `n` memory skills named `skill-<i, five digits>`. Deterministic: same `n`, same skills. */
export function syntheticSkills(n: number): MemorySkill[] {
  return Array.from({ length: n }, (_, i) => {
    const a = WORDS[i % WORDS.length] ?? "x";
    const b = WORDS[(i * 7 + 3) % WORDS.length] ?? "y";
    return {
      name: `skill-${String(i).padStart(5, "0")}`,
      description: `Helps ${a} and ${b} records for project zeta${i}. Use when the user asks to ${a} data, including edge cases, retries and reporting of the results to the team.`,
      body: `# Skill ${i}\n\nDo it.`,
    };
  });
}
