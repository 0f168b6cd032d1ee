import path from "node:path";
import { createCatalog } from "../catalog/create-catalog.js";
import { readPromptEntry } from "../catalog/read-properties.js";
import type { Catalog } from "../catalog/types.js";
import type { PromptEntry } from "../spec/to-prompt.js";
import type { CliIo } from "./command.js";
import { displayPath } from "./format-diagnostic.js";
import { resolveSkillPath } from "./resolve-skill-path.js";

/** The skills of `skillrt prompt PATH...`, or why one of them could not be read. */
export type PromptPaths =
  | {
      ok: true;
      /** One entry per PATH, in the order given (duplicates kept), read like skills-ref `read_properties`. */
      entries: PromptEntry[];
      /** A catalog of the same skills, read the way a session reads them (lenient, sorted by name). */
      catalog: Catalog;
    }
  | { ok: false; message: string };

/**
 * Reads each PATH (a skill directory or its SKILL.md, relative to `io.cwd`) like skills-ref `to-prompt`:
 * {@link readPromptEntry} (not validated; a missing file, a parse error or a missing name or description
 * fails), stopping at the first failure. The message names the PATH as given, or the skill file and line.
 */
export async function readPromptPaths(paths: readonly string[], io: CliIo): Promise<PromptPaths> {
  const entries: PromptEntry[] = [];
  for (const given of paths) {
    const target = resolveSkillPath(path.resolve(io.cwd, given), given);
    if (target.kind === "problem") return { ok: false, message: target.message };
    if (target.skillFile === undefined) return { ok: false, message: `SKILL.md not found in ${given}` };
    const read = readPromptEntry(target.dir);
    if (!read.ok) {
      const { path: file, line, message } = read.diagnostic;
      const where = displayPath(file, io.cwd) + (line === undefined ? "" : `:${line}`);
      return { ok: false, message: `${where}: ${message}` };
    }
    entries.push(read.entry);
  }
  // Each skill directory is its own root, scanned no deeper: the catalog holds exactly these skills.
  const roots = entries.map((entry) => ({ path: path.dirname(entry.location), scope: "root" as const }));
  const catalog = await createCatalog({ roots, maxDepth: 0, cwd: io.cwd, env: io.env });
  return { ok: true, entries, catalog };
}
