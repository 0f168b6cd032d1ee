/**
 * The L1 catalog under a token budget. When every entry does not fit: shorten the descriptions of the
 * least recently used skills first, then drop descriptions (least used first), then list only as many
 * names as fit (loaded and recently used first). A closing line tells the model what was shortened or left
 * out and that `skill_search` finds the rest: nothing is dropped silently.
 *
 * Fast on large catalogs: entry token counts are cached per record (a `WeakMap`, so a refreshed record is
 * re-counted) and totals stop accumulating as soon as they pass the budget.
 */
import type { SkillRecord } from "../catalog/types.js";
import { catalogEntryFormat, oneLine, shortenDescription } from "./catalog-entry-format.js";
import type { CatalogFormat } from "./session-options.js";
import type { SkillSession } from "./skill-session.js";
import type { TokenCounter } from "./token-counter.js";

/** Per-record token counts, shared by every render of one session (keyed by format, variant and marker). */
export type CatalogTokenCache = WeakMap<SkillRecord, Map<string, number>>;

/** Creates an empty {@link CatalogTokenCache}. */
export function createCatalogTokenCache(): CatalogTokenCache {
  return new WeakMap();
}

/** Input of {@link renderCatalog}. */
export interface RenderCatalogInput {
  /** Visible records, sorted by name. */
  records: readonly SkillRecord[];
  format: CatalogFormat;
  /** Tokens the catalog may use (header, entries, closing notice). */
  budget: number;
  counter: TokenCounter;
  cache: CatalogTokenCache;
  loaded: ReadonlySet<string>;
  /** LRU clock value of each skill's last use; missing = never used. */
  usage: ReadonlyMap<string, number>;
  /** Name of the search tool in the closing notice. Default `skill_search`. */
  searchTool?: string;
  /**
   * What an ineligible skill lacks (`env FOO_TOKEN, bin foo`; names only), marked after its description.
   * Default: nothing is marked.
   */
  unmet?: (record: SkillRecord) => string | undefined;
}

/** A rendered catalog and what the budget did to it. */
export interface CatalogRender {
  /** `""` when there are no records. Ends with a newline otherwise. */
  text: string;
  listed: number;
  shortened: number;
  bare: number;
  omitted: number;
}

type Variant = "full" | "short" | "bare";

