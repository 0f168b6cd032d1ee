import path from "node:path";
import type { Diagnostic } from "../spec/types.js";
import type { Style } from "./create-style.js";

/**
 * `path` for people: relative to `cwd` when it lies below it (`skills/x/SKILL.md`), else as given.
 */
export function displayPath(target: string, cwd: string): string {
  if (!path.isAbsolute(target)) return target;
  const relative = path.relative(cwd, target);
  if (relative === "") return ".";
  return relative.startsWith("..") || path.isAbsolute(relative) ? target : relative;
}

/**
 * One linter-style line: `path:line:column  error  message  code`, severity coloured when `style` is on.
 */
export function formatDiagnostic(diagnostic: Diagnostic, cwd: string, style: Style): string {
  let where = displayPath(diagnostic.path, cwd);
  if (diagnostic.line !== undefined) where += `:${diagnostic.line}`;
  if (diagnostic.line !== undefined && diagnostic.column !== undefined) where += `:${diagnostic.column}`;
  const severity = diagnostic.severity === "error" ? style.red("error") : style.yellow("warning");
  return `${where}  ${severity}  ${diagnostic.message}  ${style.dim(diagnostic.code)}`;
}

/** Counts of errors and warnings. */
export function countSeverities(diagnostics: Iterable<Diagnostic>): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const d of diagnostics) {
    if (d.severity === "error") errors++;
    else warnings++;
  }
  return { errors, warnings };
}

/** `1 error`, `2 errors`. */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}
