import os from "node:os";
import path from "node:path";
import type { SkillRoot, SkillScope } from "./types.js";

/** Where the default roots are looked up. Every field has a process default. */
export interface DefaultRootsOptions {
  /** Base of the project roots. Default `process.cwd()`. */
  cwd?: string;
  /** Base of the user roots. Default `os.homedir()`. */
  home?: string;
  /** Source of `SKILLS_DIR`. Default `process.env`. */
  env?: Record<string, string | undefined>;
}

/**
 * The default roots, highest precedence first:
 * project (`<cwd>/skills`, `<cwd>/.agents/skills`, `<cwd>/.claude/skills`), then
 * user (`<home>/.agents/skills`, `<home>/.claude/skills`), then extra (each entry of `SKILLS_DIR`,
 * separated by `path.delimiter`, `:` on POSIX). Paths are absolute; duplicates are dropped.
 * Whether they exist is not checked here: a missing project or user root is `optional` (silently empty);
 * a missing `SKILLS_DIR` entry is reported (`path-not-found`), since someone set it on purpose.
 */
export function defaultRoots(options: DefaultRootsOptions = {}): SkillRoot[] {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const home = path.resolve(options.home ?? os.homedir());
  const env = options.env ?? process.env;
  const roots: SkillRoot[] = [
    { path: path.join(cwd, "skills"), scope: "project", optional: true },
    { path: path.join(cwd, ".agents", "skills"), scope: "project", optional: true },
    { path: path.join(cwd, ".claude", "skills"), scope: "project", optional: true },
    { path: path.join(home, ".agents", "skills"), scope: "user", optional: true },
    { path: path.join(home, ".claude", "skills"), scope: "user", optional: true },
  ];
  for (const entry of (env["SKILLS_DIR"] ?? "").split(path.delimiter)) {
    if (entry.trim() !== "") roots.push({ path: path.resolve(cwd, entry.trim()), scope: "extra" });
  }
  return dedupeRoots(roots);
}

/**
 * Normalises explicit roots: strings become scope `root`; relative paths resolve against `cwd`
 * (default `process.cwd()`); the order given is kept; duplicates are dropped.
 */
export function normalizeRoots(
  roots: readonly (SkillRoot | string)[],
  cwd: string = process.cwd(),
): SkillRoot[] {
  return dedupeRoots(
    roots.map((root) =>
      typeof root === "string"
        ? { path: path.resolve(cwd, root), scope: "root" as const }
        : { ...root, path: path.resolve(cwd, root.path) },
    ),
  );
}

// MCP-served skills never compete on a name: a colliding one is shown qualified (`server:name`).
const scopeRanks: Record<SkillScope, number> = { project: 0, user: 1, root: 2, extra: 3, memory: 4, mcp: 5 };

/**
 * Precedence rank of a scope on a name collision (lower wins): project, user, root, extra, memory.
 * Within one scope, the earlier root wins, then the first skill in sorted path order.
 */
export function scopeRank(scope: SkillScope): number {
  return scopeRanks[scope];
}

function dedupeRoots(roots: SkillRoot[]): SkillRoot[] {
  const seen = new Set<string>();
  return roots.filter((root) => {
    if (seen.has(root.path)) return false;
    seen.add(root.path);
    return true;
  });
}
