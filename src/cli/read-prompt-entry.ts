import fs from "node:fs/promises";
import path from "node:path";
import { skillFlags } from "../catalog/skill-flags.js";
import { parseSkillMd } from "../spec/parse-skill-md.js";
import type { DiagnosticCode } from "../spec/types.js";
import type { CatalogEntry } from "./render-catalog.js";

/** Findings the reference `to-prompt` ignores (it reads properties without validating them). */
const IGNORED: ReadonlySet<DiagnosticCode> = new Set<DiagnosticCode>([
  "unknown-field",
  "name-too-long",
  "name-not-lowercase",
  "name-hyphen-edge",
  "name-consecutive-hyphens",
  "name-invalid-characters",
  "name-directory-mismatch",
  "description-too-long",
  "compatibility-invalid-type",
  "compatibility-too-long",
]);

/** A catalog entry read from one PATH, or why it could not be read. */
export type PromptEntryResult = { ok: true; entry: CatalogEntry } | { ok: false; message: string };

/**
 * Reads one `skillrt prompt PATH` like skills-ref `read_properties`: PATH is a skill directory or its
 * SKILL.md/skill.md; the file is parsed with the reference's YAML rules, but names and other fields are
 * not validated. The location is the absolute real path of the skill file (symlinks resolved). Unreadable
 * files, bad frontmatter and a missing/blank name or description are failures.
 */
export async function readPromptEntry(given: string, cwd: string): Promise<PromptEntryResult> {
  let dir = path.resolve(cwd, given);
  try {
    const stat = await fs.stat(dir);
    if (stat.isFile() && path.basename(dir).toLowerCase() === "skill.md") dir = path.dirname(dir);
    else if (!stat.isDirectory()) return { ok: false, message: `Not a directory: ${given}` };
  } catch {
    return { ok: false, message: `Path does not exist: ${given}` };
  }
  const real = await fs.realpath(dir);
  let location: string | undefined;
  for (const candidate of ["SKILL.md", "skill.md"]) {
    const file = path.join(real, candidate);
    const isFile = await fs.stat(file).then(
      (s) => s.isFile(),
      () => false,
    );
    if (isFile) {
      location = file;
      break;
    }
  }
  if (location === undefined) return { ok: false, message: `SKILL.md not found in ${given}` };
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(location);
  } catch (error) {
    return { ok: false, message: `Cannot read ${location}: ${(error as Error).message}` };
  }
  const parsed = parseSkillMd(bytes, { mode: "strict", dirName: path.basename(dir), path: location });
  const fatal = parsed.diagnostics.find((d) => d.severity === "error" && !IGNORED.has(d.code));
  if (parsed.skill === undefined || fatal !== undefined) {
    const where = fatal?.line === undefined ? location : `${location}:${fatal.line}`;
    return { ok: false, message: `${where}: ${fatal?.message ?? "no usable name and description"}` };
  }
  return {
    ok: true,
    entry: {
      name: parsed.skill.name,
      description: parsed.skill.description,
      location,
      disableModelInvocation: skillFlags(parsed.skill.extras).disableModelInvocation,
    },
  };
}
