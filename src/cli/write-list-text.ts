import { describeMissingRequirements, type SkillRequirements } from "../catalog/skill-requirements.js";
import type { SkillRecord } from "../catalog/types.js";
import type { Diagnostic } from "../spec/types.js";
import type { CliIo } from "./command.js";
import { createStyle } from "./create-style.js";
import { countSeverities, formatDiagnostic, plural } from "./format-diagnostic.js";
import { terminalWidth, truncateText } from "./terminal-width.js";
import { writeOutput } from "./write-output.js";

/** Scan problems shown by `skillrt list`; the rest are counted ("… and N more"). */
const SHOWN_DIAGNOSTICS = 20;

/**
 * Human output of `skillrt list`: one aligned `name  description` line per record on stdout
 * (descriptions on one line, cut to the terminal width when known), then on stderr a note when there
 * are no skills, up to 20 scan problems with a count, and how many listed skills loaded with problems
 * (their own errors and warnings, which `skillrt validate` details). A skill of a remote root (`origins`,
 * keyed by the root's folder) gets a `from <URL>` line under its own. Loaded only without `--json`, so the JSON path
 * does not import the styling and formatting helpers. A skill whose declared requirements are unmet ends
 * its line with `[unmet: env FOO_TOKEN, bin foo]` (names only).
 */
export async function writeListText(
  records: readonly SkillRecord[],
  diagnostics: readonly Diagnostic[],
  io: CliIo,
  origins?: ReadonlyMap<string, { source: string }>,
  requirements: ReadonlyMap<string, SkillRequirements> = new Map(),
): Promise<void> {
  await writeOutput(io.stdout, renderTable(records, terminalWidth(io.stdout, io.env), origins, requirements));
  writeDiagnosticsSummary(diagnostics, records.length, io);
  writeSkillProblems(records, io);
}

/** `2 skills loaded with problems (1 error, 3 warnings); run 'skillrt validate' for details.` on stderr. */
function writeSkillProblems(records: readonly SkillRecord[], io: CliIo): void {
  let skills = 0;
  let errors = 0;
  let warnings = 0;
  for (const record of records) {
    if (record.diagnostics.length === 0) continue;
    skills++;
    const counts = countSeverities(record.diagnostics);
    errors += counts.errors;
    warnings += counts.warnings;
  }
  if (skills === 0) return;
  const counts = [errors > 0 ? plural(errors, "error") : "", warnings > 0 ? plural(warnings, "warning") : ""]
    .filter((s) => s !== "")
    .join(", ");
  io.stderr.write(
    `${plural(skills, "skill")} loaded with problems (${counts}); run 'skillrt validate' for details.\n`,
  );
}

function renderTable(
  records: readonly SkillRecord[],
  width: number | undefined,
  origins: ReadonlyMap<string, { source: string }> | undefined,
  requirements: ReadonlyMap<string, SkillRequirements>,
): string {
  if (records.length === 0) return "";
  let nameWidth = 0;
  for (const r of records) nameWidth = Math.max(nameWidth, r.name.length);
  const lines = records.map((r) => {
    const req = requirements.get(r.name);
    const mark =
      req === undefined || req.eligible ? "" : `  [unmet: ${describeMissingRequirements(req.missing)}]`;
    const descWidth = width === undefined ? undefined : Math.max(width - nameWidth - 2 - mark.length, 10);
    const line = `${r.name.padEnd(nameWidth)}  ${truncateText(r.description, descWidth)}${mark}`;
    // A skill of a remote root: where it came from, on its own line (URLs do not fit a column).
    const origin = origins?.get(r.source);
    return origin === undefined ? line : `${line}\n${" ".repeat(nameWidth)}  from ${origin.source}`;
  });
  return `${lines.join("\n")}\n`;
}

function writeDiagnosticsSummary(diagnostics: readonly Diagnostic[], skills: number, io: CliIo): void {
  const style = createStyle(io.stderr, io.env);
  if (skills === 0) io.stderr.write("No skills found. Use --root DIR to scan a directory.\n");
  if (diagnostics.length === 0) return;
  const { errors, warnings } = countSeverities(diagnostics);
  const shown = diagnostics.slice(0, SHOWN_DIAGNOSTICS);
  const lines = shown.map((d) => formatDiagnostic(d, io.cwd, style));
  if (diagnostics.length > shown.length)
    lines.push(`… and ${diagnostics.length - shown.length} more (see --json)`);
  const summary = [errors > 0 ? plural(errors, "error") : "", warnings > 0 ? plural(warnings, "warning") : ""]
    .filter((s) => s !== "")
    .join(", ");
  io.stderr.write(`\n${lines.join("\n")}\n${summary} while scanning; run 'skillrt validate' for details.\n`);
}
