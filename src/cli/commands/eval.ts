/**
 * `skillrt eval CASES`: headless trigger evals — do the right skills load for these requests? With
 * `--outcome SKILL_DIR`: outcome evals — does the task come out better with the skill than without it?
 */
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
import { textTable } from "../text-table.js";
import { writeOutput } from "../write-output.js";
import { runOutcomeCommand } from "./eval-outcome.js";

const SELECTORS = ["model", "lexical"] as const;

/** The `eval` command. */
export const evalCommand = defineCommand({
  name: "eval",
  summary: "Check which skills load for requests, or whether a skill improves outcomes (--outcome)",
  usage: `Usage: skillrt eval CASES [--runs N] [--concurrency N] [--min-pass RATE] [--json]
                    [--selector model|lexical] [--root DIR]... [--model ID] [--provider P]
                    [--base-url URL]
       skillrt eval --outcome [SKILL_DIR] [--cases FILE] [--trials N] [--baseline none|DIR|REV]
                    [--min-pass RATE] [--min-delta D] [--out DIR] [--json] [options]

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

Outcome evals (--outcome): does the task come out better WITH the skill than without it?
Each case of SKILL_DIR/evals/evals.json (skill-creator's format), SKILL_DIR/evals/cases.yaml
or --cases FILE runs N times in each arm — with the skill, and a baseline without it (or a
previous version) — each time in a fresh workspace with the case's files staged, on the same
model. A trial passes when its assertions hold (files exist, contain, match, JSON fields,
evals/ scripts exit 0) and then the grader model judges its answer and files against the
case's expected_output, expectations and rubric. Reported per case and overall: pass rate
per arm with a 95% Wilson interval, the delta, tokens, time and tool calls. Finished trials
are kept in --out and not run again (resumable). See docs/evals.md.

  --outcome           run outcome evals of the skill in SKILL_DIR (default: the current folder)
  --cases FILE        the cases (default SKILL_DIR/evals/evals.json, else evals/cases.yaml)
  --trials N          trials per case and arm (default 3)
  --baseline B        none (default: the same agent without the skill), a skill folder (another
                      version), or a git revision of SKILL_DIR (tag, branch, commit)
  --root DIR          other skills both arms have (repeatable)
  --concurrency N     trials in flight at once (default 2)
  --min-pass RATE     exit 1 when the pass rate with the skill is below RATE (0 to 1)
  --min-delta D       exit 1 when the pass rate with the skill minus the baseline's is below D
                      (-1 to 1)
  --out DIR           where trials, report.json and report.html go
                      (default .skillrt/evals/<skill name>)
  --grader-model ID, --grader-provider P, --grader-base-url URL
                      grade with another model (default: the agent's model)
  --seed N            sampling seed of every model call, where the provider supports one
  --max-steps N       most model calls per trial (default 20)
  --executor E        auto (default), sandbox, local or container: where skill scripts run
  --json              print the report as JSON on stdout (progress stays on stderr)

Exit codes: 0 evaluated (and at or above --min-pass and --min-delta), 1 below --min-pass or
--min-delta, a case file that cannot be read, a missing --root or a broken model
configuration, 2 usage error; with --outcome, 130 cancelled (Ctrl-C: finished trials are
kept, run again to go on), 143 terminated.
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
    outcome: { type: "boolean" },
    cases: { type: "string" },
    trials: { type: "string" },
    baseline: { type: "string" },
    out: { type: "string" },
    "min-delta": { type: "string" },
    seed: { type: "string" },
    "max-steps": { type: "string" },
    executor: { type: "string" },
    "grader-model": { type: "string" },
    "grader-provider": { type: "string" },
    "grader-base-url": { type: "string" },
  },
  minPositionals: 0,
  maxPositionals: 1,
  async run({ values, positionals }, io) {
    if (values.outcome === true) return await runOutcomeCommand(values, positionals, io);
    if (positionals.length === 0) return usageError(io, "eval", "name the cases file (or give --outcome)");
    for (const name of [
      "cases",
      "trials",
      "baseline",
      "out",
      "min-delta",
      "seed",
      "max-steps",
      "executor",
    ] as const)
      if (values[name] !== undefined) return usageError(io, "eval", `--${name} goes with --outcome`);
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
    textTable(["case", "passed", "trigger rate", "false triggers", "flaky", "tokens"], caseRows),
    "",
    textTable(["skill", "triggered", "false triggers"], skillRows),
    "",
    `${report.passedRuns}/${report.totalRuns} runs passed (${percent(report.passRate)}), ${report.flakyCases} flaky case${report.flakyCases === 1 ? "" : "s"}, ${report.tokens} tokens, selector ${selector}, ${report.runsPerCase} run${report.runsPerCase === 1 ? "" : "s"} per case.`,
    ...(errors.length > 0 ? ["Errors:", ...errors] : []),
    "",
  ].join("\n");
}