/** Renders the catalog; see the file comment for the budget policy. Pure: same input, same bytes. */
export function renderCatalog(input: RenderCatalogInput): CatalogRender {
  const { records, counter, cache, loaded, budget } = input;
  const n = records.length;
  if (n === 0) return { text: "", listed: 0, shortened: 0, bare: 0, omitted: 0 };
  const fmt = catalogEntryFormat(input.format);
  const searchTool = input.searchTool ?? "skill_search";

  const described = (r: SkillRecord, v: Variant): string | undefined => {
    if (v === "bare") return undefined;
    const d = v === "short" ? shortenDescription(r.description) : r.description;
    const unmet = input.unmet?.(r);
    return unmet === undefined ? d : `${d} [unavailable here: needs ${unmet}]`;
  };
  const text = (r: SkillRecord, v: Variant): string => fmt.entry(r, described(r, v), loaded.has(r.name));
  const cost = (r: SkillRecord, v: Variant): number => {
    const key = `${input.format}:${v}:${loaded.has(r.name) ? 1 : 0}`;
    let counts = cache.get(r);
    if (counts === undefined) {
      counts = new Map();
      cache.set(r, counts);
    }
    let c = counts.get(key);
    if (c === undefined) {
      c = counter.count(text(r, v));
      counts.set(key, c);
    }
    return c;
  };
  /** Sum of `v` costs, or Infinity as soon as it passes `limit`. */
  const sumUpTo = (v: Variant, limit: number): number => {
    let sum = 0;
    for (const r of records) {
      sum += cost(r, v);
      if (sum > limit) return Number.POSITIVE_INFINITY;
    }
    return sum;
  };
  const frame = counter.count(fmt.header) + counter.count(fmt.footer);
  const assemble = (variants: (Variant | undefined)[], notice: string, order?: readonly number[]): string => {
    let body = fmt.header;
    for (const i of order ?? records.keys()) {
      const r = records[i];
      const v = variants[i];
      if (r !== undefined && v !== undefined) body += text(r, v);
    }
    return body + fmt.footer + notice;
  };

  if (sumUpTo("full", budget - frame) !== Number.POSITIVE_INFINITY) {
    return {
      text: assemble(
        records.map(() => "full"),
        "",
      ),
      listed: n,
      shortened: 0,
      bare: 0,
      omitted: 0,
    };
  }

  const notice = (shortened: number, bare: number, omitted: number): string => {
    const parts: string[] = [];
    if (shortened > 0) parts.push(`${shortened.toLocaleString("en-US")} descriptions were shortened`);
    if (bare > 0) parts.push(`${bare.toLocaleString("en-US")} are listed by name only`);
    if (omitted > 0) parts.push(`${omitted.toLocaleString("en-US")} skills are not listed`);
    return `Note: the catalog did not fit its budget of ${budget.toLocaleString("en-US")} tokens: ${parts.join(", ")}. Call ${searchTool} with a few keywords to find a skill by what it does.\n`;
  };
  const available = budget - frame - counter.count(notice(n, n, n));

  // Least recently used first (never used before used), ties by name order.
  const lru = records.map((_, i) => i);
  lru.sort(
    (a, b) =>
      (input.usage.get(records[a]?.name ?? "") ?? 0) - (input.usage.get(records[b]?.name ?? "") ?? 0) ||
      a - b,
  );

  if (sumUpTo("bare", available) !== Number.POSITIVE_INFINITY) {
    const full = records.map((r) => cost(r, "full"));
    const short = records.map((r) => cost(r, "short"));
    const bare = records.map((r) => cost(r, "bare"));
    const variants: Variant[] = records.map(() => "full");
    // Stage 1: shorten the k least used. Stage 2: with all shortened, drop the j least used descriptions.
    const shortenCount = leastPrefix(lru, sum(full), (i) => (full[i] ?? 0) - (short[i] ?? 0), available);
    if (shortenCount !== undefined) {
      const chosen = lru.slice(0, shortenCount).filter((i) => (full[i] ?? 0) > (short[i] ?? 0));
      for (const i of chosen) variants[i] = "short";
      return {
        text: assemble(variants, notice(chosen.length, 0, 0)),
        listed: n,
        shortened: chosen.length,
        bare: 0,
        omitted: 0,
      };
    }
    const bareCount = leastPrefix(lru, sum(short), (i) => (short[i] ?? 0) - (bare[i] ?? 0), available) ?? n;
    lru.forEach((i, rank) => {
      variants[i] = rank < bareCount ? "bare" : "short";
    });
    return {
      text: assemble(variants, notice(n - bareCount, bareCount, 0)),
      listed: n,
      shortened: n - bareCount,
      bare: bareCount,
      omitted: 0,
    };
  }

  // Names only, as many as fit: loaded skills, then most recently used, then name order.
  const priority: number[] = [];
  const seen = new Set<number>();
  const used = records
    .map((r, i) => ({ i, tick: input.usage.get(r.name) ?? 0, loaded: loaded.has(r.name) }))
    .filter((e) => e.loaded || e.tick > 0)
    .sort((a, b) => Number(b.loaded) - Number(a.loaded) || b.tick - a.tick || a.i - b.i);
  for (const e of used) {
    priority.push(e.i);
    seen.add(e.i);
  }
  // Then name order, invalid and template names last (chosen and shown), so the list opens with real skills.
  const last: number[] = [];
  for (let i = 0; i < n; i++) if (!seen.has(i)) (placeholderOrInvalid(records[i]) ? last : priority).push(i);
  priority.push(...last);
  const lastSet = new Set(last);
  const order = [...records.keys()].filter((i) => !lastSet.has(i)).concat(last);
  const variants: (Variant | undefined)[] = new Array(n);
  let spent = 0;
  let listed = 0;
  for (const i of priority) {
    const r = records[i];
    if (r === undefined) continue;
    const c = cost(r, "bare");
    if (spent + c > available) break;
    spent += c;
    variants[i] = "bare";
    listed++;
  }
  return {
    text: assemble(variants, notice(0, listed, n - listed), order),
    listed,
    shortened: 0,
    bare: listed,
    omitted: n - listed,
  };
}

const TEMPLATE_NAME =
  /(^|[-_])(template|example|sample|boilerplate|placeholder)s?([-_]|$)|^(my|new|your)-skill(-name)?$|^skill-name$/i;

/** A skill whose name is a template's (`template-skill`, `my-skill`) or breaks the spec's name rule, or that has an error. */
function placeholderOrInvalid(record: SkillRecord | undefined): boolean {
  if (record === undefined) return false;
  if (TEMPLATE_NAME.test(record.name) || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(record.name)) return true;
  return record.diagnostics.some((d) => d.severity === "error");
}

function sum(values: number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return s;
}

/**
 * Smallest k such that `total - Σ saving(order[0..k))` ≤ `limit` (binary search over prefix sums; savings
 * are never negative so the total only falls). `undefined` when even k = n does not fit.
 */
