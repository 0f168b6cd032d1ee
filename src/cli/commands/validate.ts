import { readFile } from "node:fs/promises";
import path from "node:path";
import { discoverAgents } from "../../catalog/discover-agents.js";
import { parseAgentFile } from "../../catalog/parse-agent-file.js";
import { describeMissingRequirements, requirementDeclarationsOf } from "../../catalog/skill-requirements.js";
import { validateSkillDir } from "../../catalog/validate-skill-dir.js";
import { createDiagnostic } from "../../spec/create-diagnostic.js";
import type { Diagnostic } from "../../spec/types.js";
import { cliRequirementsChecker } from "../cli-requirements.js";
import { cliRoots, rootOption } from "../cli-roots.js";
import { skillsLockDiagnostics } from "../cli-skills-lock.js";
import { collectValidation, type ValidationReport } from "../collect-validation.js";
import type { CliIo } from "../command.js";
import { createProgress, type Progress } from "../create-progress.js";
import { createStyle } from "../create-style.js";
import { defineCommand } from "../define-command.js";
import { countSeverities, formatDiagnostic, plural } from "../format-diagnostic.js";
import { writeJson, writeOutput } from "../write-output.js";

/** Runs with fewer skills finish too fast to need a progress indicator. */
const PROGRESS_MIN_SKILLS = 50;

/** `skillrt validate`: lint skill directories. */
export const validateCommand = defineCommand({
  name: "validate",
  summary: "Check skills against the Agent Skills spec",
  usage: `Usage: skillrt validate [PATH...] [--strict] [--root DIR]... [--json]

Check skills and report problems like a linter: path:line  severity  message  code.

Each PATH is a skill directory, a SKILL.md file, a directory searched for skills, or an
agent file (agents/NAME.md, Claude Code's format). Without PATH, the configured roots are
checked (--root DIR, or the default roots), with the agent files next to them (agents/*.md
beside skills/); agent fields skillrt ignores are reported (agent-field-ignored).

Options:
  --strict     Reproduce the agentskills reference validator (skills-ref): strict YAML,
               unknown fields and name/directory mismatches are errors.
               Default: lenient, as the runtime loads skills (repairs are warnings).
  --lock       Fail (exit 1) when a skill of ./skills-lock.json (written by \`npx skills add\`) no
               longer hashes to its recorded computedHash, or is not installed; without it such
               drift is a warning (lock-drift).
  --root DIR   Check DIR instead of the default roots (repeatable).
  --json       Print {"skills": [...], "diagnostics": [...]} (see docs/cli.md).
  -h, --help   Show this help.

Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 usage error.
`,
  options: {
    ...rootOption,
    strict: { type: "boolean" },
    lock: { type: "boolean" },
    json: { type: "boolean" },
  },
  async run({ values, positionals }, io) {
    let progress: Progress | undefined;
    const check = cliRequirementsChecker(io);
    const agentFiles = positionals.filter(isAgentFilePath);
    const skillPaths = positionals.filter((p) => !isAgentFilePath(p));
    const roots =
      positionals.length > 0 ? undefined : await cliRoots(values.root, io, values.refresh === true);
    const report = await collectValidation(
      roots === undefined ? { kind: "paths", paths: skillPaths, cwd: io.cwd } : { kind: "roots", roots },
      {
        mode: values.strict === true ? "strict" : "lenient",
        async validate(dir, options) {
          const result = validateSkillDir(dir, options);
          const skill = result.skill;
          if (skill === undefined) return result;
          const req = await check(skill.name, requirementDeclarationsOf(skill.frontmatter));
          if (req === undefined || req.eligible) return result;
          const message = `Requirements not met: ${describeMissingRequirements(req.missing)}. Provide them (a variable may be set in skills.${skill.name}.env of skillrt.config.json).`;
          const file = path.join(dir, "SKILL.md");
          return {
            ...result,
            diagnostics: [
              ...result.diagnostics,
              createDiagnostic("requirements-unmet", "warning", message, file),
            ],
          };
        },
        onProgress(done, total) {
          if (total < PROGRESS_MIN_SKILLS) return;
          progress ??= createProgress(io.stderr, { label: "validating", total });
          progress.update(done);
        },
      },
    );
    progress?.clear();
    report.diagnostics.push(...(await agentDiagnostics(roots, agentFiles, io.cwd)));
    const validated = report.skills.flatMap((s) => (s.name === null ? [] : [{ name: s.name, dir: s.path }]));
    report.diagnostics.push(
      ...(await skillsLockDiagnostics(
        io.cwd,
        validated,
        values.lock === true ? "error" : "warning",
        positionals.length === 0,
      )),
    );
    const errors = countErrors(report);
    if (values.json === true) {
      await writeJson(io.stdout, report);
    } else {
      await writeOutput(io.stdout, renderReport(report, io, agentFiles.length));
    }
    return errors > 0 ? 1 : 0;
  },
});

/** An agent definition file: a `.md` file other than SKILL.md in a folder named `agents`. */
function isAgentFilePath(p: string): boolean {
  return (
    /\.md$/i.test(p) &&
    path.basename(p) !== "SKILL.md" &&
    path.basename(path.dirname(path.resolve(p))) === "agents"
  );
}

/** What the agent files next to `roots`, or the agent files given, have wrong. */
async function agentDiagnostics(
  roots: Parameters<typeof discoverAgents>[0] | undefined,
  files: readonly string[],
  cwd: string,
): Promise<Diagnostic[]> {
  if (roots !== undefined) return (await discoverAgents(roots)).diagnostics;
  const out: Diagnostic[] = [];
  for (const file of files) {
    const abs = path.resolve(cwd, file);
    let text: string;
    try {
      text = await readFile(abs, "utf8");
    } catch (error) {
      out.push(
        createDiagnostic(
          "file-unreadable",
          "error",
          `Agent file could not be read: ${(error as Error).message}`,
          abs,
        ),
      );
      continue;
    }
    out.push(...parseAgentFile(text, abs).diagnostics);
  }
  return out;
}

function countErrors(report: ValidationReport): number {
  return countSeverities([...report.diagnostics, ...report.skills.flatMap((s) => s.diagnostics)]).errors;
}

function renderReport(report: ValidationReport, io: CliIo, agentFiles = 0): string {
  const style = createStyle(io.stdout, io.env);
  const all = [...report.diagnostics, ...report.skills.flatMap((s) => s.diagnostics)];
  const lines = all.map((d) => formatDiagnostic(d, io.cwd, style));
  const { errors, warnings } = countSeverities(all);
  const skills = report.skills.length;
  if (lines.length > 0) lines.push("");
  if (errors > 0) {
    const counts = [plural(errors, "error"), ...(warnings > 0 ? [plural(warnings, "warning")] : [])].join(
      ", ",
    );
    lines.push(style.red(`✖ ${counts} in ${plural(skills, "skill")}`));
  } else if (skills === 0 && agentFiles > 0) {
    const suffix = warnings > 0 ? ` (${plural(warnings, "warning")})` : "";
    lines.push(style.green(`✔ ${plural(agentFiles, "agent file")} valid${suffix}`));
  } else if (skills === 0) {
    lines.push("No skills found. Give a PATH or use --root DIR.");
  } else {
    const suffix = warnings > 0 ? ` (${plural(warnings, "warning")})` : "";
    lines.push(style.green(`✔ ${plural(skills, "skill")} valid${suffix}`));
  }
  return `${lines.join("\n")}\n`;
}
