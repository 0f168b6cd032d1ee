// Skill trees for the agent benches: `n` generated skills (bench/gen-skills.mjs, SKILL.md only, one-line
// bodies: what discovery and the catalog read; the 50k tree stays ~25 MB) under bench/.out/agent-<n>, made
// once and reused while the count matches.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateSkills } from "./gen-skills.mjs";

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), ".out");

/** The root of an `n`-skill tree (an empty folder for 0), generated on first use. */
export function skillTree(n) {
  const dir = path.join(out, `agent-${n}`);
  if (!(fs.existsSync(dir) && fs.readdirSync(dir).length === n)) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    if (n > 0) generateSkills(dir, n, { files: false });
  }
  return dir;
}

/** Median of numbers. */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Rounded to `digits` decimals. */
export const round = (x, digits = 2) => Number(x.toFixed(digits));
