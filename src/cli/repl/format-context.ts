/** Text of the `/context` and `/skills` REPL commands. */
import type { SkillListing } from "../../context/list-skills.js";
import type { Ledger } from "../../context/rendered-context.js";
import type { ActiveTools } from "../../tools/compute-active-tools.js";
import type { McpServerStatus } from "../../tools/mcp-client/create-mcp-tool-source.js";
import type { ToolTokens } from "../../tools/tool-definition-tokens.js";

/** Totals of a ledger grouped as `/context` shows them; `free` makes them add up to the window. */
export interface ContextFigures {
  catalog: number;
  bodies: number;
  docs: number;
  history: number;
  /** Tool definitions the next request carries (name, description, input schema of each offered tool). */
  tools: number;
  free: number;
  contextWindow: number;
}

/**
 * Groups ledger entries: catalog (catalog + frame), bodies (skill), docs (doc + read), history (the rest),
 * plus the tool definitions `tools` (not a session ledger entry: the tools are the loop's).
 */
export function contextFigures(ledger: Ledger, tools: readonly ToolTokens[] = []): ContextFigures {
  let catalog = 0;
  let bodies = 0;
  let docs = 0;
  let history = 0;
  for (const entry of ledger.entries) {
    if (entry.kind === "catalog" || entry.kind === "frame") catalog += entry.tokens;
    else if (entry.kind === "skill") bodies += entry.tokens;
    else if (entry.kind === "doc" || entry.kind === "read") docs += entry.tokens;
    else history += entry.tokens;
  }
  const toolTokens = tools.reduce((sum, t) => sum + t.tokens, 0);
  const used = catalog + bodies + docs + history + toolTokens;
  return {
    catalog,
    bodies,
    docs,
    history,
    tools: toolTokens,
    free: ledger.contextWindow - used,
    contextWindow: ledger.contextWindow,
  };
}

const num = (n: number): string => n.toLocaleString("en-US");

/**
 * The `/context` table: one row per group, a share of the window each, the loaded items, and the tool
 * definitions one by one (largest first).
 */
export function formatContext(ledger: Ledger, tools: readonly ToolTokens[] = []): string {
  const f = contextFigures(ledger, tools);
  const rows: Array<[string, number]> = [
    ["catalog", f.catalog],
    ["bodies", f.bodies],
    ["docs", f.docs],
    ["history", f.history],
    ["tools", f.tools],
    ["free", f.free],
  ];
  const width = Math.max(...rows.map(([, n]) => num(n).length), num(f.contextWindow).length);
  const pct = (n: number): string => `${((100 * n) / f.contextWindow).toFixed(1)}%`.padStart(6);
  const lines = [`Context window ${num(f.contextWindow)} tokens (${ledger.counter})`];
  for (const [label, n] of rows) lines.push(`  ${label.padEnd(8)} ${num(n).padStart(width)} ${pct(n)}`);
  lines.push(
    `  ${"used".padEnd(8)} ${num(f.contextWindow - f.free).padStart(width)} ${pct(f.contextWindow - f.free)}`,
  );
  lines.push(`  ${"window".padEnd(8)} ${num(f.contextWindow).padStart(width)}`);
  if (f.free < 0) lines.push(`  over the window by ${num(-f.free)} tokens`);
  const items = ledger.entries.filter((e) => e.kind === "skill" || e.kind === "doc" || e.kind === "read");
  if (items.length > 0) {
    lines.push("In context:");
    for (const e of items) lines.push(`  ${e.key} ${num(e.tokens)}`);
  }
  if (tools.length > 0) {
    lines.push(`Tool definitions (${tools.length} tools, ${num(f.tools)} tokens):`);
    for (const t of [...tools].sort((a, b) => b.tokens - a.tokens))
      lines.push(`  ${t.name} ${num(t.tokens)}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The `/skills` list: `[✓]` loaded / `[○]` not, name, costs, description (one line). `body` is what the
 * skill's instructions cost in context: exact for a loaded skill, `≈` (from `bodyTokens`, the body alone)
 * for one not loaded; `catalog` is what its catalog line costs now (not loaded skills only: a loaded one's
 * line is part of the catalog figure of `/context`). A skill missing from `bodyTokens` shows `?`.
 */
export function formatSkills(
  skills: SkillListing[],
  width = 100,
  bodyTokens: ReadonlyMap<string, number> = new Map(),
): string {
  if (skills.length === 0)
    return "No skills found. Add folders with a SKILL.md under .agents/skills or pass --root DIR.\n";
  const rows = skills.map((s) => {
    const estimate = bodyTokens.get(s.name);
    const body = s.loaded ? num(s.tokens) : estimate === undefined ? "?" : `≈${num(estimate)}`;
    return { s, body, catalog: s.loaded ? "" : num(s.tokens) };
  });
  const nameWidth = Math.max(...skills.map((s) => s.name.length));
  const bodyWidth = Math.max(...rows.map((r) => r.body.length));
  const catalogWidth = Math.max(...rows.map((r) => r.catalog.length));
  const lines = rows.map(({ s, body, catalog }) => {
    const cost =
      catalog === "" ? " ".repeat(catalogWidth + 10) : `  catalog ${catalog.padStart(catalogWidth)}`;
    const head = `${s.loaded ? "[✓]" : "[○]"} ${s.name.padEnd(nameWidth)}  body ${body.padStart(bodyWidth)} tok${cost}  `;
    const room = Math.max(10, width - head.length);
    const desc = s.description.replace(/\s+/g, " ").trim();
    return head + (desc.length > room ? `${desc.slice(0, room - 1)}…` : desc);
  });
  const loaded = skills.filter((s) => s.loaded).length;
  lines.push(
    `${loaded} loaded of ${skills.length}. body: tokens of the instructions in context (≈ until loaded); ` +
      "catalog: tokens of the catalog line.",
    "Load one with /skill NAME [args], or mention $name in a message.",
  );
  return `${lines.join("\n")}\n`;
}

/**
 * The tools part of `/context`: each MCP server's state, then every gated tool offered (with the grant)
 * and every hidden one (with the reason). Empty when there are neither servers nor gated tools.
 */
export function formatTools(gating: ActiveTools, servers: readonly McpServerStatus[]): string {
  const lines: string[] = [];
  if (servers.length > 0) {
    lines.push("MCP servers:");
    for (const s of servers) {
      const detail =
        s.state === "running" ? `${s.transport ?? ""}, ${s.tools.length} tools` : (s.message ?? s.state);
      lines.push(`  ${s.name} ${s.state}${detail === "" ? "" : ` (${detail})`}`);
    }
  }
  const granted = Object.entries(gating.granted ?? {});
  const hidden = Object.entries(gating.reasons);
  if (granted.length > 0) {
    lines.push("Tools offered:");
    for (const [name, why] of granted) lines.push(`  ${name}: ${why}`);
  }
  if (hidden.length > 0) {
    lines.push("Tools not offered:");
    for (const [name, why] of hidden) lines.push(`  ${name}: ${why}`);
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
