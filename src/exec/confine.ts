/** Path confinement: resolve with realpath and require the result to stay under one of the given roots. */
import { realpath } from "node:fs/promises";
import path from "node:path";

/** True when `child` is `root` or lies below it (both absolute, normalised). */
export function isInside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * Realpath of `target` when it exists and lies under one of `roots` (themselves real paths); otherwise
 * `undefined` (missing, or a symlink or `..` that leaves every root).
 */
export async function confinedRealpath(target: string, roots: string[]): Promise<string | undefined> {
  let real: string;
  try {
    real = await realpath(target);
  } catch {
    return undefined;
  }
  return roots.some((root) => isInside(root, real)) ? real : undefined;
}

/**
 * Rewrites `$WORKSPACE_DIR/…`, `${OUTPUT_DIR}/…` and friends to workspace-relative paths; `\` becomes `/`.
 * `$RUN_DIR` maps to `runRel` (the current run's directory), default `runs`.
 */
export function normalizeWorkspacePath(input: string, runRel = "runs"): string {
  const map: Record<string, string> = {
    WORKSPACE_DIR: "",
    SKILLS_DIR: "skills",
    WORK_DIR: "work",
    OUTPUT_DIR: "out",
    RUN_DIR: runRel,
  };
  const text = input.replace(/\\/g, "/");
  const match = /^\$(?:\{(\w+)\}|(\w+))(\/.*)?$/.exec(text);
  if (match === null) return text;
  const key = match[1] ?? match[2] ?? "";
  const base = map[key];
  if (base === undefined) return text;
  const rest = (match[3] ?? "").replace(/^\/+/, "");
  return [base, rest].filter((p) => p !== "").join("/") || ".";
}
