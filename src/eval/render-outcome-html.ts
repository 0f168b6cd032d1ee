/**
 * The outcome eval report as one self-contained HTML page a person can read: the arms side by side
 * overall and per case, and every trial's grading, answer, files and transcript one click away (a
 * `<details>` per trial). No scripts, no requests: it opens from disk.
 */
import type { ArmFigures, OutcomeReport, TrialRecord } from "./run-outcome-eval.js";

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function pct(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function signed(delta: number | null): string {
  if (delta === null) return "–";
  const points = Math.round(delta * 1000) / 10;
  return `${points > 0 ? "+" : ""}${points} pts`;
}

function armRows(arms: readonly ArmFigures[]): string {
  return arms
    .map(
      (a) => `<tr><th scope="row">${esc(a.label)}</th>
<td class="rate">${pct(a.passRate.rate)} <small>(${a.passRate.passed}/${a.passRate.total}; 95% CI ${pct(a.passRate.low)}–${pct(a.passRate.high)})</small></td>
<td>${pct(a.triggerRate)}</td><td>${a.tokens.mean}</td><td>${seconds(a.durationMs.mean)}</td><td>${a.toolCalls.mean}</td>
<td>${a.errors + a.graderErrors === 0 ? "" : `${a.errors} run, ${a.graderErrors} grader`}</td></tr>`,
    )
    .join("\n");
}

function armTable(arms: readonly ArmFigures[]): string {
  return `<table class="arms"><thead><tr><th>arm</th><th>pass rate</th><th>skill loaded</th><th>tokens / trial</th><th>time / trial</th><th>tool calls / trial</th><th>errors</th></tr></thead>
<tbody>${armRows(arms)}</tbody></table>`;
}

/** One message of a transcript: its role, then each part (text, tool call, tool result) in order. */
function renderMessage(message: unknown): string {
  if (typeof message !== "object" || message === null) return "";
  const { role, content } = message as { role?: unknown; content?: unknown };
  const parts =
    typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
  const body = parts
    .map((part: unknown) => {
      if (typeof part !== "object" || part === null) return "";
      const p = part as Record<string, unknown>;
      if (p["type"] === "text" || p["type"] === "reasoning")
        return `<pre class="text">${esc(String(p["text"] ?? ""))}</pre>`;
      if (p["type"] === "tool-call")
        return `<pre class="call">→ ${esc(String(p["toolName"]))} ${esc(JSON.stringify(p["input"] ?? p["args"] ?? {}))}</pre>`;
      if (p["type"] === "tool-result") {
        const output = p["output"] as { value?: unknown } | undefined;
        const value = output !== undefined && "value" in output ? output.value : output;
        const text = typeof value === "string" ? value : JSON.stringify(value, null, 1);
        return `<pre class="result">✓ ${esc(String(p["toolName"]))}: ${esc((text ?? "").slice(0, 4000))}</pre>`;
      }
      return `<pre>${esc(JSON.stringify(p).slice(0, 2000))}</pre>`;
    })
    .join("");
  return `<div class="msg ${esc(String(role))}"><span class="role">${esc(String(role))}</span>${body}</div>`;
}

function renderTrial(record: TrialRecord, label: string): string {
  const status = record.passed ? "pass" : "fail";
  const grader = record.grader;
  const graderHtml =
    grader === undefined
      ? ""
      : "verdict" in grader
        ? `<p class="verdict ${grader.verdict.pass ? "pass" : "fail"}">Grader: ${grader.verdict.pass ? "pass" : "fail"} — ${esc(grader.verdict.reasons)}</p>
<ul>${grader.verdict.expectations.map((e) => `<li class="${e.passed ? "pass" : "fail"}">${e.passed ? "✓" : "✗"} ${esc(e.text)}${e.evidence === "" ? "" : ` <small>${esc(e.evidence)}</small>`}</li>`).join("")}</ul>`
        : "error" in grader
          ? `<p class="verdict error">Grader failed (not counted as a pass): ${esc(grader.error)}</p>`
          : `<p class="verdict">Grader not asked: ${esc(grader.skipped)}</p>`;
  const assertions =
    record.assertions.length === 0
      ? ""
      : `<ul class="assertions">${record.assertions.map((a) => `<li class="${a.passed ? "pass" : "fail"}">${a.passed ? "✓" : "✗"} ${esc(a.text)}${a.detail === undefined ? "" : ` <small>${esc(a.detail)}</small>`}</li>`).join("")}</ul>`;
  const files =
    record.files.length === 0
      ? "<p>No files.</p>"
      : `<ul class="files">${record.files.map((f) => `<li>${esc(f.path)} <small>${f.bytes} bytes</small></li>`).join("")}</ul>`;
  return `<details class="trial ${status}" id="${esc(`${record.caseId}-${record.arm}-${record.trial}`)}">
<summary>${esc(label)} · trial ${record.trial}: <b>${status}</b> · ${record.run.tokens.total} tokens · ${seconds(record.run.durationMs)} · ${record.run.toolCalls} tool calls${record.run.loaded.length === 0 ? "" : ` · loaded ${esc(record.run.loaded.join(", "))}`}</summary>
${record.run.error === undefined ? "" : `<p class="verdict error">The trial failed: ${esc(record.run.error)}</p>`}
${record.run.limit === undefined ? "" : `<p class="verdict">${esc(record.run.limit)}</p>`}
${assertions}${graderHtml}
<h4>Answer</h4><pre class="answer">${esc(record.run.answer)}</pre>
<h4>Files</h4>${files}
<h4>Transcript</h4><div class="transcript">${record.run.transcript.map(renderMessage).join("\n")}</div>
</details>`;
}

/** The report page. */
export function renderOutcomeHtml(report: OutcomeReport): string {
  const labels = new Map(report.arms.map((a) => [a.arm, a.label]));
  const cases = report.cases
    .map(
      (c) => `<section class="case"><h2>Case ${esc(c.id)} <small>delta ${signed(c.delta)}</small></h2>
<blockquote>${esc(c.prompt)}</blockquote>
${armTable(c.arms)}
${Object.keys(c.extra).length === 0 ? "" : `<p class="extra">Fields kept but not used: ${esc(Object.keys(c.extra).join(", "))}</p>`}
<div class="trials">${c.trials.map((t) => renderTrial(t, labels.get(t.arm) ?? t.arm)).join("\n")}</div>
</section>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outcome eval: ${esc(report.skill)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem auto;max-width:1100px;padding:0 1rem;color:#1b1f24}
table{border-collapse:collapse;margin:.5rem 0}th,td{padding:.3rem .6rem;border-bottom:1px solid #d5d9de;text-align:left}
.rate{font-weight:600}small{color:#57606a;font-weight:normal}blockquote{margin:.5rem 0;padding:.4rem .8rem;background:#f3f5f7;border-left:3px solid #8c959f}
details.trial{border:1px solid #d5d9de;border-radius:6px;margin:.4rem 0;padding:.3rem .6rem}details.trial>summary{cursor:pointer}
details.pass>summary b,li.pass,p.pass{color:#1a7f37}details.fail>summary b,li.fail,p.fail,.error{color:#cf222e}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;padding:.4rem;margin:.2rem 0;border-radius:4px}
.msg{margin:.4rem 0}.role{font-weight:600;text-transform:uppercase;font-size:11px;color:#57606a}
.headline{font-size:1.2rem}
</style></head><body>
<h1>Outcome eval: ${esc(report.skill)}</h1>
<p>Model ${esc(report.model)} · grader ${esc(report.grader ?? "none")} · ${report.trialsPerArm} trial${report.trialsPerArm === 1 ? "" : "s"} per case and arm${report.resumedTrials === 0 ? "" : ` · ${report.resumedTrials} trials reused from an earlier run`}</p>
<p class="headline">Delta: <b>${signed(report.delta)}</b></p>
${armTable(report.arms)}
${report.unknownFields.length === 0 ? "" : `<p class="extra">Fields of the cases file kept but not used: ${esc(report.unknownFields.join(", "))}</p>`}
${cases}
</body></html>
`;
}
