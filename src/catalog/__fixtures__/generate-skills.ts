import { generateSkills as generate } from "../../../bench/gen-skills.mjs";

/**
 * Writes `n` skills `<prefix>-<i>/SKILL.md` under `dir` with the benchmarks' generator
 * (`bench/gen-skills.mjs`: descriptions in plain, double-quoted and folded YAML styles, optional license,
 * metadata, allowed-tools and compatibility), each SKILL.md with a one-line body and no other files.
 * Same `n` and `seed`, same tree.
 */
export async function generateSkills(dir: string, n: number, seed = 42): Promise<void> {
  generate(dir, n, { seed, files: false });
}
