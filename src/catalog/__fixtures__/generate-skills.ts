import fs from "node:fs/promises";
import path from "node:path";

const PREFIXES = [
  "pdf-tools",
  "docx-editor",
  "xlsx-analyst",
  "git-helper",
  "code-review",
  "sql-query",
  "api-tester",
];
const VERBS = [
  "Extracts",
  "Generates",
  "Analyzes",
  "Converts",
  "Validates",
  "Summarizes",
  "Refactors",
  "Merges",
];
const OBJECTS = [
  "PDF forms",
  "spreadsheets",
  "pull requests",
  "SQL schemas",
  "server logs",
  "CSV exports",
  "unit tests",
];
const WORDS = (
  "file table page form field value text content layout output input request response error config project " +
  "branch commit diff patch review test suite build deploy release schema column row chart metric report user " +
  "team workflow step script template asset parse validate convert render check verify inspect quickly safely"
).split(" ");

/** Deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Writes `n` skills `<prefix>-<i>/SKILL.md` under `dir` with word-salad descriptions drawn from a shared
 * vocabulary, in plain, double-quoted and folded (`>-`) YAML styles. Same `n` and `seed`, same tree.
 */
export async function generateSkills(dir: string, n: number, seed = 7): Promise<void> {
  const rnd = random(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(rnd() * items.length)]!;
  for (let i = 0; i < n; i++) {
    const prefix = pick(PREFIXES);
    const name = `${prefix}-${i}`;
    const words = Array.from({ length: 8 + Math.floor(rnd() * 20) }, () => pick(WORDS)).join(" ");
    const description = `${pick(VERBS)} ${pick(OBJECTS)} for ${prefix.replace("-", " ")} tasks. Use when working with ${pick(OBJECTS)}. ${words}.`;
    const style = rnd();
    const cut = description.lastIndexOf(" ", 60);
    const yaml =
      style < 0.6
        ? `description: ${description}`
        : style < 0.85
          ? `description: ${JSON.stringify(description)}`
          : `description: >-\n  ${description.slice(0, cut)}\n  ${description.slice(cut + 1)}`;
    await fs.mkdir(path.join(dir, name), { recursive: true });
    await fs.writeFile(
      path.join(dir, name, "SKILL.md"),
      `---\nname: ${name}\n${yaml}\n---\n\n# ${name}\n\nBody.\n`,
    );
  }
}
