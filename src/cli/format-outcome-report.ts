/** The outcome eval report for people (a terminal table) and for programs (JSON without transcripts). */
import path from "node:path";
import type { ArmFigures, OutcomeReport } from "../eval/run-outcome-eval.js";
import { textTable } from "./text-table.js";

/** The JSON on stdout: the report without transcripts and grader prompts (those are in the results folder). */
export function outcomeSummaryJson(report: OutcomeReport, minPass: number | null, minDelta: number | null) {
  return {
    ...report,
    minPass,
    minDelta,
    cases: report.cases.map((c) => ({
      ...c,
      trials: c.trials.map((t) => ({
        arm: t.arm,
        trial: t.trial,
        passed: t.passed,
        triggered: t.triggered,
        tokens: t.run.tokens.total,
        durationMs: t.run.durationMs,
        toolCalls: t.run.toolCalls,
        loaded: t.run.loaded,
        answer: t.run.answer,
        ...(t.run.error === undefined ? {} : { error: t.run.error }),
        files: t.files,
        assertions: t.assertions,
        grader:
          t.grader === undefined
            ? null
            : "verdict" in t.grader
              ? { verdict: t.grader.verdict }
              : "error" in t.grader
                ? { error: t.grader.error }
                : t.grader,
        dir: t.dir,
      })),
    })),
  };
}

/** `0.5` as `50%`. */
export function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}

/** A delta in percentage points, signed (`+80 pts`). */
export function points(delta: number | null): string {
  if (delta === null) return "-";
  const p = Math.round(delta * 1000) / 10;
  return `${p > 0 ? "+" : ""}${p} pts`;
}

function rateCell(a: ArmFigures): string {
  return `${a.passRate.passed}/${a.passRate.total} ${percent(a.passRate.rate)} [${percent(a.passRate.low)}-${percent(a.passRate.high)}]`;
}

/** The report on a terminal: cases by arm, the arms' figures, the delta, and where the full report is. */
export function formatOutcomeReport(report: OutcomeReport, htmlFile: string): string {
  const labels = report.arms.map((a) => a.label);
  const caseRows = report.cases.map((c) => [c.id, ...c.arms.map(rateCell), points(c.delta)]);
  const armRows = report.arms.map((a) => [
    a.label,
    rateCell(a),
    percent(a.triggerRate),
    String(a.tokens.mean),
    `${(a.durationMs.mean / 1000).toFixed(1)} s`,
    String(a.toolCalls.mean),
    a.errors + a.graderErrors === 0 ? "" : `${a.errors} run, ${a.graderErrors} grader`,
  ]);
  return [
    textTable(["case", ...labels, "delta"], caseRows),
    "",
    textTable(
      [
        "arm",
        "pass rate [95% CI]",
        "skill loaded",
        "tokens/trial",
        "time/trial",
        "tool calls/trial",
        "errors",
      ],
      armRows,
    ),
    "",
    `Delta ${points(report.delta)} (${report.arms[0]?.label} against ${report.arms[1]?.label}), ${report.trialsPerArm} trial${report.trialsPerArm === 1 ? "" : "s"} per case and arm, model ${report.model}, grader ${report.grader ?? "none"}${report.resumedTrials === 0 ? "" : `, ${report.resumedTrials} trials from an earlier run`}.`,
    `Report: ${htmlFile} (trials, transcripts: ${path.join(report.resultsDir, "trials")})`,
    "",
  ].join("\n");
}
