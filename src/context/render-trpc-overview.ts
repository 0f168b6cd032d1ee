/**
 * trpc-agent-go's skill overview (`internal/flow/processor/skills.go`, `injectOverview`): `Available
 * skills:` and one `- name: description` line per skill, ranked for the latest user request (names count
 * three times a description word), with "Top recommended skill for this request: `X`. …" when one skill
 * clearly leads (score ≥ 4 and at least twice the runner-up); a cap of N lines turns the header into
 * `Available skills: (showing N of M; remaining names listed below)` and lists the rest by name under
 * "Additional skills (use skill_load by name to access): …"; then the guidance blocks for the tools
 * registered (`trpc-guidance.ts`). Ranking happens before the cap, as in trpc.
 */
import type { SkillRecord } from "../catalog/types.js";
import { oneLine } from "./catalog-entry-format.js";
import { type TrpcToolFlags, trpcCapabilityGuidance, trpcToolingGuidance } from "./trpc-guidance.js";

// trpc's `skillOverviewStopwords`.
const STOPWORDS = new Set(
  (
    "the and for with from into this that your you must should need task tasks using use user final json " +
    "file files output result results tool tools workspace required include save write create build easy medium hard"
  ).split(" "),
);

/** trpc's `overviewTokens`: lowercased runs of letters and digits of at least 3 bytes, stopwords left out. */
export function overviewTokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => Buffer.byteLength(t) >= 3 && !STOPWORDS.has(t));
}

/** Records ranked for `request` (stable; unchanged when nothing scores) and the clear leader, if any. */
export function rankForRequest(
  records: readonly SkillRecord[],
  request: string,
): { records: readonly SkillRecord[]; top: string | undefined } {
  if (records.length < 2) return { records, top: undefined };
  const weights = new Map<string, number>();
  for (const token of overviewTokens(request.trim())) weights.set(token, (weights.get(token) ?? 0) + 1);
  if (weights.size === 0) return { records, top: undefined };
  const scored = records.map((record) => {
    const name = new Set(overviewTokens(record.name));
    const description = new Set(overviewTokens(record.description));
    let score = 0;
    for (const [token, weight] of weights) {
      if (name.has(token)) score += 3 * weight;
      else if (description.has(token)) score += weight;
    }
    return { record, score };
  });
  const max = Math.max(...scored.map((s) => s.score));
  if (max === 0) return { records, top: undefined };
  scored.sort((a, b) => b.score - a.score); // Array.prototype.sort is stable.
  const [first, second] = scored;
  const top =
    first !== undefined && first.score >= 4 && (second === undefined || first.score >= 2 * second.score)
      ? first.record.name
      : undefined;
  return { records: scored.map((s) => s.record), top };
}

/** Input of {@link renderTrpcOverview}. */
export interface TrpcOverviewInput {
  /** Visible records, in catalog (name) order. */
  records: readonly SkillRecord[];
  /** Text of the latest user message (`""`: no ranking). */
  request: string;
  /** Most skills listed with their description (trpc's `WithMaxOverviewSkills`); 0 or undefined: all. */
  cap?: number;
  flags: TrpcToolFlags;
  /**
   * trpc's guidance switches: `undefined` renders the guidance blocks for the tools; `""` none
   * (`WithSkillsToolingGuidance("")`); other text replaces them and is put before the overview
   * (`WithSkillsProtocolGuidance`).
   */
  guidance?: string;
}

/** The overview text and how many skills it lists in full / by name only. */
export interface TrpcOverview {
  text: string;
  listed: number;
  truncated: number;
}

/** Renders the overview; `""` when there are no records. Pure. */
export function renderTrpcOverview(input: TrpcOverviewInput): TrpcOverview {
  const { flags } = input;
  if (input.records.length === 0) return { text: "", listed: 0, truncated: 0 };
  const ranked = rankForRequest(input.records, input.request);
  const cap = input.cap ?? 0;
  const all = ranked.records;
  const rendered = cap > 0 && all.length > cap ? all.slice(0, cap) : all;
  const truncated = all.slice(rendered.length);
  let text = input.guidance === undefined || input.guidance === "" ? "" : `${input.guidance}\n\n`;
  text += "Available skills:";
  if (truncated.length > 0)
    text += ` (showing ${rendered.length} of ${all.length}; remaining names listed below)`;
  text += "\n";
  if (flags.load && !flags.run) {
    text +=
      "The short lines below are routing summaries only. If one looks relevant, call skill_load before relying on it or repeating domain-specific tool work.\n";
  }
  if (ranked.top !== undefined && flags.load) {
    text += `Top recommended skill for this request: \`${ranked.top}\`. If this skill matches the task family, call skill_load on it as your first tool call before any domain tool.\n`;
  }
  for (const record of rendered) text += `- ${record.name}: ${oneLine(record.description)}\n`;
  if (truncated.length > 0) {
    text += `Additional skills (use skill_load by name to access): ${truncated.map((r) => r.name).join(", ")}\n`;
  }
  if (input.guidance === undefined) text += trpcCapabilityGuidance(flags) + trpcToolingGuidance(flags);
  return { text, listed: rendered.length, truncated: truncated.length };
}
