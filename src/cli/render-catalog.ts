import { escapeHtml, toPrompt } from "../spec/to-prompt.js";

/** Output formats of the L1 catalog (`skillrt prompt --format`). */
export type CatalogFormat = "agentskills" | "xml" | "markdown" | "list";

/** Every {@link CatalogFormat}, default first. */
export const catalogFormats: readonly CatalogFormat[] = ["list", "agentskills", "xml", "markdown"];

/** What a catalog entry needs to be rendered. */
export interface CatalogEntry {
  name: string;
  description: string;
  /** Absolute real path of the skill file. */
  location: string;
  /** `true` hides the skill from the model's catalog. Default false. */
  disableModelInvocation?: boolean;
}

/** Options of {@link renderCatalog}. */
export interface RenderCatalogOptions {
  /** Names of skills loaded in the session: `[✓]` instead of `[○]` in the markdown format. Default none. */
  loaded?: ReadonlySet<string>;
}

/**
 * Renders the L1 catalog, in the order given, omitting skills with `disableModelInvocation`. Pure and
 * deterministic; no trailing newline.
 * - `agentskills`: skills-ref `to-prompt` byte for byte (one tag or value per line, HTML-escaped name and
 *   description with `&#x27;`, location unescaped); with no skills, the empty `<available_skills>` element.
 * - `xml`: `<available_skills>` with indented, escaped `<skill>` entries, one line each; `""` when empty.
 * - `markdown`: `- [○] **name**: description` (`[✓]` when loaded); `""` when empty.
 * - `list`: `- name: description`; `""` when empty.
 */
export function renderCatalog(
  records: readonly CatalogEntry[],
  format: CatalogFormat,
  options: RenderCatalogOptions = {},
): string {
  const visible = records.filter((record) => record.disableModelInvocation !== true);
  switch (format) {
    case "agentskills":
      return toPrompt(visible);
    case "xml":
      return renderXml(visible);
    case "markdown":
      return visible
        .map(
          (r) =>
            `- [${options.loaded?.has(r.name) === true ? "✓" : "○"}] **${r.name}**: ${oneLine(r.description)}`,
        )
        .join("\n");
    case "list":
      return visible.map((r) => `- ${r.name}: ${oneLine(r.description)}`).join("\n");
  }
}

function renderXml(records: readonly CatalogEntry[]): string {
  if (records.length === 0) return "";
  const lines = ["<available_skills>"];
  for (const r of records) {
    lines.push("  <skill>");
    lines.push(`    <name>${escapeHtml(r.name)}</name>`);
    lines.push(`    <description>${escapeHtml(oneLine(r.description))}</description>`);
    lines.push(`    <location>${escapeHtml(r.location)}</location>`);
    lines.push("  </skill>");
  }
  lines.push("</available_skills>");
  return lines.join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
