/** Types of bench/gen-skills.mjs, for the tests that import its generator. */
export interface GenerateOptions {
  /** Picks the tree (default 42). */
  seed?: number;
  /** false: only each SKILL.md, with a one-line body (default true: bodies of 2–20 KiB, scripts, references, assets). */
  files?: boolean;
}

/** Writes `n` deterministic synthetic skills `<prefix>-<i>/SKILL.md` under `outDir`. */
export function generateSkills(
  outDir: string,
  n: number,
  options?: GenerateOptions,
): { files: number; bytes: number; assets: number };