function leastPrefix(
  order: number[],
  total: number,
  saving: (i: number) => number,
  limit: number,
): number | undefined {
  const prefix = [0];
  for (const i of order) prefix.push((prefix[prefix.length - 1] ?? 0) + Math.max(0, saving(i)));
  if (total - (prefix[prefix.length - 1] ?? 0) > limit) return undefined;
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (total - (prefix[mid] ?? 0) <= limit) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Lines of the request-skills block kept counted per counter (a few per turn; the same skills recur). */
const REQUEST_LINES_KEPT = 512;
const requestLineCounts = new WeakMap<TokenCounter, Map<string, number>>();

/**
 * `counter.count` for the request-skills block's lines, remembered: each turn counts its header, footer
 * and a few lines per skill listed, too short for the counter's own cache, and a turn's first model
 * request waits for them (~0.7 ms a turn).
 */
function requestLineCount(counter: TokenCounter): (text: string) => number {
  let counts = requestLineCounts.get(counter);
  if (counts === undefined) {
    counts = new Map();
    requestLineCounts.set(counter, counts);
  }
  const kept = counts;
  return (text) => {
    let tokens = kept.get(text);
    if (tokens === undefined) {
      tokens = counter.count(text);
      if (kept.size >= REQUEST_LINES_KEPT) kept.clear();
      kept.set(text, tokens);
    }
    return tokens;
  };
}

/** Options of {@link renderRequestSkills}. */
export interface RequestSkillsOptions {
  /** Most skills listed. Default 5. */
  limit?: number;
  /** Tokens the block may use. Default 500. */
  budget?: number;
  /** List matches even when the whole catalog fits in full (then it only repeats the system prompt). Default false. */
  always?: boolean;
}

/** The per-request part of the catalog: what {@link renderRequestSkills} gives. */
export interface RequestSkillsRender {
  /** `""` when nothing is to be added (the catalog fit in full, or nothing matches). Ends with a newline otherwise. */
  text: string;
  /** The skills listed, best match first. */
  skills: string[];
}

/**
 * The per-request part of the catalog. When the catalog in the system prompt could not show every skill
 * in full (budget), the skills that best match the user's latest request (catalog search; visible and not
 * loaded) are listed with their descriptions, best first, within `budget` tokens (a description that does
 * not fit is shortened, then left out). The system prompt itself stays the same from request to request, so
 * provider prompt caches keep hitting: this block belongs with the request (history placement puts it
 * next to the user's message, where per-turn content goes). Returns `""` when the catalog fit in full
 * (unless `always`) or nothing matches.
 */
export async function renderRequestSkills(
  session: SkillSession,
  request: string,
  options: RequestSkillsOptions = {},
): Promise<RequestSkillsRender> {
  // The trpc overview is itself ranked for the request (and names every skill it does not describe).
  if (session.profile.trpcTools !== undefined) return { text: "", skills: [] };
  const stats = session.renderer.catalogStats();
  const cut = stats.shortened + stats.bare + stats.omitted;
  if (cut === 0 && options.always !== true) return { text: "", skills: [] };
  const limit = options.limit ?? 5;
  const hits = (await session.search(request, limit + session.loadedSkills().length))
    .filter((hit) => !hit.loaded)
    .slice(0, limit);
  if (hits.length === 0) return { text: "", skills: [] };
  const names = session.profile.toolNames;
  const count = requestLineCount(session.counter);
  const header =
    cut === 0
      ? "Skills that best match this request:\n"
      : `Skills that best match this request (the catalog above does not show all ${stats.visible.toLocaleString("en-US")} skills in full):\n`;
  const footer = `Load one with ${names.load} before following it${names.search === undefined ? "" : `; ${names.search} finds others`}.\n`;
  let spent = count(header) + count(footer);
  let body = "";
  const skills: string[] = [];
  const budget = options.budget ?? 500;
  for (const hit of hits) {
    const lines = [
      `- ${hit.name}: ${oneLine(hit.description)}\n`,
      `- ${hit.name}: ${shortenDescription(hit.description)}\n`,
      `- ${hit.name}\n`,
    ];
    let fit: { text: string; tokens: number } | undefined;
    for (const text of lines) {
      const tokens = count(text);
      if (spent + tokens > budget) continue;
      fit = { text, tokens };
      break;
    }
    if (fit === undefined) break;
    spent += fit.tokens;
    body += fit.text;
    skills.push(hit.name);
  }
  if (skills.length === 0) return { text: "", skills: [] };
  return { text: header + body + footer, skills };
}
