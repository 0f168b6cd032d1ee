/**
 * Selection pre-pass (peterbot's design, AgentScope's pre-reasoning hook): before the first step of a
 * turn, pick the skills that fit the user's message and load them, so the model starts with them.
 */
import { generateText, type LanguageModel } from "ai";
import { listSkills, type SkillListing } from "../context/list-skills.js";
import { loadForUser, type UserLoadOutcome } from "../context/load-for-user.js";
import type { SkillSession } from "../context/skill-session.js";

/** `off` (default), `llm` (ask the model), `lexical` (catalog search, no model call). */
export type AutoSelectMode = "off" | "llm" | "lexical";

/** The selector `SKILLS_AUTO_SELECT=true` turns on: the seed's (ask the model). */
export const DEFAULT_AUTO_SELECT_MODE: AutoSelectMode = "llm";

/** Options of {@link selectSkills}. */
export interface SelectSkillsOptions {
  mode: AutoSelectMode;
  session: SkillSession;
  /** The user's message. */
  message: string;
  /** Needed for `llm`. */
  model?: LanguageModel;
  /** Most skills loaded by the pre-pass (already loaded ones count). Default 3. */
  maxActive?: number;
  /** `lexical`: lowest search score kept; hits below 40% of the best are dropped too. Default 1.5. */
  minScore?: number;
  /**
   * `llm`: most tokens of catalog lines sent to the model. A catalog that fits is sent whole; a larger one
   * is narrowed to the search's best candidates for the message, best first, while they fit. Default
   * {@link DEFAULT_CANDIDATE_TOKENS}.
   */
  candidateTokens?: number;
  abortSignal?: AbortSignal;
}

/** What the pre-pass chose and what loading it gave. */
export interface SelectSkillsResult {
  selected: string[];
  loads: UserLoadOutcome[];
}

/**
 * Reads `SKILLS_AUTO_SELECT`: `llm` or `lexical` pick a selector; `true`, `1`, `yes` and `on` (the seed's
 * flag) turn on the default one ({@link DEFAULT_AUTO_SELECT_MODE}); anything else — unset, `false`,
 * `off` — is `off`.
 */
export function autoSelectModeFrom(value: string | undefined): AutoSelectMode {
  const v = value?.trim().toLowerCase();
  if (v === "llm" || v === "lexical") return v;
  return v === "true" || v === "1" || v === "yes" || v === "on" ? DEFAULT_AUTO_SELECT_MODE : "off";
}

