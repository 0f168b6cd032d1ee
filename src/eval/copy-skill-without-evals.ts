/**
 * The copy of a skill folder an outcome eval's agent sees: everything but its top-level `evals/` folder,
 * which holds the cases, their expected outputs and the check scripts (an agent that could read them
 * would be graded on its reading, not on what the skill taught it).
 */
import { cp } from "node:fs/promises";
import path from "node:path";

/** Copies `skillDir` to `<into>/<folder name>` without `evals/`; returns the copy's path. */
export async function copySkillWithoutEvals(skillDir: string, into: string): Promise<string> {
  const source = path.resolve(skillDir);
  const target = path.join(into, path.basename(source));
  const evals = path.join(source, "evals");
  await cp(source, target, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (from) => from !== evals && !from.startsWith(`${evals}${path.sep}`),
  });
  return target;
}
