/**
 * The catalog as the inspector shows it: every skill with its scope, diagnostics and body tokens, and
 * what the L1 catalog block does with it under the session's budget (full, shortened, name only, left
 * out, or hidden from the model).
 */
import type { Catalog, SkillRecord } from "../catalog/types.js";
import { catalogEntryFormat, shortenDescription } from "../context/catalog-entry-format.js";
import { createSkillSession } from "../context/create-skill-session.js";
import type { CatalogStats } from "../context/rendered-context.js";
import type { SkillSessionOptions } from "../context/session-options.js";
import type { Diagnostic } from "../spec/types.js";

/** How the catalog block lists a skill. */
export type CatalogStatus = "full" | "shortened" | "name-only" | "left-out" | "hidden";

/** One skill of the catalog view. */
export interface CatalogSkillView {
  name: string;
  description: string;
  scope: string;
  location: string;
  status: CatalogStatus;
  /** Tokens of the SKILL.md body (what loading it costs, before the load wrapper); undefined when unreadable. */
  bodyTokens?: number;
  diagnostics: Array<Pick<Diagnostic, "code" | "severity" | "message"> & { line?: number }>;
}

/** The whole catalog view. */
export interface CatalogView {
  counter: string;
  catalogBudget: number;
  contextWindow: number;
  stats: CatalogStats;
  /** How many skills have each status (over every skill, also when `skills` is only the first ones). */
  counts: Record<CatalogStatus, number>;
  /** How many skills the catalog has (`skills.length` unless the view was cut with {@link firstSkills}). */
  total: number;
  /** The catalog block exactly as the model sees it (preamble included). */
  blockText: string;
  skills: CatalogSkillView[];
  /** Diagnostics of skills that could not be listed at all, and of discovery. */
  problems: Array<CatalogSkillView["diagnostics"][number] & { path: string }>;
}

/** Options of {@link createCatalogViewer}: the session options that shape the catalog block. */
export type CatalogViewerOptions = Pick<
  SkillSessionOptions,
  "catalog" | "catalogBudget" | "contextWindow" | "allow" | "deny" | "tokenCounter"
>;

/**
 * The view with only its first `n` skills (counts, stats and `total` still cover every skill): what a page
 * needs to show its first rows without receiving every description.
 */
export function firstSkills(view: CatalogView, n: number): CatalogView {
  return n >= view.skills.length ? view : { ...view, skills: view.skills.slice(0, n) };
}

/**
 * Builds catalog views and searches like `skill_search`; body token counts are cached per skill record,
 * and the view itself until the catalog's records change.
 */
export interface CatalogViewer {
  view(): Promise<CatalogView>;
  /** The search the model's `skill_search` runs (lexical, over skills the model may see). */
  search(query: string, limit?: number): Promise<Array<{ name: string; score: number }>>;
}

function pickDiagnostic(d: Diagnostic): CatalogSkillView["diagnostics"][number] {
  return {
    code: d.code,
    severity: d.severity,
    message: d.message,
    ...(d.line === undefined ? {} : { line: d.line }),
  };
}

/** Creates a viewer over `options.catalog`. */
export function createCatalogViewer(options: CatalogViewerOptions): CatalogViewer {
  const catalog: Catalog = options.catalog;
  const session = createSkillSession({ ...options, placement: "system" });
  const bodyTokens = new WeakMap<SkillRecord, number | undefined>();
  const measureBodies = async (records: readonly SkillRecord[]): Promise<void> => {
    // An MCP-served skill's body is on its server: measuring it would fetch every SKILL.md ahead of need
    // (SEP-2640 forbids it), so served skills show no body tokens.
    const todo = records.filter((r) => !bodyTokens.has(r) && r.scope !== "mcp");
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < todo.length) {
        const record = todo[next++];
        if (record === undefined) continue;
        try {
          bodyTokens.set(record, session.counter.count((await catalog.load(record.name)).body));
        } catch {
          bodyTokens.set(record, undefined);
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
  };
  // The last view and what it was built from: the same records and diagnostics (same objects, same order)
  // give the same view, so a page's two requests, or many pages, cost one build.
  let last: { inputs: readonly object[]; view: Promise<CatalogView> } | undefined;
  const same = (a: readonly object[], b: readonly object[]): boolean =>
    a.length === b.length && a.every((r, i) => r === b[i]);
  return {
    search: async (query, limit = 20) =>
      (await session.search(query, limit)).map((h) => ({ name: h.name, score: h.score })),
    view() {
      const records = catalog.list();
      const inputs = [...records, ...catalog.diagnostics()];
      if (last === undefined || !same(last.inputs, inputs)) {
        const view = build(records);
        last = { inputs, view };
        // A failed build is not kept.
        view.catch(() => {
          if (last?.view === view) last = undefined;
        });
      }
      return last.view;
    },
  };

  async function build(records: readonly SkillRecord[]): Promise<CatalogView> {
    await measureBodies(records);
    const ledger = session.ledger();
    const blockText = session.renderer.render().blocks.find((b) => b.key === "catalog")?.text ?? "";
    const visible = new Set(session.visibleSkills().map((r) => r.name));
    const format = catalogEntryFormat("list");
    const skills = records.map((record): CatalogSkillView => {
      let status: CatalogStatus;
      if (!visible.has(record.name)) status = "hidden";
      else if (blockText.includes(format.entry(record, record.description, false))) status = "full";
      else if (blockText.includes(format.entry(record, shortenDescription(record.description), false)))
        status = "shortened";
      else if (blockText.includes(format.entry(record, undefined, false))) status = "name-only";
      else status = "left-out";
      const tokens = bodyTokens.get(record);
      return {
        name: record.name,
        description: record.description,
        scope: record.scope,
        location: record.location,
        status,
        ...(tokens === undefined ? {} : { bodyTokens: tokens }),
        diagnostics: record.diagnostics.map(pickDiagnostic),
      };
    });
    const counts: Record<CatalogStatus, number> = {
      full: 0,
      shortened: 0,
      "name-only": 0,
      "left-out": 0,
      hidden: 0,
    };
    for (const s of skills) counts[s.status]++;
    const listed = new Set(records.flatMap((r) => [r.location, r.dir]));
    const problems = catalog
      .diagnostics()
      .filter((d) => !listed.has(d.path))
      .map((d) => ({ ...pickDiagnostic(d), path: d.path }));
    return {
      counter: ledger.counter,
      catalogBudget: ledger.catalogBudget,
      contextWindow: ledger.contextWindow,
      stats: ledger.catalog,
      counts,
      total: skills.length,
      blockText,
      skills,
      problems,
    };
  }
}