/** Reads `SKILLS_MAX_ACTIVE`: a positive integer, or undefined (no cap) for anything else. */
export function maxActiveFrom(value: string | undefined): number | undefined {
  const n = Number(value?.trim() ?? "");
  return value !== undefined && value.trim() !== "" && Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * Parses the model's answer: a JSON array of names or `{ "skills": [...] }`, possibly inside prose or a
 * code fence, or the seed's plain answer — names separated by commas (or lines), or `none`. Only names in
 * `known` are kept (matched case-insensitively), without duplicates, in the order given.
 */
export function parseSelection(text: string, known: ReadonlySet<string>): string[] {
  const json = parseJsonSelection(text, known);
  if (json !== undefined) return json;
  const byLower = new Map([...known].map((name) => [name.toLowerCase(), name]));
  const names: string[] = [];
  for (const part of text.split(/[,\n]/)) {
    const cleaned = part
      .trim()
      .replace(/^(?:[-*•]|\d+[.)])\s*/, "")
      .replace(/^["'`]+|["'`.]+$/g, "")
      .trim()
      .toLowerCase();
    const name = byLower.get(cleaned);
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}

function parseJsonSelection(text: string, known: ReadonlySet<string>): string[] | undefined {
  const candidates = [text.match(/\{[\s\S]*\}/)?.[0], text.match(/\[[\s\S]*?\]/)?.[0]];
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(candidate);
    } catch {
      continue;
    }
    const list = Array.isArray(parsed)
      ? parsed
      : typeof parsed === "object" && parsed !== null && "skills" in parsed
        ? parsed.skills
        : undefined;
    if (Array.isArray(list)) {
      return [...new Set(list.filter((n): n is string => typeof n === "string" && known.has(n)))];
    }
  }
  return undefined;
}

/** Tokens of catalog lines the `llm` pre-pass sends at most (about 4 kB). */
export const DEFAULT_CANDIDATE_TOKENS = 1000;

/** Most search hits considered as candidates when the catalog does not fit. */
const MAX_CANDIDATES = 50;

/**
 * The skills the `llm` pre-pass shows the model: every skill the model may see (never one with
 * `disable-model-invocation`, which only a person starts) and that is not loaded, when their catalog
 * lines fit the budget, else the search's best hits for the message that fit (none when nothing matches).
 */
export async function selectionCandidates(
  session: SkillSession,
  message: string,
  budget = DEFAULT_CANDIDATE_TOKENS,
): Promise<SkillListing[]> {
  const forModel = new Set(session.visibleSkills().map((r) => r.name));
  const skills = listSkills(session).filter((s) => !s.loaded && forModel.has(s.name));
  let total = 0;
  for (const s of skills) total += s.tokens;
  if (total <= budget) return skills;
  const byName = new Map(skills.map((s) => [s.name, s]));
  const candidates: SkillListing[] = [];
  let used = 0;
  for (const hit of await session.search(message, MAX_CANDIDATES)) {
    const skill = byName.get(hit.name);
    if (skill === undefined) continue;
    if (used + skill.tokens > budget) break;
    used += skill.tokens;
    candidates.push(skill);
  }
  return candidates;
}

async function askModel(options: SelectSkillsOptions, max: number): Promise<string[]> {
  if (options.model === undefined) return [];
  const skills = await selectionCandidates(options.session, options.message, options.candidateTokens);
  if (skills.length === 0) return [];
  const catalog = skills.map((s) => `- ${s.name}: ${s.description.replace(/\s+/g, " ")}`).join("\n");
  const { text } = await generateText({
    model: options.model,
    maxRetries: 0,
    instructions:
      "You choose which skills an assistant should load before answering. Answer with JSON only: " +
      `{"skills": ["name", ...]} with at most ${max} names from the list, most relevant first, or {"skills": []} when none clearly fits. ` +
      '(Comma-separated names, or "none", are understood too.)',
    prompt: `Skills:\n${catalog}\n\nUser message:\n${options.message}`,
    ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
  });
  return parseSelection(text, new Set(skills.map((s) => s.name))).slice(0, max);
}

async function searchCatalog(options: SelectSkillsOptions, max: number): Promise<string[]> {
  const loaded = new Set(options.session.loadedSkills());
  const hits = (await options.session.search(options.message, max + loaded.size)).filter(
    (h) => !loaded.has(h.name),
  );
  return pickLexical(hits, max, options.minScore);
}

/**
 * The `lexical` selector's choice from search hits (best first): at most `max` names scoring at least
 * `minScore` (default 1.5) and at least 40% of the best score.
 */
export function pickLexical(
  hits: readonly { name: string; score: number }[],
  max: number,
  minScore = 1.5,
): string[] {
  const best = hits[0]?.score ?? 0;
  return hits
    .filter((h) => h.score >= minScore && h.score >= best * 0.4)
    .slice(0, max)
    .map((h) => h.name);
}

/**
 * Runs the pre-pass: `llm` makes one `generateText` call (the catalog, or the search's best candidates
 * under `candidateTokens`, in; JSON names out); `lexical` uses
 * the catalog's search with a score threshold. Loads at most `maxActive` (default 3) minus what is
 * already loaded. `off` does nothing. A failing model call is not fatal: nothing is selected.
 */
export async function selectSkills(options: SelectSkillsOptions): Promise<SelectSkillsResult> {
  const room = (options.maxActive ?? 3) - options.session.loadedSkills().length;
  if (options.mode === "off" || room <= 0 || options.message.trim() === "")
    return { selected: [], loads: [] };
  let selected: string[];
  try {
    selected = options.mode === "llm" ? await askModel(options, room) : await searchCatalog(options, room);
  } catch {
    return { selected: [], loads: [] };
  }
  // The pre-pass chooses for the model, so it never starts a skill the model may not see.
  const forModel = new Set(options.session.visibleSkills().map((r) => r.name));
  selected = selected.filter((name) => forModel.has(name));
  const loads: UserLoadOutcome[] = [];
  for (const name of selected) loads.push(await loadForUser(options.session, name, { by: "select" }));
  return { selected, loads };
}
