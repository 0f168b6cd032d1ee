/** `skillrt eval CASES`: headless trigger evals — do the right skills load for these requests? */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { loadModelConfig } from "../../config/load-model-config.js";
import { createSkillSession } from "../../context/create-skill-session.js";
import { createSkillAgent } from "../../engine/create-skill-agent.js";
import { resolveModel } from "../../engine/resolve-model.js";
import { autoSelectModeFrom, maxActiveFrom } from "../../engine/select-skills.js";
import { SkillrtError } from "../../errors/skillrt-error.js";
import { parseEvalCases } from "../../eval/eval-cases.js";
import {
  agentCaseRunner,
  type CaseRunner,
  lexicalCaseRunner,
  runTriggerEval,
  type TriggerEvalReport,
} from "../../eval/run-trigger-eval.js";
import { rootOption } from "../cli-roots.js";
import { defineCommand, usageError } from "../define-command.js";
import { intFlag } from "../int-flag.js";
import { openCliCatalog } from "../open-cli-catalog.js";
import { writeOutput } from "../write-output.js";

const SELECTORS = ["model", "lexical"] as const;

/** The `eval` command. */
export const evalCommand = defineCommand({
  name: "eval",
  summary: "Check which skills load for a set of requests (trigger evals)",
  usage: `Usage: skillrt eval CASES [--runs N] [--concurrency N] [--min-pass RATE] [--json]
                    [--selector model|lexical] [--root DIR]... [--model ID] [--provider P]
                    [--base-url URL]

Runs each case of the CASES file (YAML or JSON) as a fresh conversation with the configured
model, N times, and reports per case and per skill: how often the expected skills loaded
(trigger rate), how often forbidden ones did (false triggers), whether runs disagreed
(flaky), and the tokens spent.

A cases file is a list (or { cases: [...] }) of:
  - prompt: "merge these two pdfs"     the user's request (required)
    expect: [pdf]                      skills that must load
    forbid: [docx]                     skills that must not load
    turns: ["now rotate page 2"]       follow-up messages in the same conversation
    name: merge                        label in the report (default: the prompt)
A run passes when every expected skill loaded and no forbidden one did.

Options:
  --runs N          runs per case (default 3)
  --concurrency N   runs in flight at once (default 4)
  --min-pass RATE   exit 1 when the share of passing runs is below RATE (0 to 1)
  --json            print the report as JSON on stdout
  --selector S      model (default): the configured model, with the skill tools (and the
                    SKILLS_AUTO_SELECT pre-pass when set); lexical: no model at all, what
                    catalog search would load (the lexical pre-pass), a search-quality check
  --root DIR        read DIR instead of the default roots (repeatable)
  --model ID, --provider P, --base-url URL
                    override the configured model (see 'skillrt ask --help')
  -h, --help        show this help

Exit codes: 0 evaluated (and at or above --min-pass), 1 below --min-pass, a case file that
cannot be read, a missing --root or a broken model configuration, 2 usage error.
`,
  options: {
    ...rootOption,
    runs: { type: "string" },
    concurrency: { type: "string" },
    "min-pass": { type: "string" },
    json: { type: "boolean" },
    selector: { type: "string" },
    model: { type: "string" },
    provider: { type: "string" },
    "base-url": { type: "string" },
  },
  minPositionals: 1,
  maxPositionals: 1,
  async run({ values, positionals }, io) {
    const runs = intFlag(values.runs, "runs");
    if (typeof runs === "object") return usageError(io, "eval", runs.error);
    const concurrency = intFlag(values.concurrency, "concurrency");
    if (typeof concurrency === "object") return usageError(io, "eval", concurrency.error);
    const minPass = values["min-pass"] === undefined ? undefined : Number(values["min-pass"]);
    if (minPass !== undefined && !(minPass >= 0 && minPass <= 1))
      return usageError(io, "eval", `--min-pass takes a rate from 0 to 1, got '${values["min-pass"]}'`);
    const selector = values.selector ?? "model";
    if (!(SELECTORS as readonly string[]).includes(selector))
      return usageError(io, "eval", `unknown --selector '${selector}' (choose model or lexical)`);

    const file = path.resolve(io.cwd, positionals[0]!);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      io.stderr.write(
        `skillrt eval: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? error}\n`,
      );
      return 1;
    }
    const parsed = parseEvalCases(text);
    if (!parsed.ok) {
      io.stderr.write(`skillrt eval: ${file}: ${parsed.message}\n`);
      return 1;
    }
    const { catalog, code } = await openCliCatalog("eval", values.root, io, values.refresh === true);
    if (code !== 0) return code;
    const unknown = [...new Set(parsed.cases.flatMap((c) => [...c.expect, ...c.forbid]))].filter(
      (name) => catalog.get(name) === undefined,
    );
    for (const name of unknown)
      io.stderr.write(`skillrt eval: warning: no skill named '${name}' in the catalog\n`);

    const maxActive = maxActiveFrom(io.env["SKILLS_MAX_ACTIVE"]);
    let runCase: CaseRunner;
    if (selector === "lexical") {
      runCase = lexicalCaseRunner(createSkillSession({ catalog }), maxActive ?? 3);
    } else {
      const mode = autoSelectModeFrom(io.env["SKILLS_AUTO_SELECT"]);
      const select =
        mode === "off" && maxActive === undefined
          ? {}
          : { select: { mode, ...(maxActive === undefined ? {} : { maxActive }) } };
      const modelOptions = {
        ...(values.model === undefined ? {} : { model: values.model }),
        ...(values.provider === undefined ? {} : { provider: values.provider }),
        ...(values["base-url"] === undefined ? {} : { baseURL: values["base-url"] }),
      };
      let create: () => ReturnType<typeof createSkillAgent>;
      try {
        // Fail early, once, on a broken model configuration.
        const modelConfig = await loadModelConfig({ env: io.env, cwd: io.cwd, flags: modelOptions });
        const model = resolveModel(modelConfig);
        create = () => createSkillAgent({ model, modelConfig, catalog, cwd: io.cwd, env: io.env, ...select });
        await (await create()).close();
      } catch (error) {
        if (!SkillrtError.isInstance(error)) throw error;
        io.stderr.write(`skillrt eval: ${error.message}\n`);
        return 1;
      }
      runCase = agentCaseRunner(create);
    }
    const report = await runTriggerEval({
      cases: parsed.cases,
      runCase,
      ...(runs === undefined ? {} : { runs }),
      ...(concurrency === undefined ? {} : { concurrency }),
    });
    const output =
      values.json === true
        ? `${JSON.stringify({ selector, minPass: minPass ?? null, ...report }, null, 2)}\n`
        : formatReport(report, selector);
    await writeOutput(io.stdout, output);
    if (minPass !== undefined && report.passRate < minPass) {
      io.stderr.write(
        `skillrt eval: pass rate ${percent(report.passRate)} is below --min-pass ${percent(minPass)}\n`,
      );
      return 1;
    }
    return 0;
  },
});

