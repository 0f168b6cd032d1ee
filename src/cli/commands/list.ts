import { createCatalog } from "../../catalog/create-catalog.js";
import type { SkillRecord } from "../../catalog/types.js";
import type { Diagnostic } from "../../spec/types.js";
import { cliCatalogOptions, cliRoots, rootOption } from "../cli-roots.js";
import type { CliIo } from "../command.js";
import { createStyle } from "../create-style.js";
import { defineCommand } from "../define-command.js";
import { countSeverities, formatDiagnostic, plural } from "../format-diagnostic.js";
import { terminalWidth, truncateText } from "../terminal-width.js";
import { writeJson, writeOutput } from "../write-output.js";

/** One skill of `skillrt list --json` (a public, stable shape). */
export interface ListedSkill {
  name: string;
  description: string;
  location: string;
  scope: SkillRecord["scope"];
  source: string;
  dir: string;
  license?: string;
  compatibility?: string;
  allowedTools?: string[];
  metadata?: Record<string, string>;
  extras: SkillRecord["extras"];
  disableModelInvocation: boolean;
  userInvocable: boolean;
  active: boolean;
  /** Number of warnings (lenient repairs) found while reading the skill. */
  warnings: number;
}

/** `skillrt list`: every visible skill of the configured roots. */
export const listCommand = defineCommand({
  name: "list",
  summary: "List the skills found in the configured roots",
  usage: `Usage: skillrt list [--root DIR]... [--json]

List every skill the catalog finds (name collisions resolved by precedence), then a
summary of problems found while scanning.

Options:
  --root DIR   Scan DIR instead of the default roots (repeatable; relative to the cwd).
               Default roots: ./skills, ./.agents/skills, ./.claude/skills,
               ~/.agents/skills, ~/.claude/skills, and each entry of $SKILLS_DIR.
  --json       Print {"skills": [...], "diagnostics": [...]} (see docs/cli.md).
  -h, --help   Show this help.

Exit codes: 0 listed (also when some skills are broken), 1 a --root does not exist,
2 usage error.
`,
  options: { ...rootOption, json: { type: "boolean" } },
  maxPositionals: 0,
  async run({ values }, io) {
    const options = cliCatalogOptions(values.root, io);
    const catalog = await createCatalog(options);
    const records = catalog.list();
    const diagnostics = catalog.diagnostics();
    // An explicit --root that does not exist is the user's mistake: fail, but still print what was found.
    const explicit = new Set(values.root === undefined ? [] : cliRoots(values.root, io).map((r) => r.path));
    const badRoot = diagnostics.some((d) => d.severity === "error" && explicit.has(d.path));
    const code = badRoot ? 1 : 0;
    if (values.json === true) {
      await writeJson(io.stdout, { skills: records.map(toListedSkill), diagnostics });
      return code;
    }
    await writeOutput(io.stdout, renderTable(records, terminalWidth(io.stdout, io.env)));
    writeDiagnosticsSummary(diagnostics, records.length, io);
    return code;
  },
});

/** The `--json` shape of one record, keys in a fixed order. */
export function toListedSkill(record: SkillRecord): ListedSkill {
  let warnings = 0;
  for (const d of record.diagnostics) if (d.severity === "warning") warnings++;
  return {
    name: record.name,
    description: record.description,
    location: record.location,
    scope: record.scope,
    source: record.source,
    dir: record.dir,
    ...(record.license === undefined ? {} : { license: record.license }),
    ...(record.compatibility === undefined ? {} : { compatibility: record.compatibility }),
    ...(record.allowedTools === undefined ? {} : { allowedTools: record.allowedTools }),
    ...(record.metadata === undefined ? {} : { metadata: record.metadata }),
    extras: record.extras,
    disableModelInvocation: record.disableModelInvocation,
    userInvocable: record.userInvocable,
    active: record.active,
    warnings,
  };
}

function renderTable(records: readonly SkillRecord[], width: number | undefined): string {
  if (records.length === 0) return "";
  let nameWidth = 0;
  for (const r of records) nameWidth = Math.max(nameWidth, r.name.length);
  const descWidth = width === undefined ? undefined : Math.max(width - nameWidth - 2, 10);
  const lines = records.map((r) => `${r.name.padEnd(nameWidth)}  ${truncateText(r.description, descWidth)}`);
  return `${lines.join("\n")}\n`;
}

function writeDiagnosticsSummary(diagnostics: readonly Diagnostic[], skills: number, io: CliIo): void {
  const style = createStyle(io.stderr, io.env);
  if (skills === 0) io.stderr.write("No skills found. Use --root DIR to scan a directory.\n");
  if (diagnostics.length === 0) return;
  const { errors, warnings } = countSeverities(diagnostics);
  const shown = diagnostics.slice(0, 20);
  const lines = shown.map((d) => formatDiagnostic(d, io.cwd, style));
  if (diagnostics.length > shown.length)
    lines.push(`… and ${diagnostics.length - shown.length} more (see --json)`);
  const summary = [errors > 0 ? plural(errors, "error") : "", warnings > 0 ? plural(warnings, "warning") : ""]
    .filter((s) => s !== "")
    .join(", ");
  io.stderr.write(`\n${lines.join("\n")}\n${summary} while scanning; run 'skillrt validate' for details.\n`);
}