function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}

/** The report as two aligned tables (cases, skills) and a summary line. */
export function formatReport(report: TriggerEvalReport, selector: string): string {
  const caseRows = report.cases.map((c) => [
    c.name,
    `${c.passed}/${c.runs}`,
    Object.entries(c.triggerRate)
      .map(([name, rate]) => `${name} ${percent(rate)}`)
      .join(", ") || "-",
    String(c.falseTriggers),
    c.flaky ? "yes" : "",
    String(c.tokens),
  ]);
  const skillRows = report.skills.map((s) => [
    s.name,
    s.expectedRuns === 0 ? "-" : `${s.triggered}/${s.expectedRuns} ${percent(s.triggerRate)}`,
    s.forbiddenRuns === 0 ? "-" : `${s.falseTriggers}/${s.forbiddenRuns}`,
  ]);
  const errors = report.cases.flatMap((c) => c.errors.map((e) => `  ${c.name}: ${e}`));
  return [
    table(["case", "passed", "trigger rate", "false triggers", "flaky", "tokens"], caseRows),
    "",
    table(["skill", "triggered", "false triggers"], skillRows),
    "",
    `${report.passedRuns}/${report.totalRuns} runs passed (${percent(report.passRate)}), ${report.flakyCases} flaky case${report.flakyCases === 1 ? "" : "s"}, ${report.tokens} tokens, selector ${selector}, ${report.runsPerCase} run${report.runsPerCase === 1 ? "" : "s"} per case.`,
    ...(errors.length > 0 ? ["Errors:", ...errors] : []),
    "",
  ].join("\n");
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}
